// The form of MLIR's all-reduce integration tests: a host function
// allocates, registers the buffer with gpu.host_register, and launches a
// gpu.launch whose block sizes are read from the buffer's shape at run
// time; every thread adds its index with gpu.all_reduce.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .visible .entry main_kernel(
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync 0;
// RUN: klx pipeline %s | FileCheck %s --check-prefix=PIPE
// PIPE: all-reduce.mlir -> sm_90a
// PIPE: gpu-kernel-outlining
// PIPE: {{^}}gpu.module @main_kernel{{$}}
// PIPE-NEXT: main_kernel (sm_90a): {{[0-9]+}} registers
// Block sizes known only at run time: roles say why they cannot be read.
// RUN: klx roles %s 2>&1; test $? -eq 2
// RUN: not klx roles %s 2>&1 | FileCheck %s --check-prefix=ROLES
// ROLES: klx roles: {{.*}}all-reduce.mlir: no kernel with a known block size and structured control flow at any step (a gpu.func needs known_block_size, a gpu.launch constant block sizes)
// The body as steps: the reduction works on thread ids, not loaded data,
// so the step is its store alone.
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// STEPS: kernel main (gpu.launch): 1 step
// STEPS-NEXT: step 1: store
// STEPS-NEXT: store line {{[0-9]+}} memref.store

func.func @main() {
  %buffer = memref.alloc() : memref<2x4x13xf32>
  %data = memref.cast %buffer : memref<2x4x13xf32> to memref<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %sx = memref.dim %data, %c2 : memref<?x?x?xf32>
  %sy = memref.dim %data, %c1 : memref<?x?x?xf32>
  %sz = memref.dim %data, %c0 : memref<?x?x?xf32>
  %unranked = memref.cast %data : memref<?x?x?xf32> to memref<*xf32>
  gpu.host_register %unranked : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%bsx = %sx, %bsy = %sy, %bsz = %sz) {
    %plane = arith.muli %tz, %bsy : index
    %row = arith.addi %ty, %plane : index
    %rowStart = arith.muli %row, %bsx : index
    %linear = arith.addi %tx, %rowStart : index
    %asInt = arith.index_cast %linear : index to i32
    %value = arith.sitofp %asInt : i32 to f32
    %sum = gpu.all_reduce add %value uniform {} : (f32) -> (f32)
    memref.store %sum, %data[%tz, %ty, %tx] : memref<?x?x?xf32>
    gpu.terminator
  }
  return
}
