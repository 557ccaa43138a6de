// pingpong = true: a consumer role per warpgroup, each visiting every
// second tile of the CTA (first_tile, tile_step) and taking its turn on
// the tensor cores around its k loop; klx-circular-buffer starts consumer
// c's state c tiles into the ring and skips the other's k steps after each
// tile; each stage is released by one warpgroup. klx-to-nvgpu gives each
// consumer a branch and inits one turn barrier per consumer for 128
// arrivals.
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize | FileCheck %s --check-prefix=WS
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer | FileCheck %s --check-prefix=CB
// RUN: klx-opt %s --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent --klx-to-nvgpu | FileCheck %s --check-prefix=NV

// WS: %[[T:.*]] = klx.turns consumers(2)
// WS: klx.role "producer" producer warpgroups [2] warps [0] regs 40
// WS: klx.role "consumer0" consumer warpgroups [0] warps [0, 1, 2, 3] regs 232 {
// WS:   %[[FIRST0:.*]] = arith.constant true
// WS:   klx.for_each_tile {{.*}} iter_args(%[[P0:.*]] = %[[FIRST0]]) -> (i1) {
// WS:     klx.take_turn %[[T]][0] phase %[[P0]]
// WS:     scf.for
// WS:     klx.pass_turn %[[T]][1]
// WS-NEXT: klx.store
// WS:   } {first_tile = 0 : i64, tile_step = 2 : i64}
// WS: klx.role "consumer1" consumer warpgroups [1] warps [0, 1, 2, 3] regs 232 {
// WS:   %[[FIRST1:.*]] = arith.constant false
// WS:     klx.take_turn %[[T]][1] phase
// WS:     klx.pass_turn %[[T]][0]
// WS:   } {first_tile = 1 : i64, tile_step = 2 : i64}

// CB: klx.pipeline stages(4) tx_bytes(32768) arrivals(128)
// CB: klx.role "consumer1"
// CB:   %[[KT:.*]] = klx.k_tiles
// CB:   %[[SKIP:.*]] = arith.muli %[[KT]], %c1
// CB:   klx.advance %{{.*}}, %{{.*}} by %[[SKIP]] stages(4)
// CB:   klx.for_each_tile
// CB:     klx.consumer_wait
// CB:     klx.advance {{.*}} by {{.*}} stages(4)
// CB-NEXT: klx.yield

// NV: %[[TURN:.*]] = nvgpu.mbarrier.create {klx.barrier = "turn"} -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// NV: nvgpu.mbarrier.init %[[TURN]][%{{.*}}], %c128
// NV: nvgpu.mbarrier.init %[[TURN]][%{{.*}}], %c128
// NV: scf.if
// NV: nvvm.setmaxregister increase 232
// NV: scf.if
// NV:   nvgpu.mbarrier.try_wait.parity %[[TURN]]
// NV:   nvgpu.warpgroup.mma {{.*}} -> <fragmented = vector<128x128xf32>>
// NV:   nvgpu.mbarrier.arrive %[[TURN]]
// NV: } {klx.roles = ["consumer0", ""]}
// NV: } {klx.roles = ["consumer1", ""]}
// NV: } {klx.roles = ["producer", "consumers"]}

module attributes {klx.params = {pingpong = true, persistent = true}} {
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
