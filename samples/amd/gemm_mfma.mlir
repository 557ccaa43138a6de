// Lesson: the tile program of the warp-specialized GEMM, lowered for AMD.
// The kernel below is the same klx code as
// samples/nvidia/gemm_ws_persistent.mlir; only klx.target and the schedule
// differ. Where Hopper gets a producer warp, TMA, mbarriers and wgmma,
// gfx942 gets klx-to-amdgpu: four waves (256 threads) that all copy and
// multiply, the 128x128 output tile split 2 x 2 between them, each wave
// 2 x 2 blocks of v_mfma_f32_32x32x8_f16. A and B tiles reach LDS by
// LDS-DMA (amdgpu.gather_to_lds -> global_load_lds_dword) into two stages,
// the copy of k-tile k+1 overlapping the MFMAs of k-tile k; every k step
// starts with s_waitcnt vmcnt(0) and s_barrier, so that every wave's DMAs
// are in and no wave still reads the stage about to be refilled.
//
// The two stages of A and B are four named bases of one 64 KB LDS buffer
// (klx.lds_bases on the gpu.func: a0, a1, b0, b1), so klx-lds-alias-scope
// can tell the backend that reading stage 0 need not wait for the DMAs
// into stage 1: compare `-D alias_scopes=0` and `=1` in the instruction
// counts (loop vmcnt(0) against loop vmcnt(N)). `--target=gfx950` gives
// the same kernel for MI355-class chips. No AMD GPU has run it here.
//
// Launch: grid (N/128, M/128), 256 threads, 65536 bytes of LDS. A is MxK,
// B is KxN, both row-major f16 (or bf16 with -D dtype=bf16); D is MxN
// row-major f32; M and N multiples of 128, K of 64.
//
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx compile %s --emit=amdgcn | FileCheck %s --check-prefix=ISA
// RUN: klx compile %s -D dtype=bf16 --emit=amdgcn | FileCheck %s --check-prefix=BF16
// RUN: klx compile %s --target=gfx950 --emit=amdgcn | FileCheck %s --check-prefix=GFX950
// RUN: klx pipeline %s --json -D alias_scopes=0 > %t.without.json
// RUN: klx pipeline %s --json -D alias_scopes=1 > %t.with.json
// RUN: %python %S/../../tests/lit/Inputs/compare-waits.py %t.without.json %t.with.json | FileCheck %s --check-prefix=DIRECTION
// STEPS: gemm_mfma.mlir -> gfx942
// STEPS: klx-materialize-schedule
// STEPS: klx-persistent
// STEPS: klx-to-amdgpu {{.*}} yes
// STEPS: klx-lds-alias-scope {{.*}} yes
// STEPS: gemm: {{[0-9]+}} VGPRs, {{[0-9]+}} AGPRs, {{[0-9]+}} SGPRs, 0 bytes scratch, 65536 bytes LDS
// STEPS: v_mfma 64,
// ISA: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// ISA: global_load_lds_dword
// ISA: s_waitcnt vmcnt(0) lgkmcnt(0)
// ISA-NEXT: s_barrier
// ISA: v_mfma_f32_32x32x8_f16
// ISA: global_store_dword
// ISA: .amdhsa_group_segment_fixed_size 65536
// BF16: v_mfma_f32_32x32x8_bf16
// GFX950: .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
// GFX950: v_mfma_f32_32x32x8_f16
// DIRECTION: direction: fewer vmcnt(0), more vmcnt(N) with alias scopes

module attributes {klx.target = "gfx942",
                   klx.params = {tile_m = 128 : i64, tile_n = 128 : i64,
                                 tile_k = 64 : i64, stages = 2 : i64,
                                 warp_specialize = false, persistent = false,
                                 dtype = "f16", alias_scopes = true}} {
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
