// klx-materialize-schedule and the ops that compute on accumulators: on the
// schedule's tiles they pass, their written shapes made bare; the rest
// (other shapes, attention's transposed B and register A, reductions down
// columns, a map yielding other than f32 to the store) stop here, at
// their line, before a pass that would not know them.
// RUN: klx-opt %s -split-input-file -verify-diagnostics --klx-materialize-schedule | FileCheck %s

// CHECK-LABEL: klx.kernel @bias
// CHECK: klx.load_vector %{{.*}}[%{{.*}}] : !klx.col
// CHECK: klx.map %{{.*}}, %{{.*}} : !klx.acc, !klx.col -> !klx.acc
// CHECK: klx.reduce max rows %{{.*}} : !klx.acc -> !klx.row
module attributes {klx.params = {tile_m = 128 : i64, tile_n = 256 : i64}} {
  klx.kernel @bias(%A: !klx.tensor, %B: !klx.tensor, %Bias: !klx.tensor,
                   %D: !klx.tensor, %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %zero = klx.zero
      %bias = klx.load_vector %Bias[%tn] : !klx.col<256xf32>
      %y = klx.map %zero, %bias : !klx.acc, !klx.col<256xf32> -> !klx.acc {
      ^bb0(%x: f32, %b: f32):
        %s = arith.addf %x, %b : f32
        klx.map_yield %s : f32
      }
      %m = klx.reduce max rows %y : !klx.acc -> !klx.row<128xf32>
      klx.store %y, %D[%tm, %tn]
    }
  }
}

// -----

module attributes {klx.params = {tile_m = 128 : i64, tile_n = 256 : i64}} {
  klx.kernel @other_length(%Bias: !klx.tensor, %M: index, %N: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      // expected-error @+1 {{'klx.load_vector' op on a '!klx.col<128xf32>', a tile of its own shape, cannot be lowered yet: the schedule's tiles are tile_m x tile_n = 128 x 256 f32 accumulators, !klx.row<128xf32> and !klx.col<256xf32>}}
      %bias = klx.load_vector %Bias[%tn] : !klx.col<128xf32>
    }
  }
}

// -----

module attributes {klx.params = {}} {
  klx.kernel @shaped(%A: !klx.tensor, %M: index, %N: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      // expected-error @+1 {{'klx.load' op on a '!klx.tile<64x32xf16>', a tile of its own shape, cannot be lowered yet}}
      %a = klx.load a %A[%tm, %tn] : !klx.tile<64x32xf16>
    }
  }
}

// -----

module attributes {klx.params = {}} {
  klx.kernel @transposed(%K: !klx.tensor, %M: index, %N: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      // expected-error @+1 {{'klx.load' op cannot be lowered yet: a B operand loaded transposed is attention's}}
      %k = klx.load b %K[%tn, %tm] transposed
    }
  }
}

// -----

module attributes {klx.params = {}} {
  klx.kernel @columns(%M: index, %N: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %zero = klx.zero
      // expected-error @+1 {{'klx.reduce' op cannot be lowered yet: klx's passes reduce along rows only}}
      %s = klx.reduce sum cols %zero : !klx.acc -> !klx.col
    }
  }
}

// -----

module attributes {klx.params = {}} {
  klx.kernel @yield_bf16(%D: !klx.tensor, %M: index, %N: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %zero = klx.zero
      // expected-error @+1 {{'klx.map' op on the schedule's accumulators yields f32; klx.store rounds it to out_dtype}}
      %h = klx.map %zero : !klx.acc -> !klx.acc<128x128xbf16> {
      ^bb0(%x: f32):
        %t = arith.truncf %x : f32 to bf16
        klx.map_yield %t : bf16
      }
    }
  }
}
