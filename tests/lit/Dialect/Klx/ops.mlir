// The klx ops round-trip through the printer and parser.
// RUN: klx-opt %s | klx-opt | FileCheck %s

// CHECK-LABEL: klx.kernel @gemm(%arg0: !klx.tensor, %arg1: !klx.tensor, %arg2: !klx.tensor, %arg3: index, %arg4: index, %arg5: index)
klx.kernel @gemm(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                 %M: index, %N: index, %K: index) {
  // CHECK: klx.for_each_tile (%[[TM:.*]], %[[TN:.*]]) in (%arg3, %arg4) {
  klx.for_each_tile (%tm, %tn) in (%M, %N) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // CHECK: klx.zero
    %zero = klx.zero
    // CHECK: klx.k_tiles %arg5
    %kt = klx.k_tiles %K
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (!klx.acc) {
      // CHECK: klx.load a %arg0[%[[TM]], %{{.*}}]
      %a = klx.load a %A[%tm, %k]
      // CHECK: klx.load b %arg1[%{{.*}}, %[[TN]]]
      %b = klx.load b %B[%k, %tn]
      // CHECK: klx.mma
      %c2 = klx.mma %a, %b, %c
      scf.yield %c2 : !klx.acc
    }
    // CHECK: klx.store %{{.*}}, %arg2[%[[TM]], %[[TN]]]
    klx.store %acc, %D[%tm, %tn]
  }
}

// CHECK-LABEL: klx.kernel @roles
klx.kernel @roles(%A: !klx.tensor, %M: index, %N: index, %K: index) attributes {schedule = #klx.schedule<tileM = 128, tileN = 128, tileK = 64, stages = 4, consumers = 2, warpSpecialize = true, pingpong = false, persistent = true, producerRegs = 40, consumerRegs = 232, dtype = f16>} {
  // CHECK: klx.pipeline stages(4) tx_bytes(32768) arrivals(256)
  %p = klx.pipeline stages(4) tx_bytes(32768) arrivals(256)
  %ch = klx.channel slots(2)
  // CHECK: klx.warp_specialize {
  klx.warp_specialize {
    // CHECK: klx.role "producer" producer warpgroups [2] warps [0] regs 40 {
    klx.role "producer" producer warpgroups [2] warps [0] regs 40 {
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      // CHECK: iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (index, i1)
      %s:2 = klx.for_each_tile (%tm, %tn, %k) in (%M, %N, %K) iter_args(%i = %c0, %ph = %false) -> (index, i1) {
        klx.producer_acquire %p[%i] phase %ph
        klx.copy a %A[%tm, %k] to %p[%i]
        %t = klx.load a %A[%tm, %k]
        klx.push %ch, %t
        %n:2 = klx.advance %i, %ph stages(4)
        klx.yield %n#0, %n#1 : index, i1
      }
    }
    // CHECK: klx.role "consumer" consumer warpgroups [0, 1] warps [0, 1, 2, 3] regs 232 {
    klx.role "consumer" consumer warpgroups [0, 1] warps [0, 1, 2, 3] regs 232 {
      %c0 = arith.constant 0 : index
      %false = arith.constant false
      klx.consumer_wait %p[%c0] phase %false
      %a = klx.stage_tile a %p[%c0]
      %t:1 = klx.pop %ch : !klx.tile
      klx.release %ch
      klx.consumer_release %p[%c0]
    }
  }
}

// A pipeline may take its full barriers from another with as many stages.
// CHECK-LABEL: klx.kernel @shared_full
// CHECK: %[[A:.*]] = klx.pipeline stages(2) tx_bytes(16384) arrivals(256)
// CHECK-NEXT: klx.pipeline stages(2) tx_bytes(16384) arrivals(256) full_of %[[A]]
klx.kernel @shared_full(%M: index) {
  %a = klx.pipeline stages(2) tx_bytes(16384) arrivals(256)
  %b = klx.pipeline stages(2) tx_bytes(16384) arrivals(256) full_of %a
}
