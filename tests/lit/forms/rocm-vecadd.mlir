// The form of MLIR's ROCm integration tests: a host function registers
// its buffers and adds two vectors in a gpu.launch (which carries no
// target attribute, so --target picks the chip).
//
// RUN: klx compile %s --target=gfx942 | FileCheck %s --check-prefix=AMD
// AMD: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// AMD: global_load_dword
// AMD: v_add_f32
// AMD: global_store_dword
// RUN: klx compile %s --target=gfx950 --emit=llvm | FileCheck %s --check-prefix=LLVM
// LLVM: define amdgpu_kernel void @main_kernel(
// LLVM: fadd float
// RUN: klx steps %s --target=gfx942 | FileCheck %s --check-prefix=STEPS
// STEPS: step 1: load -> compute -> store

func.func @main(%x: memref<64xf32>, %y: memref<64xf32>, %out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %ux = memref.cast %x : memref<64xf32> to memref<*xf32>
  gpu.host_register %ux : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %a = memref.load %x[%tx] : memref<64xf32>
    %b = memref.load %y[%tx] : memref<64xf32>
    %sum = arith.addf %a, %b : f32
    memref.store %sum, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}
