// The ops that compute on accumulators round-trip through the printer and
// parser, in the two programs docs/dialect.md writes with them: a linear
// layer's fused epilogue and attention's forward loop.
// RUN: klx-opt %s | klx-opt | FileCheck %s

// D = GELU(A * B + bias) in bf16, on the schedule's 128 x 256 tiles.
// CHECK-LABEL: klx.kernel @linear
klx.kernel @linear(%A: !klx.tensor, %B: !klx.tensor, %Bias: !klx.tensor,
                   %D: !klx.tensor, %M: index, %N: index, %K: index) {
  klx.for_each_tile (%tm, %tn) in (%M, %N) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = klx.zero : !klx.acc<128x256xf32>
    %kt = klx.k_tiles %K
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero)
        -> (!klx.acc<128x256xf32>) {
      %a = klx.load a %A[%tm, %k] : !klx.tile<128x64xbf16>
      %b = klx.load b %B[%k, %tn] : !klx.tile<64x256xbf16>
      // CHECK: klx.mma %{{.*}}, %{{.*}}, %{{.*}} : !klx.tile<128x64xbf16>, !klx.tile<64x256xbf16>, !klx.acc<128x256xf32>
      %c2 = klx.mma %a, %b, %c : !klx.tile<128x64xbf16>, !klx.tile<64x256xbf16>, !klx.acc<128x256xf32>
      scf.yield %c2 : !klx.acc<128x256xf32>
    }
    // CHECK: klx.load_vector %arg2[%{{.*}}] : !klx.col<256xf32>
    %bias = klx.load_vector %Bias[%tn] : !klx.col<256xf32>
    // CHECK: klx.map %{{.*}}, %{{.*}} : !klx.acc<128x256xf32>, !klx.col<256xf32> -> !klx.acc<128x256xbf16> {
    // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
    // CHECK: klx.map_yield %{{.*}} : bf16
    %y = klx.map %acc, %bias : !klx.acc<128x256xf32>, !klx.col<256xf32>
        -> !klx.acc<128x256xbf16> {
    ^bb0(%x: f32, %b: f32):
      // GELU, tanh approximation: 0.5 s (1 + tanh(0.79788456 (s + 0.044715 s^3)))
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %k0 = arith.constant 0.79788456 : f32
      %k1 = arith.constant 0.044715 : f32
      %s = arith.addf %x, %b : f32
      %s2 = arith.mulf %s, %s : f32
      %s3 = arith.mulf %s2, %s : f32
      %inner = math.fma %k1, %s3, %s : f32
      %t = arith.mulf %k0, %inner : f32
      %th = math.tanh %t : f32
      %p = arith.addf %one, %th : f32
      %hs = arith.mulf %half, %s : f32
      %g = arith.mulf %hs, %p : f32
      %h = arith.truncf %g : f32 to bf16
      klx.map_yield %h : bf16
    }
    // CHECK: klx.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] : !klx.acc<128x256xbf16>
    klx.store %y, %D[%tm, %tn] : !klx.acc<128x256xbf16>
  }
}

