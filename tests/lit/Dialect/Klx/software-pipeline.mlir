// warp_specialize = false: no roles. klx-warp-specialize leaves the tile
// program alone and klx-circular-buffer pipelines it in place: one pipeline
// that all warpgroups wait on and release, a prologue in which thread 0
// issues the first stages-1 k steps, and in each k step thread 0 refills
// the ring stages-1 steps ahead. Each step's state is base + k steps into
// the ring, and the tile loop carries base from tile to tile.
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer | FileCheck %s
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent --klx-to-nvgpu | FileCheck %s --check-prefix=NV

// CHECK-LABEL: klx.kernel @gemm
// CHECK-SAME: warpSpecialize = false
// CHECK-NOT: klx.warp_specialize
// CHECK: %[[P:.*]] = klx.pipeline stages(4) tx_bytes(32768) arrivals(256)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[F:.*]] = arith.constant false
// CHECK: %[[AHEAD:.*]] = arith.constant 3 : index
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[ELECTED:.*]] = arith.cmpi eq, %[[TID]], %[[C0]]
// CHECK: klx.for_each_tile ({{.*}}) in ({{.*}}) iter_args(%[[BASE:.*]] = %[[C0]]) -> (index) {
// CHECK:   %[[KT:.*]] = klx.k_tiles
// CHECK:   %[[PRO:.*]] = arith.minui %[[AHEAD]], %[[KT]]
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %[[PRO]]
// CHECK-NEXT: scf.if %[[ELECTED]] {
// CHECK-NEXT:   %[[S:.*]] = arith.addi %[[BASE]], %[[J]]
// CHECK-NEXT:   %[[I:.*]], %[[PH:.*]] = klx.advance %[[C0]], %[[F]] by %[[S]] stages(4)
// CHECK-NEXT:   klx.producer_acquire %[[P]][%[[I]]] phase %[[PH]]
// CHECK-NEXT:   klx.copy a %{{.*}}[%{{.*}}, %[[J]]] to %[[P]][%[[I]]]
// CHECK-NEXT:   klx.copy b %{{.*}}[%[[J]], %{{.*}}] to %[[P]][%[[I]]]
// CHECK:   scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (!klx.acc) {
// CHECK-NEXT: %[[S2:.*]] = arith.addi %[[BASE]], %[[K]]
// CHECK-NEXT: %[[I2:.*]], %[[PH2:.*]] = klx.advance %[[C0]], %[[F]] by %[[S2]] stages(4)
// CHECK-NEXT: klx.consumer_wait %[[P]][%[[I2]]] phase %[[PH2]]
// CHECK-NEXT: %[[SA:.*]] = klx.stage_tile a %[[P]][%[[I2]]]
// CHECK-NEXT: %[[SB:.*]] = klx.stage_tile b %[[P]][%[[I2]]]
// CHECK-NEXT: %[[M:.*]] = klx.mma %[[SA]], %[[SB]], %[[ACC]]
// CHECK-NEXT: klx.consumer_release %[[P]][%[[I2]]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[AHEAD]]
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %[[KT]]
// CHECK-NEXT: scf.if %[[ELECTED]] {
// CHECK-NEXT:   scf.if %[[MORE]] {
// CHECK:          klx.producer_acquire
// CHECK-NEXT:     klx.copy a %{{.*}}[%{{.*}}, %[[NEXT]]]
// CHECK-NEXT:     klx.copy b %{{.*}}[%[[NEXT]], %{{.*}}]
// CHECK:      scf.yield %[[M]]
// CHECK:    klx.store
// CHECK-NEXT: %[[NB:.*]] = arith.addi %[[BASE]], %[[KT]]
// CHECK-NEXT: klx.yield %[[NB]] : index

// Lowered: all 256 threads run one body, so no setmaxnreg; the empty
// barriers wait for every thread's release.
// NV: gpu.func @gemm
// NV-SAME: known_block_size = array<i32: 256, 1, 1>
// NV-NOT: nvvm.setmaxregister
// NV: nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %c256
// NV-NOT: nvvm.setmaxregister
// NV: nvgpu.tma.async.load
// NV-NOT: nvvm.setmaxregister
// NV: nvgpu.warpgroup.mma

module attributes {klx.params = {stages = 4 : i64, warp_specialize = false}} {
  klx.kernel @gemm(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                   %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = klx.zero
      %k_tiles = klx.k_tiles %K
      %acc = scf.for %k = %c0 to %k_tiles step %c1
          iter_args(%partial = %zero) -> (!klx.acc) {
        %a = klx.load a %A[%tm, %k]
        %b = klx.load b %B[%k, %tn]
        %next = klx.mma %a, %b, %partial
        scf.yield %next : !klx.acc
      }
      klx.store %acc, %D[%tm, %tn]
    }
  }
}
