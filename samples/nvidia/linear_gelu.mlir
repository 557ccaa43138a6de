// Lesson: a linear layer, D = GELU(A * B + bias) in bf16, as a tile
// program: the warp-specialized persistent GEMM of gemm_ws_persistent.mlir,
// then an epilogue written as ordinary code on the accumulators. A bias
// per output column is read with klx.load_vector, and klx.map applies
// the bias and GELU (tanh approximation, as cuBLASLt's GELU_BIAS) to each
// element; klx.store rounds the result to bf16.
//
// Step through it: klx-materialize-schedule checks that the map and the
// vector work on the schedule's tiles (128 x 256 f32 accumulators, a
// !klx.col of 256); klx-warp-specialize puts them in the consumer role;
// klx-to-nvgpu fuses the map into the TMA-store epilogue: each element is
// computed where its box of 64 x 32 is written, the bias columns a thread
// needs read right there (8 per box: all 64 at once spilled), GELU's tanh
// as tanh.approx.f32, each pair rounded to bf16 and written by stmatrix.
// D = GELU(A * B + bias): A is MxK, B is KxN (dtype), bias has N f32
// values, D is MxN (out_dtype).
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx steps %s | FileCheck %s --check-prefix=BODY
// PTX: .entry linear
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// The bias, 64 columns per consumer thread, 8 per box, and GELU.
// PTX-DAG: ld.global.b32
// PTX-DAG: tanh.approx.f32
// PTX-DAG: fma.rn.f32
// PTX-DAG: cvt.rn.bf16x2.f32
// PTX-DAG: stmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// ROLES: warpgroup 0  232 regs  warps 0-3 consumer
// ROLES: role consumer: threads 0-255, 256 active, setmaxnreg.inc 232
// ROLES: llvm.intr.tanh x128 (line [[#TANH:]])
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// STEPS: klx-to-nvgpu {{.*}} yes
// STEPS: linear (sm_90a): {{[0-9]+}} registers, {{.*}} 0 bytes stack frame, 0/0 bytes spill
// The epilogue, box by box: the bias read, GELU's arithmetic in runs,
// stmatrix into the box, a barrier before the next.
// BODY: kernel linear: 9 steps
// BODY: step 1: load -> compute -> store
// BODY: load {{.*}}memref.load x16
// BODY: compute {{.*}}llvm.intr.tanh
// BODY: store (shared) {{.*}}nvvm.stmatrix
// BODY: step 2: load -> compute -> store
// BODY-NEXT: why a new step: nvvm.barrier

module attributes {klx.target = "sm_90a",
                   klx.params = {tile_m = 128 : i64, tile_n = 256 : i64,
                                 tile_k = 64 : i64, stages = 4 : i64, group_m = 4 : i64,
                                 epilogue = "tma", out_dtype = "bf16", cluster_n = 1 : i64,
                                 consumers = 2 : i64, persistent = true,
                                 warp_specialize = true, cluster_m = 1 : i64, deferred_release = true,
                                 producer_regs = 40 : i64, raster = "grouped",
                                 consumer_regs = 232 : i64, dtype = "bf16"}} {
  klx.kernel @linear(%A: !klx.tensor, %B: !klx.tensor, %Bias: !klx.tensor,
                     %D: !klx.tensor, %M: index, %N: index, %K: index) {
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
      // The tile's columns of the bias: tile_n values, zero past N.
      %bias = klx.load_vector %Bias[%tn] : !klx.col
      // GELU(s) = 0.5 s (1 + tanh(sqrt(2 / pi) (s + 0.044715 s^3))),
      // written as t = s (c0 + c1 s^2), h = 0.5 s, GELU = h tanh(t) + h:
      // seven instructions per element where the textbook order takes
      // ten (the epilogue is instruction-bound: 128 elements per thread).
      %y = klx.map %acc, %bias : !klx.acc, !klx.col -> !klx.acc {
      ^bb0(%x: f32, %b: f32):
        %half = arith.constant 0.5 : f32
        %k0 = arith.constant 0.7978845608 : f32    // sqrt(2 / pi)
        %k1 = arith.constant 0.0356774081 : f32    // sqrt(2 / pi) 0.044715
        %s = arith.addf %x, %b : f32
        %s2 = arith.mulf %s, %s : f32
        %inner = math.fma %s2, %k1, %k0 : f32
        %t = arith.mulf %s, %inner : f32
        %tanh = math.tanh %t : f32
        %h = arith.mulf %half, %s : f32
        %g = math.fma %h, %tanh, %h : f32
        klx.map_yield %g : f32
      }
      klx.store %y, %D[%tm, %tn]
    }
  }
}
