// The form of MLIR's ROCm tests when the gpu.module names its chip
// (#rocdl.target<chip = "gfx90a">): klx compiles for gfx90a, an AMD chip
// its tile dialect does not target, with no --target and no warning.
//
// RUN: klx compile %s 2> %t.err | FileCheck %s --check-prefix=AMD
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// AMD: .amdgcn_target "amdgcn-amd-amdhsa--gfx90a
// AMD: global_load_dword
// AMD: v_mul_f32
// QUIET-NOT: warning
// RUN: klx pipeline %s | FileCheck %s --check-prefix=PIPE
// PIPE: -> gfx90a

module attributes {gpu.container_module} {
  gpu.module @kernels [#rocdl.target<chip = "gfx90a">] {
    gpu.func @square(%x: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<256xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %x[%t] : memref<256xf32>
      gpu.return
    }
  }
}
