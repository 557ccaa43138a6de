// klx-warp-specialize: the loads go to a producer role that iterates one
// merged (tile x k) loop; the consumers keep the tile and k loops and take
// the tiles from a channel.
// RUN: klx-opt %s -split-input-file -verify-diagnostics --klx-materialize-schedule --klx-warp-specialize | FileCheck %s

// CHECK-LABEL: klx.kernel @gemm
// CHECK: %[[CH:.*]] = klx.channel slots(2)
// CHECK: klx.warp_specialize {
// CHECK:   klx.role "producer" producer warpgroups [2] warps [0] regs 40 {
// CHECK:     klx.for_each_tile (%[[TM:.*]], %[[TN:.*]], %[[K:.*]]) in (%arg3, %arg4, %arg5) {
// CHECK-NEXT:  %[[A:.*]] = klx.load a %arg0[%[[TM]], %[[K]]]
// CHECK-NEXT:  %[[B:.*]] = klx.load b %arg1[%[[K]], %[[TN]]]
// CHECK-NEXT:  klx.push %[[CH]], %[[A]], %[[B]]
// CHECK:   klx.role "consumer" consumer warpgroups [0, 1] warps [0, 1, 2, 3] regs 232 {
// CHECK:     klx.for_each_tile (%{{.*}}, %{{.*}}) in (%arg3, %arg4) {
// CHECK:       scf.for
// CHECK-NEXT:    %[[T:.*]]:2 = klx.pop %[[CH]] : !klx.tile, !klx.tile
// CHECK-NEXT:    klx.mma %[[T]]#0, %[[T]]#1
// CHECK-NEXT:    klx.release %[[CH]]
// CHECK:       klx.store
// CHECK-NOT: klx.load
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

// -----

// One consumer warpgroup with more registers.
// CHECK-LABEL: klx.kernel @one_consumer
// CHECK: klx.role "producer" producer warpgroups [1] warps [0] regs 40
// CHECK: klx.role "consumer" consumer warpgroups [0] warps [0, 1, 2, 3] regs 240
module attributes {klx.params = {consumers = 1 : i64, consumer_regs = 240 : i64}} {
  klx.kernel @one_consumer(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
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

// -----

klx.kernel @k_loop_from_one(%A: !klx.tensor, %M: index, %N: index, %K: index) {
  klx.for_each_tile (%tm, %tn) in (%M, %N) {
    %c1 = arith.constant 1 : index
    %kt = klx.k_tiles %K
    // expected-error @+1 {{the k loop must run from 0 to klx.k_tiles(K) in steps of 1 for warp specialization}}
    scf.for %k = %c1 to %kt step %c1 {
      %a = klx.load a %A[%tm, %k]
    }
  }
}

// -----

// expected-error @+1 {{has no klx.for_each_tile to specialize}}
klx.kernel @no_tiles(%M: index) {
}
