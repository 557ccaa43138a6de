// klx-to-nvgpu on the ops that compute on accumulators: a softmax along
// each row of a GEMM's tile (mask past N from the elements' columns, row
// max and sum by butterfly shuffles across the four lanes of a row, exp as
// ex2.approx), and what it refuses, at the op's line.
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx compile %s -D epilogue=direct -D out_dtype=f32 -D tile_n=128 --emit=ptx | FileCheck %s --check-prefix=DIRECT
// RUN: klx compile %s --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=IR
// RUN: sed 's/math.exp %%d/math.erf %%d/' %s > %t.mlir
// RUN: not klx compile %t.mlir 2>&1 | FileCheck %s --check-prefix=ERF
// PTX: .entry head
// Two shuffles per row and reduction, over lane bits 0 and 1: max, then sum.
// PTX-DAG: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// PTX-DAG: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// PTX-DAG: max.f32
// PTX-DAG: ex2.approx.f32
// PTX-DAG: rcp
// PTX-DAG: stmatrix.sync.aligned.m8n8.x4.shared.b16
// The direct epilogue stores the mapped f32 fragments.
// DIRECT: ex2.approx.f32
// DIRECT: st.global.b32
// IR-NOT: klx.map
// IR-NOT: klx.reduce
// IR: gpu.func @head
// IR: nvvm.shfl.sync bfly
// IR-NOT: klx.map
// IR-NOT: klx.reduce
// ERF: .mlir:[[#@LINE+34]]:{{[0-9]+}}: error: 'math.erf' op in a klx.map body is not lowered on Hopper: klx-to-nvgpu lowers arith ops and math.tanh, exp, exp2, sqrt, rsqrt, absf and fma on f32

module attributes {klx.target = "sm_90a",
                   klx.params = {tile_m = 128 : i64, tile_n = 256 : i64, tile_k = 64 : i64,
                                 epilogue = "tma", out_dtype = "bf16", dtype = "bf16",
                                 persistent = true}} {
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
      %ninf = arith.constant 0xFF800000 : f32
      %tile_n = arith.constant 256 : index
      %first = arith.muli %tn, %tile_n : index
      %masked = klx.map %acc : !klx.acc -> !klx.acc {
      ^bb0(%x: f32, %r: index, %c: index):
        %col = arith.addi %first, %c : index
        %inside = arith.cmpi ult, %col, %N : index
        %v = arith.select %inside, %x, %ninf : f32
        klx.map_yield %v : f32
      }
      %max = klx.reduce max rows %masked : !klx.acc -> !klx.row
      %p = klx.map %masked, %max : !klx.acc, !klx.row -> !klx.acc {
      ^bb0(%x: f32, %m: f32):
        %d = arith.subf %x, %m : f32
        %e = math.exp %d : f32
        klx.map_yield %e : f32
      }
      %sum = klx.reduce sum rows %p : !klx.acc -> !klx.row
      %inv = klx.map %sum : !klx.row -> !klx.row {
      ^bb0(%s: f32):
        %one = arith.constant 1.0 : f32
        %r = arith.divf %one, %s : f32
        klx.map_yield %r : f32
      }
      %out = klx.map %p, %inv : !klx.acc, !klx.row -> !klx.acc {
      ^bb0(%x: f32, %i: f32):
        %y = arith.mulf %x, %i : f32
        klx.map_yield %y : f32
      }
      klx.store %out, %D[%tm, %tn]
    }
  }
}
