// klx-circular-buffer: the channel becomes a pipeline of stages; both sides
// walk it with the same (index, phase) state, carried across output tiles.
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer | FileCheck %s

// CHECK-LABEL: klx.kernel @gemm
// 2 stages of a 128x64 and a 64x128 f16 tile; 2 consumer warpgroups arrive.
// CHECK: %[[P:.*]] = klx.pipeline stages(2) tx_bytes(32768) arrivals(256)
// CHECK: klx.role "producer"
// CHECK:   %[[C0:.*]] = arith.constant 0 : index
// CHECK:   %[[F:.*]] = arith.constant false
// CHECK:   klx.for_each_tile ({{.*}}) in ({{.*}}) iter_args(%[[I:.*]] = %[[C0]], %[[PH:.*]] = %[[F]]) -> (index, i1) {
// CHECK-NEXT:  klx.producer_acquire %[[P]][%[[I]]] phase %[[PH]]
// CHECK-NEXT:  klx.copy a %arg0[{{.*}}] to %[[P]][%[[I]]]
// CHECK-NEXT:  klx.copy b %arg1[{{.*}}] to %[[P]][%[[I]]]
// CHECK-NEXT:  %[[NI:.*]], %[[NP:.*]] = klx.advance %[[I]], %[[PH]] stages(2)
// CHECK-NEXT:  klx.yield %[[NI]], %[[NP]] : index, i1
// CHECK: klx.role "consumer"
// CHECK:   klx.for_each_tile ({{.*}}) in ({{.*}}) iter_args(%[[TI:.*]] = %{{.*}}, %[[TP:.*]] = %{{.*}}) -> (index, i1) {
// CHECK:     %[[KS:.*]]:3 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[KI:.*]] = %[[TI]], %[[KP:.*]] = %[[TP]]) -> (!klx.acc, index, i1) {
// CHECK-NEXT:  klx.consumer_wait %[[P]][%[[KI]]] phase %[[KP]]
// CHECK-NEXT:  %[[SA:.*]] = klx.stage_tile a %[[P]][%[[KI]]]
// CHECK-NEXT:  %[[SB:.*]] = klx.stage_tile b %[[P]][%[[KI]]]
// CHECK-NEXT:  %[[M:.*]] = klx.mma %[[SA]], %[[SB]], %[[ACC]]
// CHECK-NEXT:  klx.consumer_release %[[P]][%[[KI]]]
// CHECK-NEXT:  %[[CI:.*]], %[[CP:.*]] = klx.advance %[[KI]], %[[KP]] stages(2)
// CHECK-NEXT:  scf.yield %[[M]], %[[CI]], %[[CP]]
// CHECK:     klx.store %[[KS]]#0
// CHECK-NEXT: klx.yield %[[KS]]#1, %[[KS]]#2 : index, i1
// CHECK-NOT: klx.channel
module attributes {klx.params = {stages = 2 : i64}} {
  klx.kernel @gemm(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                   %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = klx.zero
      %kt = klx.k_tiles %K
      %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (!klx.acc) {
        %a = klx.load a %A[%tm, %k]
        %b = klx.load b %B[%k, %tn]
        %n = klx.mma %a, %b, %c
        scf.yield %n : !klx.acc
      }
      klx.store %acc, %D[%tm, %tn]
    }
  }
}
