// Lesson: the kernel body as ordered steps. A step loads from global
// memory, computes, and stores; all loads of a step are issued together.
// y[i] = x[idx[i] + 2] + 1 cannot be one step: the gather's address comes
// from idx[i], which the same kernel loads. So: step 1 loads the index
// and builds the offset; step 2 gathers x and adds. A machine that runs
// steps (a DMA engine, TMA's gather) takes the offsets from memory, so
// with -D bridge_steps=1 klx-bridge-steps puts the offset through shared
// memory: a store at the end of step 1, a barrier, a load at the start of
// step 2. gather_direct.mlir, x[i + 2] + 1, stays one step.
//
// One thread per element, 256 per block; N must be a multiple of 256 (the
// kernel does not mask). klx-run checks y against the CPU, exactly.
//
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// RUN: klx steps %s -D bridge_steps=1 | FileCheck %s --check-prefix=BRIDGED
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx compile %s -D bridge_steps=1 --emit=ptx | FileCheck %s --check-prefix=PTXB
// STEPS: kernel gather_indirect: 2 steps
// STEPS-NEXT: step 1: load -> compute
// STEPS-NEXT: load {{.*}} memref.load %arg0
// STEPS-NEXT: compute {{.*}} arith.addi
// STEPS-NEXT: compute {{.*}} arith.index_cast
// STEPS-NEXT: step 2: load -> compute -> store
// STEPS-NEXT: why a new step: memref.load at line {{[0-9]+}} takes its address from data that memref.load at line {{[0-9]+}} loads in step 1
// STEPS-NEXT: load {{.*}} memref.load %arg1
// STEPS-NEXT: compute {{.*}} arith.addf
// STEPS-NEXT: store {{.*}} memref.store
// STEPS-NEXT: crossing: arith.index_cast {{.*}} made in step 1 and used in step 2, in registers
// BRIDGED: steps after convert-vector-to-scf
// BRIDGED: kernel gather_indirect: 2 steps
// BRIDGED-NEXT: step 1: load -> compute -> store
// BRIDGED: store (shared) {{.*}} #gpu.address_space<workgroup>
// BRIDGED-NEXT: step 2: load -> compute -> store
// BRIDGED-NEXT: why a new step: gpu.barrier at line {{[0-9]+}} ends the step before
// BRIDGED-NEXT: load (shared)
// BRIDGED-NEXT: compute {{.*}} arith.index_cast
// BRIDGED-NEXT: load {{.*}} memref.load %arg1
// BRIDGED-NOT: crossing
// PTX: .entry gather_indirect
// PTX-NOT: bar.sync
// PTX-NOT: .shared
// PTX: ld.global
// PTX: st.global.b32
// PTXB: .shared {{.*}}
// PTXB: st.shared
// PTXB: bar.sync 0
// PTXB: ld.shared

module attributes {gpu.container_module,
                   klx.params = {bridge_steps = false}} {
  gpu.module @gather {
    gpu.func @gather_indirect(%idx: memref<?xi32>, %x: memref<?xf32>,
                              %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>,
                    klx.launch = {block = array<i64: 256, 1, 1>,
                                  grid = "elements",
                                  dynamic_shared_memory = 0 : i64,
                                  problem = {kind = "gather", index = "idx",
                                             offset = 2 : i64, add = 1 : i64},
                                  params = [
      {name = "idx", kind = "memref", rank = 1 : i64, dtype = "i32"},
      {name = "x", kind = "memref", rank = 1 : i64, dtype = "f32"},
      {name = "y", kind = "memref", rank = 1 : i64, dtype = "f32"}]}} {
      %c256 = arith.constant 256 : index
      %block = gpu.block_id x
      %thread = gpu.thread_id x
      %first = arith.muli %block, %c256 : index
      %i = arith.addi %first, %thread : index
      // Step 1: load the index, build the offset.
      %j = memref.load %idx[%i] : memref<?xi32>
      %c2 = arith.constant 2 : i32
      %j2 = arith.addi %j, %c2 : i32
      %offset = arith.index_cast %j2 : i32 to index
      // Step 2: gather, add, store.
      %v = memref.load %x[%offset] : memref<?xf32>
      %one = arith.constant 1.0 : f32
      %r = arith.addf %v, %one : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
