// producers = 2: klx-warp-specialize gives A and B a producer warp each
// (warps 0 and 1 of the producer warpgroup) and a channel each; the
// consumers pop both and release both. klx-circular-buffer makes a
// pipeline per channel; with shared_full_barrier the second pipeline takes
// the first's full barriers (full_of), the known deadlock.
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize | FileCheck %s --check-prefix=WS
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer | FileCheck %s --check-prefix=CB
// RUN: klx-opt %S/Inputs/two-producers-shared.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer | FileCheck %s --check-prefix=SHARED

// WS: %[[CA:.*]] = klx.channel slots(1)
// WS: %[[CHB:.*]] = klx.channel slots(1)
// WS: klx.role "producer_a" producer warpgroups [2] warps [0] regs 40 {
// WS:   klx.load a
// WS-NOT: klx.load b
// WS:   klx.push %[[CA]]
// WS: klx.role "producer_b" producer warpgroups [2] warps [1] regs 40 {
// WS:   klx.load b
// WS:   klx.push %[[CHB]]
// WS: klx.role "consumer" consumer warpgroups [0, 1] warps [0, 1, 2, 3] regs 232 {
// WS:   %[[A:.*]] = klx.pop %[[CA]] : !klx.tile
// WS:   %[[B:.*]] = klx.pop %[[CHB]] : !klx.tile
// WS:   klx.mma %[[A]], %[[B]]
// WS-NEXT: klx.release %[[CA]]
// WS-NEXT: klx.release %[[CHB]]

// CB: %[[PA:.*]] = klx.pipeline stages(4) tx_bytes(16384) arrivals(256)
// CB-NOT: full_of
// CB: %[[PB:.*]] = klx.pipeline stages(4) tx_bytes(16384) arrivals(256)
// CB-NOT: full_of
// CB: klx.producer_acquire %[[PA]]
// CB: klx.copy a {{.*}} to %[[PA]]
// CB: klx.producer_acquire %[[PB]]
// CB: klx.copy b {{.*}} to %[[PB]]
// CB: klx.consumer_wait %[[PA]]
// CB: klx.consumer_wait %[[PB]]

// SHARED: %[[PA:.*]] = klx.pipeline stages(4) tx_bytes(16384) arrivals(256)
// SHARED-NEXT: klx.pipeline stages(4) tx_bytes(16384) arrivals(256) full_of %[[PA]]

module attributes {klx.params = {producers = 2 : i64,
                                 shared_full_barrier = false}} {
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