// Attention's forward pass for one head: for each tile of 128 queries,
// S = Q K^T over tiles of 128 keys, masked below the diagonal (causal) and
// scaled, an online softmax (the row max m and sum l carried through the
// loop, O rescaled when m grows), O += P V with P from registers, and
// O / l at the end. Q is loaded once, outside the loop; K is read as B
// transposed.
// CHECK-LABEL: klx.kernel @attention
klx.kernel @attention(%Q: !klx.tensor, %K: !klx.tensor, %V: !klx.tensor,
                      %O: !klx.tensor, %S: index, %Dh: index) {
  klx.for_each_tile (%tm, %td) in (%S, %Dh) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %ninf = arith.constant 0xFF800000 : f32
    %f0 = arith.constant 0.0 : f32
    // 1 / sqrt(128), and log2(e) to use exp2
    %scale = arith.constant 0.12751743 : f32
    // CHECK: klx.load a %arg0[%{{.*}}, %{{.*}}] : !klx.tile<128x128xf16>
    %q = klx.load a %Q[%tm, %c0] : !klx.tile<128x128xf16>
    // CHECK: klx.splat %{{.*}} : f32 -> !klx.row<128xf32>
    %m0 = klx.splat %ninf : f32 -> !klx.row<128xf32>
    %l0 = klx.splat %f0 : f32 -> !klx.row<128xf32>
    %o0 = klx.zero : !klx.acc<128x128xf32>
    // Causal: only the key tiles up to this query tile.
    %last = arith.addi %tm, %c1 : index
    %o, %m, %l = scf.for %j = %c0 to %last step %c1
        iter_args(%oi = %o0, %mi = %m0, %li = %l0)
        -> (!klx.acc<128x128xf32>, !klx.row<128xf32>, !klx.row<128xf32>) {
      // CHECK: klx.load b %arg1[%{{.*}}, %{{.*}}] transposed : !klx.tile<128x128xf16>
      %kt = klx.load b %K[%j, %c0] transposed : !klx.tile<128x128xf16>
      %s0 = klx.zero : !klx.acc<128x128xf32>
      %s = klx.mma %q, %kt, %s0 : !klx.tile<128x128xf16>, !klx.tile<128x128xf16>, !klx.acc<128x128xf32>
      // The mask from coordinates: key j*128+c is kept for query
      // tm*128+r when it is not later.
      // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: index, %{{.*}}: index):
      %sm = klx.map %s : !klx.acc<128x128xf32> -> !klx.acc<128x128xf32> {
      ^bb0(%x: f32, %r: index, %c: index):
        %qbase = arith.muli %tm, %c128 : index
        %kbase = arith.muli %j, %c128 : index
        %qi = arith.addi %qbase, %r : index
        %ki = arith.addi %kbase, %c : index
        %keep = arith.cmpi ule, %ki, %qi : index
        %xs = arith.mulf %x, %scale : f32
        %v = arith.select %keep, %xs, %ninf : f32
        klx.map_yield %v : f32
      }
      // CHECK: klx.reduce max rows %{{.*}} : !klx.acc<128x128xf32> -> !klx.row<128xf32>
      %mt = klx.reduce max rows %sm : !klx.acc<128x128xf32> -> !klx.row<128xf32>
      %mn = klx.map %mi, %mt : !klx.row<128xf32>, !klx.row<128xf32>
          -> !klx.row<128xf32> {
      ^bb0(%a: f32, %b: f32):
        %mx = arith.maximumf %a, %b : f32
        klx.map_yield %mx : f32
      }
      %p = klx.map %sm, %mn : !klx.acc<128x128xf32>, !klx.row<128xf32>
          -> !klx.acc<128x128xf32> {
      ^bb0(%x: f32, %mx: f32):
        %d = arith.subf %x, %mx : f32
        %e = math.exp2 %d : f32
        klx.map_yield %e : f32
      }
      %alpha = klx.map %mi, %mn : !klx.row<128xf32>, !klx.row<128xf32>
          -> !klx.row<128xf32> {
      ^bb0(%a: f32, %b: f32):
        %d = arith.subf %a, %b : f32
        %e = math.exp2 %d : f32
        klx.map_yield %e : f32
      }
      // CHECK: klx.reduce sum rows
      %ps = klx.reduce sum rows %p : !klx.acc<128x128xf32> -> !klx.row<128xf32>
      %ln = klx.map %li, %alpha, %ps
          : !klx.row<128xf32>, !klx.row<128xf32>, !klx.row<128xf32>
          -> !klx.row<128xf32> {
      ^bb0(%l: f32, %al: f32, %sum: f32):
        %r = math.fma %l, %al, %sum : f32
        klx.map_yield %r : f32
      }
      %os = klx.map %oi, %alpha : !klx.acc<128x128xf32>, !klx.row<128xf32>
          -> !klx.acc<128x128xf32> {
      ^bb0(%x: f32, %al: f32):
        %r = arith.mulf %x, %al : f32
        klx.map_yield %r : f32
      }
      %ph = klx.map %p : !klx.acc<128x128xf32> -> !klx.acc<128x128xf16> {
      ^bb0(%x: f32):
        %h = arith.truncf %x : f32 to f16
        klx.map_yield %h : f16
      }
      // CHECK: klx.as_operand %{{.*}} : !klx.acc<128x128xf16> -> !klx.frag<128x128xf16>
      %pa = klx.as_operand %ph : !klx.acc<128x128xf16> -> !klx.frag<128x128xf16>
      %v = klx.load b %V[%j, %td] : !klx.tile<128x128xf16>
      // CHECK: klx.mma %{{.*}}, %{{.*}}, %{{.*}} : !klx.frag<128x128xf16>, !klx.tile<128x128xf16>, !klx.acc<128x128xf32>
      %on = klx.mma %pa, %v, %os : !klx.frag<128x128xf16>, !klx.tile<128x128xf16>, !klx.acc<128x128xf32>
      scf.yield %on, %mn, %ln
          : !klx.acc<128x128xf32>, !klx.row<128xf32>, !klx.row<128xf32>
    }
    %out = klx.map %o, %l : !klx.acc<128x128xf32>, !klx.row<128xf32>
        -> !klx.acc<128x128xf16> {
    ^bb0(%x: f32, %sum: f32):
      %r = arith.divf %x, %sum : f32
      %h = arith.truncf %r : f32 to f16
      klx.map_yield %h : f16
    }
    klx.store %out, %O[%tm, %td] : !klx.acc<128x128xf16>
  }
}

// The GEMM form is unchanged: no types where the schedule's tiles are meant.
// CHECK-LABEL: klx.kernel @gemm
// CHECK: klx.zero{{$}}
// CHECK: klx.mma %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}}{{$}}
// CHECK: klx.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}]{{$}}
klx.kernel @gemm(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                 %M: index, %N: index, %K: index) {
  klx.for_each_tile (%tm, %tn) in (%M, %N) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = klx.zero
    %kt = klx.k_tiles %K
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (!klx.acc) {
      %a = klx.load a %A[%tm, %k]
      %b = klx.load b %B[%k, %tn]
      %c2 = klx.mma %a, %b, %c
      scf.yield %c2 : !klx.acc
    }
    klx.store %acc, %D[%tm, %tn]
  }
}
