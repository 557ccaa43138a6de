// Lesson: a ping-pong GEMM. The tile program of gemm_ws_persistent.mlir
// with pingpong = true: the two consumer warpgroups no longer split each
// output tile's rows; each takes whole tiles, in turn. Consumer 0 takes the
// CTA's tiles 0, 2, 4, ..., consumer 1 tiles 1, 3, 5, ..., and an ordered
// pair of mbarriers ("turns") lets only one of them run its k loop at a
// time: consumer c waits on turn[c] before its mainloop and arrives on
// turn[c + 1] after it. While one multiplies, the other stores its last
// tile, so the tensor cores are not left idle during epilogues.
//
// Step through it: klx-warp-specialize makes roles consumer0 and consumer1
// (one warpgroup each, both setmaxnreg 232), gives each its tile loop
// (first_tile, tile_step) and the take_turn / pass_turn around its k loop;
// klx-circular-buffer starts consumer c's pipeline state c tiles into the
// ring and jumps over the other consumer's k steps after each tile (advance
// ... by); each stage is released by one warpgroup (arrivals 128);
// klx-to-nvgpu gives each consumer the whole 128-row tile (two wgmma
// fragments) and a branch of its own.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// PTX: .entry gemm
// PTX: .maxntid 384, 1, 1
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 {{.*}}40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 {{.*}}232;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.try_wait.parity.shared.b64
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEPS: gemm (sm_90a): {{[0-9]+}} registers, {{.*}} 0 bytes stack frame, 0/0 bytes spill
// STEPS-NOT: C7508
// STEPS-NOT: C7520
// ROLES: warpgroup 0  232 regs  warps 0-3 consumer0
// ROLES: warpgroup 1  232 regs  warps 4-7 consumer1
// ROLES: role consumer0 [consumer] (inside consumers): threads 0-127, 128 active
// ROLES: barriers: wait turn[0], wait full, arrive empty, arrive turn[1]
// ROLES: role consumer1 [consumer] (inside consumers): threads 128-255, 128 active
// ROLES: barriers: wait turn[1], wait full, arrive empty, arrive turn[0]
// ROLES: checks: registers, setmaxnreg placement and barriers are fine

module attributes {klx.target = "sm_90a",
                   klx.params = {tile_m = 128 : i64, tile_n = 128 : i64,
                                 tile_k = 64 : i64, stages = 4 : i64, group_m = 1 : i64,
                                 epilogue = "tma", out_dtype = "f32",
                                 consumers = 2 : i64, persistent = true,
                                 pingpong = true,
                                 producer_regs = 40 : i64,
                                 consumer_regs = 232 : i64, dtype = "f16"}} {
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
