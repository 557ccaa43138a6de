// Lesson: the smallest kernel, written the way MLIR's own GPU tests write
// host code: a host function whose gpu.launch body is the kernel.
//
// Watch gpu-kernel-outlining move the body into a gpu.module and turn the
// launch into gpu.launch_func; convert-scf-to-cf turn the bounds check into
// branches; convert-gpu-to-nvvm turn thread and block ids into
// nvvm.read.ptx.sreg.* reads; and the PTX end in a guarded fma.rn.f32.
//
// y[i] = a * x[i] + y[i] for i < n, 256 threads per block.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// PTX: .entry saxpy_kernel
// PTX: mov.u32 {{.*}}%tid.x
// PTX: setp.{{.*}}
// PTX: fma.rn.f32
// PTX: st.global.b32
// STEPS: gpu-kernel-outlining  builtin.module {{.*}} yes
// STEPS: convert-gpu-to-nvvm   gpu.module @saxpy_kernel {{.*}} yes
// STEPS: cubin
// STEPS: saxpy_kernel (sm_90a): {{[0-9]+}} registers

func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %blocks = arith.ceildivui %n, %c256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %first = arith.muli %bx, %sx : index
    %i = arith.addi %first, %tx : index
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %r = math.fma %a, %xi, %yi : f32
      memref.store %r, %y[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
