// The ops that compute on accumulators parse and verify, but no pass lowers
// them yet: klx-materialize-schedule, the first klx pass, says so at the
// first one, and nothing after it runs on them.
// RUN: klx-opt %s -split-input-file -verify-diagnostics --klx-materialize-schedule

module attributes {klx.params = {}} {
  klx.kernel @bias(%A: !klx.tensor, %B: !klx.tensor, %Bias: !klx.tensor,
                   %D: !klx.tensor, %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %zero = klx.zero
      // expected-error @+1 {{'klx.load_vector' op cannot be lowered yet: klx's passes lower tile programs of klx.load, klx.mma and klx.store on the schedule's tiles}}
      %bias = klx.load_vector %Bias[%tn] : !klx.col<128xf32>
      %y = klx.map %zero, %bias : !klx.acc, !klx.col<128xf32> -> !klx.acc {
      ^bb0(%x: f32, %b: f32):
        %s = arith.addf %x, %b : f32
        klx.map_yield %s : f32
      }
      klx.store %y, %D[%tm, %tn]
    }
  }
}

// -----

module attributes {klx.params = {}} {
  klx.kernel @shaped(%A: !klx.tensor, %M: index, %N: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      // expected-error @+1 {{'klx.load' op on a '!klx.tile<128x64xf16>', a tile of its own shape, cannot be lowered yet}}
      %a = klx.load a %A[%tm, %tn] : !klx.tile<128x64xf16>
    }
  }
}
