// klx-to-nvgpu{instrument}: the kernel takes a trace buffer as its last
// parameter, and the first trace-ctas CTAs record clock64 at each barrier
// wait (before and after), arrive, copy and MMA issue: a count per warp
// (one writer each: a load and a store), then (clock, kind | stage << 8)
// while there is room.
// RUN: klx-opt %samples/nvidia/gemm_ws_persistent.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent "--klx-to-nvgpu=instrument=true trace-ctas=1 trace-events=16" | FileCheck %s
// RUN: klx-opt %samples/nvidia/gemm_ws_persistent.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent --klx-to-nvgpu | FileCheck %s --check-prefix=PLAIN

// CHECK: gpu.func @gemm({{.*}}, %{{.*}}: index, %[[TRACE:.*]]: !llvm.ptr) kernel
// CHECK-SAME: {ctas = 1 : i64, events = 16 : i64, kind = "trace", name = "trace", warps = 12 : i64}
// Where this warp's events go: (cta x 12 + warp) x (1 + 2 x 16) words.
// CHECK: %[[TRACED:.*]] = arith.cmpi ult, %{{.*}}, %c1
// CHECK: arith.muli %{{.*}}, %c33
// Producer: a wait on empty, bracketed, then the copies, all by the
// elected thread.
// CHECK: scf.if %[[TRACED]] {
// CHECK:   nvvm.read.ptx.sreg.clock64 : i64
// CHECK:   %[[N:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:   llvm.store %{{.*}}, %{{.*}} : i64, !llvm.ptr
// CHECK:   arith.cmpi ult, %{{.*}}, %c16_i64
// CHECK:   arith.ori %c3_i64
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: arith.ori %c4_i64
// CHECK: arith.ori %c5_i64
// CHECK: nvgpu.tma.async.load
// Consumers: by the first thread of each warpgroup.
// CHECK: arith.ori %c1_i64
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: arith.ori %c2_i64
// CHECK: arith.ori %c6_i64
// CHECK: nvgpu.warpgroup.mma
// CHECK: arith.ori %c7_i64
// CHECK-COUNT-1: gpu.return

// PLAIN: gpu.func @gemm({{.*}}, %{{.*}}: index) kernel
// PLAIN-NOT: clock64
// PLAIN-NOT: atomicrmw
