// Clusters: -D cluster_m=2 makes each cluster of two CTAs compute a column
// of two output tiles that share B. Each CTA loads its A tile, and its
// half of every B box (32 of the 64 k rows) multicast into both CTAs;
// each consumer warpgroup releases a stage to both CTAs (lane 0 of warp w
// arrives on CTA w's empty barrier, through mapa), so an empty barrier
// waits for 4 arrivals: one per consumer warpgroup of the cluster.
//
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s
// CHECK: gpu.func @gemm
// CHECK-SAME: klx.launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 2, 1, 1>, cluster_tiles = array<i64: 2, 1>,
// CHECK-SAME: params = [{box = array<i64: 128, 64>, dtype = "f16", kind = "tensor_map", name = "A", swizzle = 128 : i64}, {box = array<i64: 32, 64>, dtype = "f16", kind = "tensor_map", name = "B", swizzle = 128 : i64}
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: nvgpu.mbarrier.init %[[FULL:.*]][%{{.*}}], %c1
// CHECK: nvgpu.mbarrier.init %[[EMPTY:.*]][%{{.*}}], %c4
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// The producer: its own A tile, then its share of each B box to both CTAs.
// CHECK: nvgpu.tma.async.load %{{.*}} to %{{.*}} : <tensor = memref<128x64xf16, 3>
// CHECK: %[[MASK:.*]] = arith.constant 3 : i16
// CHECK: arith.muli %cluster_block_id_x, %c4096
// CHECK: arith.muli %cluster_block_id_x, %c32
// CHECK-COUNT-4: nvgpu.tma.async.load {{.*}} multicast_mask = %[[MASK]] : <tensor = memref<32x64xf16, 3>
// The consumers' release: one thread per warp w < 2, onto CTA w's barrier.
// CHECK: nvgpu.mbarrier.get %[[EMPTY]][%{{.*}}] : {{.*}} -> i32
// CHECK: llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
// No CTA leaves while the other may still arrive on its barriers.
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return
//
// cluster_n=2 shares A instead: 64 of A's 128 rows per CTA, multicast.
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_n=2 --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=ROW
// ROW: cluster = array<i64: 2, 1, 1>, cluster_tiles = array<i64: 1, 2>
// ROW-SAME: {box = array<i64: 64, 64>, dtype = "f16", kind = "tensor_map", name = "A"
// ROW-SAME: {box = array<i64: 64, 64>, dtype = "f16", kind = "tensor_map", name = "B"
// ROW: nvgpu.tma.async.load {{.*}} multicast_mask = {{.*}} : <tensor = memref<64x64xf16, 3>
// ROW-NOT: multicast_mask
//
// The kernel in PTX (a cluster kernel, multicast copies, arrives across
// the cluster).
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .reqnctapercluster 2, 1, 1
// PTX-DAG: barrier.cluster.arrive.aligned;
// PTX-DAG: barrier.cluster.wait.aligned;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX-DAG: mapa.shared::cluster.u64
// PTX-DAG: mbarrier.arrive.shared::cluster.b64
//
// What a cluster needs of the schedule, said before anything is lowered.
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 -D cluster_n=2 2>&1 | FileCheck %s --check-prefix=ERR2D
// ERR2D: gemm_ws_persistent.mlir:85:3: error: 'klx.kernel' op schedule: a cluster is one column (cluster_m) or one row (cluster_n) of tiles; got 2 x 2
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=3 2>&1 | FileCheck %s --check-prefix=ERR3
// ERR3: error: 'klx.kernel' op schedule: cluster_m and cluster_n must be 1, 2 or 4 CTAs; got 3 x 1
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 -D epilogue=direct 2>&1 | FileCheck %s --check-prefix=ERRDIRECT
// ERRDIRECT: error: 'klx.kernel' op schedule: a cluster needs epilogue = "tma"
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_n=2 -D persistent=0 2>&1 | FileCheck %s --check-prefix=ERRTILES
// ERRTILES: error: 'klx.kernel' op schedule: a cluster needs persistent = true, warp_specialize = true and one producer
//
// The analyses model the cluster: roles mark what reaches other CTAs; the
// timeline and klx verify run both CTAs' roles, linked as lowered.
// RUN: klx roles %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 | FileCheck %s --check-prefix=ROLES
// ROLES: kernel @gemm (thread-index branches): 384 threads, 3 warpgroups, 168 registers per thread at entry, clusters of 2 CTAs
// ROLES: barriers: wait empty, arrive.expect_tx full, complete_tx full, complete_tx full (multicast to the cluster)
// ROLES: barriers: wait full, arrive empty (of a CTA of the cluster)
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// RUN: klx timeline %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 | FileCheck %s --check-prefix=TIMELINE
// TIMELINE: model: a cluster of 2 CTAs that take their tiles in step
// TIMELINE: barriers: full (CTA 0) x4 (init 1) empty (CTA 0) x4 (init 256) full (CTA 1) x4 (init 1) empty (CTA 1) x4 (init 256)
// TIMELINE: role producer (CTA 0)
// TIMELINE: role consumer (CTA 1)
// TIMELINE: verdict: completes in
// TIMELINE-NOT: but:
// RUN: klx verify %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 --tiles=2 --k-steps=5 | FileCheck %s --check-prefix=VERIFY
// VERIFY: verified: no deadlock, protocol error or stage race for any timing, up to 2 tiles x 5 k steps
// VERIFY: leaves out: other clusters: the 2 CTAs of one cluster are modelled
//
// Read back from nvgpu ops, one CTA's threads cannot say what the
// cluster does: unknown, and why.
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D cluster_m=2 --stop-after=klx-to-nvgpu --emit=mlir -o %t.mlir
// RUN: not klx timeline %t.mlir 2>&1 | FileCheck %s --check-prefix=LOWERED
// LOWERED: @gemm: the barrier protocol is unknown, because the kernel runs in clusters of 2 CTAs (nvvm.cluster_dim, at line {{[0-9]+}})
