// The form of MLIR's shuffle integration test: a gpu.launch of one warp
// whose lanes exchange values with gpu.shuffle xor, with a validity flag
// that picks the value to keep.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// RUN: klx compile %s --target=gfx942 | FileCheck %s --check-prefix=AMD
// AMD: .amdhsa_kernel main_kernel
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// ROLES: kernel @gpu.launch in @main (single role): 32 threads
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// The shuffle moves thread ids, not loaded data: no compute of a step.
// STEPS: kernel main (gpu.launch): 1 step
// STEPS-NEXT: step 1: store

func.func @main(%out: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %asInt = arith.index_cast %tx : index to i32
    %value = arith.sitofp %asInt : i32 to f32
    %offset = arith.constant 4 : i32
    %width = arith.constant 32 : i32
    %other, %valid = gpu.shuffle xor %value, %offset, %width : f32
    %kept = arith.select %valid, %other, %value : f32
    memref.store %kept, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
