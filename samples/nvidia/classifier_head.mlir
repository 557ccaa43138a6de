// Lesson: a classifier head, D = softmax(A * B) along each output row, for
// N classes that fit in one tile: the GEMM of gemm_ws_persistent.mlir,
// then a softmax written as tile ops on the accumulators. No op names
// softmax: klx.map masks the columns past N (from each element's column),
// klx.reduce takes each row's max, klx.map exponentiates, klx.reduce sums,
// a map over the row vector inverts the sum, and a last map scales.
//
// Step through it: klx-to-nvgpu lowers each klx.reduce ... rows to the
// thread's own elements of a row (a consumer thread holds 2 rows of each
// 64-row fragment, 64 columns of them), then the four lanes that share a
// row (lane / 4 is the row) with two butterfly shuffles, shfl.sync.bfly
// over lane bits 0 and 1; exp becomes ex2.approx.f32 of x log2(e); the
// last map is computed in the TMA-store epilogue, rounded to bf16 and
// written with stmatrix. A row is reduced within one tile, so klx export
// and klx-run refuse N > tile_n.
// D = softmax(A * B): A is MxK, B is KxN (dtype), N <= tile_n; D is MxN
// (out_dtype).
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// RUN: not klx export %s --size=512x512x512 -o %t 2>&1 | FileCheck %s --check-prefix=WIDE
// PTX: .entry head
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// Each row's max, then its sum: two shuffles each, lanes 1 and 2 apart.
// PTX-DAG: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// PTX-DAG: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// PTX-DAG: max.f32
// PTX-DAG: ex2.approx.f32
// PTX-DAG: rcp.rn.f32
// PTX-DAG: stmatrix.sync.aligned.m8n8.x4.shared.b16
// ROLES: role consumer: threads 0-255, 256 active, setmaxnreg.inc 232
// ROLES: nvvm.shfl.sync x8
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// WIDE: @head reduces each row within one tile (klx.reduce ... rows) of tile_n = 256 columns, so N = 512 would be reduced in pieces

module attributes {klx.target = "sm_90a",
                   klx.params = {tile_m = 128 : i64, tile_n = 256 : i64,
                                 tile_k = 64 : i64, stages = 4 : i64, group_m = 4 : i64,
                                 epilogue = "tma", out_dtype = "bf16", cluster_n = 1 : i64,
                                 consumers = 2 : i64, persistent = true,
                                 warp_specialize = true, cluster_m = 1 : i64, deferred_release = true,
                                 producer_regs = 40 : i64, raster = "grouped",
                                 consumer_regs = 232 : i64, dtype = "bf16"}} {
  klx.kernel @head(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
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
      // The tile holds every class (tn is 0): columns past N are -inf.
      %logits = klx.map %acc : !klx.acc -> !klx.acc {
      ^bb0(%x: f32, %r: index, %c: index):
        %ninf = arith.constant 0xFF800000 : f32
        %class = arith.cmpi ult, %c, %N : index
        %v = arith.select %class, %x, %ninf : f32
        klx.map_yield %v : f32
      }
      %max = klx.reduce max rows %logits : !klx.acc -> !klx.row
      %e = klx.map %logits, %max : !klx.acc, !klx.row -> !klx.acc {
      ^bb0(%x: f32, %m: f32):
        %d = arith.subf %x, %m : f32
        %p = math.exp %d : f32
        klx.map_yield %p : f32
      }
      %sum = klx.reduce sum rows %e : !klx.acc -> !klx.row
      %inverse = klx.map %sum : !klx.row -> !klx.row {
      ^bb0(%s: f32):
        %one = arith.constant 1.0 : f32
        %i = arith.divf %one, %s : f32
        klx.map_yield %i : f32
      }
      %probabilities = klx.map %e, %inverse : !klx.acc, !klx.row -> !klx.acc {
      ^bb0(%p: f32, %i: f32):
        %y = arith.mulf %p, %i : f32
        klx.map_yield %y : f32
      }
      klx.store %probabilities, %D[%tm, %tn]
    }
  }
}
