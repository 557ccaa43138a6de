// --stop-after prints the IR after that step; a later occurrence of a
// repeated pass is NAME#N; --emit needs its step to be inside the range.
// RUN: klx compile %samples/nvidia/saxpy.mlir --stop-after=gpu-kernel-outlining | FileCheck %s --check-prefix=OUTLINED
// RUN: klx compile %samples/nvidia/saxpy.mlir --stop-after=canonicalize#2 | FileCheck %s --check-prefix=NVVM
// RUN: klx compile %samples/nvidia/saxpy.mlir --stop-after=llvm-ir | FileCheck %s --check-prefix=LLVM
// RUN: not klx compile %samples/nvidia/saxpy.mlir --stop-after=no-such-step 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// OUTLINED: gpu.launch_func @saxpy_kernel::@saxpy_kernel
// OUTLINED: gpu.module @saxpy_kernel
// OUTLINED: gpu.func @saxpy_kernel
// NVVM: llvm.func @saxpy_kernel
// NVVM: nvvm.read.ptx.sreg.tid.x
// NVVM-NOT: gpu.thread_id
// RUN: klx compile %samples/nvidia/saxpy.mlir --stop-after=llvm-opt | FileCheck %s --check-prefix=OPT
// math.fma calls libdevice; llvm-ir links it, llvm-opt inlines it.
// LLVM: define ptx_kernel void @saxpy_kernel
// LLVM: call float @__nv_fmaf
// LLVM: define internal float @__nv_fmaf
// OPT: define ptx_kernel void @saxpy_kernel
// OPT-NOT: call float @__nv_fmaf
// OPT: call float @llvm.fma.f32
// UNKNOWN: error: no step named 'no-such-step' for sm_90a; steps are: parse, klx-lint, convert-nvgpu-to-nvvm, {{.*}}, llvm-ir, llvm-opt, ptx, cubin, sass
