// Lesson: a warp-specialized persistent GEMM, written as a tile program and
// split by the compiler: one producer warp issues TMA copies into a ring of
// shared-memory stages, two consumer warpgroups multiply with wgmma into
// 128 x 256 tiles, full and empty mbarriers hand each stage back and
// forth, each CTA walks the output tiles in steps of the grid (in groups
// of 4 tile rows, so neighbouring CTAs share A and B in L2), and each
// consumer writes its results through shared memory with TMA stores.
//
// Step through it: klx-materialize-schedule reads klx.params (change them
// with -D stages=2, -D consumers=1, ...); klx-warp-specialize makes the
// consumer role (warpgroups 0-1, setmaxnreg 232) and the producer role
// (warpgroup 2, setmaxnreg 40), the producer with one merged
// (tile x k) loop; klx-circular-buffer turns the channel between them into
// a pipeline and threads its state (index, phase) through both sides;
// klx-persistent makes the tile loops grid-stride loops (the producer's
// too, with its k loop inside: a tile's coordinates are worked out once
// per tile); -D group_m=1 walks the tiles row by row; klx-to-nvgpu
// lowers it all to nvgpu and nvvm, and the upstream passes take over.
// -D epilogue=direct stores each thread's fragments to global memory;
// -D out_dtype=bf16 rounds D to bf16; -D cluster_m=2 pairs CTAs that
// share B's tiles, each loading half of it and multicasting it to both.
// D = A * B: A is MxK, B is KxN, both row-major in dtype; D is out_dtype.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// RUN: klx compile %s -D warp_specialize=0 --emit=ptx | FileCheck %s --check-prefix=NOWS
// RUN: klx compile %s -D epilogue=direct --emit=ptx | FileCheck %s --check-prefix=DIRECT
// PTX: .entry gemm
// PTX: .maxntid 384, 1, 1
// PTX: .minnctapersm 1
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 {{.*}}40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 {{.*}}232;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.try_wait.parity.shared.b64
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// One wgmma group stays in flight: the stage the previous k step read is
// released after wait_group 1, the last one after wait_group 0.
// PTX-DAG: wgmma.wait_group.sync.aligned 1;
// PTX-DAG: wgmma.wait_group.sync.aligned 0;
// The epilogue: swizzled shared-memory boxes, then TMA stores from them.
// PTX-DAG: st.shared.v2.b32
// PTX-DAG: fence.proxy.async.shared::cta;
// PTX-DAG: bar.sync {{.*}}, 128;
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-DAG: cp.async.bulk.commit_group;
// PTX-DAG: cp.async.bulk.wait_group.read 0;
// PTX-DAG: cp.async.bulk.wait_group 0;
// STEPS: klx-materialize-schedule {{.*}} yes
// STEPS: klx-warp-specialize {{.*}} yes
// STEPS: klx-circular-buffer {{.*}} yes
// STEPS: klx-persistent {{.*}} yes
// STEPS: klx-to-nvgpu {{.*}} yes
// STEPS: gemm (sm_90a): {{[0-9]+}} registers
// STEPS-NOT: C7508
// STEPS-NOT: C7520
// ROLES: roles after klx-to-nvgpu
// ROLES: warpgroup 0  232 regs  warps 0-3 consumer
// ROLES: warpgroup 2   40 regs  warp 8 producer (1 thread active); warps 9-11 producer (idle)
// ROLES: registers: 64512 of 65536 per SM
// ROLES: role producer: threads 256-383, 1 active, setmaxnreg.dec 40
// ROLES: barriers: wait empty, arrive.expect_tx full, complete_tx full
// ROLES: role consumer: threads 0-255, 256 active, setmaxnreg.inc 232
// ROLES: barriers: wait full, arrive empty
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// Without warp specialization the same 256 threads load and multiply.
// NOWS: .maxntid 256, 1, 1
// NOWS-NOT: setmaxnreg
// NOWS: cp.async.bulk.tensor.2d
// NOWS-NOT: setmaxnreg
// NOWS: wgmma.mma_async
// The direct epilogue: each thread stores its fragments to global memory.
// DIRECT: st.global.b32
// DIRECT-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// DIRECT-NOT: fence.proxy.async

module attributes {klx.target = "sm_90a",
                   klx.params = {tile_m = 128 : i64, tile_n = 256 : i64,
                                 tile_k = 64 : i64, stages = 4 : i64, group_m = 4 : i64,
                                 epilogue = "tma", out_dtype = "f32", cluster_n = 1 : i64,
                                 consumers = 2 : i64, persistent = true,
                                 warp_specialize = true, cluster_m = 1 : i64, deferred_release = true,
                                 producer_regs = 40 : i64, raster = "grouped",
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
