// cf.assert in a kernel, as MLIR's CUDA assert test writes it: on NVIDIA
// chips it becomes a call of __assertfail; for an AMD chip (the module's
// own #rocdl.target here) MLIR 22 has no lowering, and klx-lint says so
// before upstream's bare error.
//
// RUN: sed 's/CHIP/nvvm.target<chip = "sm_90a">/' %s > %t.nv.mlir
// RUN: klx compile %t.nv.mlir --emit=ptx | FileCheck %s --check-prefix=NV
// NV: .extern .func __assertfail
// NV: call.uni __assertfail
// RUN: sed 's/CHIP/rocdl.target<chip = "gfx90a">/' %s > %t.amd.mlir
// RUN: not klx compile %t.amd.mlir 2>&1 | FileCheck %s --check-prefix=AMD
// AMD: amd.mlir:[[@LINE+8]]:7: warning: 'cf.assert' in a kernel lowers only for NVIDIA chips (to __assertfail), and gfx90a is an AMD chip
// AMD: error: 'llvm.mlir.addressof' op must reference a global

module attributes {gpu.container_module} {
  gpu.module @kernels [#CHIP] {
    gpu.func @scale(%x: memref<256xf32>, %n: index) kernel {
      %t = gpu.thread_id x
      %inside = arith.cmpi ult, %t, %n : index
      cf.assert %inside, "thread outside the buffer"
      %v = memref.load %x[%t] : memref<256xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %x[%t] : memref<256xf32>
      gpu.return
    }
  }
}
