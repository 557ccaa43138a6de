// Lesson (with gather_indirect.mlir): a gather whose address needs no
// loaded data stays one step. y[i] = x[i + 2] + 1: the address of x is
// built from the thread and block ids alone, so the load of x is issued
// with the step's other loads, and nothing crosses a step boundary. With
// -D bridge_steps=1 klx-bridge-steps finds nothing to do.
//
// One thread per element, 256 per block; N must be a multiple of 256.
//
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// RUN: klx steps %s -D bridge_steps=1 | FileCheck %s --check-prefix=STEPS
// RUN: klx compile %s -D bridge_steps=1 --emit=ptx | FileCheck %s --check-prefix=PTX
// STEPS: kernel gather_direct: 1 step
// STEPS-NEXT: step 1: load -> compute -> store
// STEPS-NEXT: load {{.*}} memref.load %arg0
// STEPS-NEXT: compute {{.*}} arith.addf
// STEPS-NEXT: store {{.*}} memref.store
// STEPS-NOT: crossing
// PTX: .entry gather_direct
// PTX-NOT: bar.sync
// PTX: ld.global
// PTX: st.global.b32

module attributes {gpu.container_module,
                   klx.params = {bridge_steps = false}} {
  gpu.module @gather {
    gpu.func @gather_direct(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>,
                    klx.launch = {block = array<i64: 256, 1, 1>,
                                  grid = "elements",
                                  dynamic_shared_memory = 0 : i64,
                                  problem = {kind = "gather", index = "i",
                                             offset = 2 : i64, add = 1 : i64},
                                  params = [
      {name = "x", kind = "memref", rank = 1 : i64, dtype = "f32"},
      {name = "y", kind = "memref", rank = 1 : i64, dtype = "f32"}]}} {
      %c256 = arith.constant 256 : index
      %block = gpu.block_id x
      %thread = gpu.thread_id x
      %first = arith.muli %block, %c256 : index
      %i = arith.addi %first, %thread : index
      %c2 = arith.constant 2 : index
      %offset = arith.addi %i, %c2 : index
      %v = memref.load %x[%offset] : memref<?xf32>
      %one = arith.constant 1.0 : f32
      %r = arith.addf %v, %one : f32
      memref.store %r, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
