// Lesson: two async producer warps. The same tile program as
// gemm_ws_persistent.mlir, but A and B are loaded by two producer warps of
// the producer warpgroup (warp 8 loads A, warp 9 loads B), each with its
// own pipeline: a full and an empty mbarrier per stage per producer.
//
// Try -D shared_full_barrier=1: both producers then arrive on one full
// barrier per stage, still initialised for one arrival. Each stage's phase
// completes twice per round instead of once, the consumers' parity waits
// slip, and the kernel deadlocks or reads a half-loaded stage depending on
// timing. `klx roles` says so before anything runs; the barrier timeline
// shows it happen.
//
// Step through it: klx-warp-specialize makes roles producer_a (warp 0 of
// warpgroup 2) and producer_b (warp 1), each with its own merged
// (tile x k) loop and channel; klx-circular-buffer gives each channel a
// pipeline (with shared_full_barrier the second uses the first's full
// barriers: `full_of`); klx-to-nvgpu puts both producers in the warpgroup
// branch, each in a branch on its warp.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// RUN: not klx roles %s -D shared_full_barrier=1 | FileCheck %s --check-prefix=SHARED
// PTX: .entry gemm
// PTX: .maxntid 384, 1, 1
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 {{.*}}40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 {{.*}}232;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.try_wait.parity.shared.b64
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// STEPS: gemm (sm_90a): {{[0-9]+}} registers
// STEPS-NOT: C7508
// STEPS-NOT: C7520
// ROLES: roles after klx-to-nvgpu
// ROLES: warpgroup 2   40 regs  warp 8 producer_a (1 thread active); warp 9 producer_b (1 thread active); warps 10-11 producers (idle)
// ROLES: role producers [producer]: threads 256-383, 0 active, setmaxnreg.dec 40
// ROLES: role producer_a [producer] (inside producers): threads 256-287, 1 active
// ROLES: barriers: wait empty_a, arrive.expect_tx full_a, complete_tx full_a
// ROLES: role producer_b [producer] (inside producers): threads 288-319, 1 active
// ROLES: barriers: wait empty_b, arrive.expect_tx full_b, complete_tx full_b
// ROLES: role consumer: threads 0-255, 256 active, setmaxnreg.inc 232
// ROLES: barriers: wait full_a, wait full_b, arrive empty_a, arrive empty_b
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// SHARED: barriers: wait empty_a, arrive.expect_tx full, complete_tx full
// SHARED: barriers: wait empty_b, arrive.expect_tx full, complete_tx full
// SHARED: error: barrier 'full' is initialised for 1 arrival per phase, but producer_a and producer_b arrive on it

module attributes {klx.target = "sm_90a",
                   klx.params = {tile_m = 128 : i64, tile_n = 128 : i64,
                                 tile_k = 64 : i64, stages = 4 : i64, group_m = 1 : i64,
                                 epilogue = "tma", out_dtype = "f32",
                                 consumers = 2 : i64, persistent = true,
                                 producers = 2 : i64,
                                 shared_full_barrier = false,
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
