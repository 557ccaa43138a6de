// The verifiers of the ops that compute: each malformed op gets a message
// at its line that says what would fit.
// RUN: klx-opt %s -split-input-file -verify-diagnostics

klx.kernel @mma_k(%A: !klx.tensor, %B: !klx.tensor) {
  %c0 = arith.constant 0 : index
  %a = klx.load a %A[%c0, %c0] : !klx.tile<128x64xf16>
  %b = klx.load b %B[%c0, %c0] : !klx.tile<32x128xf16>
  %z = klx.zero : !klx.acc<128x128xf32>
  // expected-error @+1 {{a is 128 x 64 (M x K) but b is 32 x 128 (K x N): K differs}}
  %c = klx.mma %a, %b, %z : !klx.tile<128x64xf16>, !klx.tile<32x128xf16>, !klx.acc<128x128xf32>
}

// -----

klx.kernel @mma_half_shaped(%A: !klx.tensor, %B: !klx.tensor) {
  %c0 = arith.constant 0 : index
  %a = klx.load a %A[%c0, %c0] : !klx.tile<128x64xf16>
  %b = klx.load b %B[%c0, %c0]
  %z = klx.zero
  // expected-error @+1 {{write the shapes of a, b and the accumulators, or of none}}
  %c = klx.mma %a, %b, %z : !klx.tile<128x64xf16>, !klx.tile, !klx.acc
}

// -----

klx.kernel @mma_types(%A: !klx.tensor, %B: !klx.tensor) {
  %c0 = arith.constant 0 : index
  %a = klx.load a %A[%c0, %c0] : !klx.tile<128x64xf16>
  %b = klx.load b %B[%c0, %c0] : !klx.tile<64x128xbf16>
  %z = klx.zero : !klx.acc<128x128xf32>
  // expected-error @+1 {{a and b hold one element type, f16 or bf16; got 'f16' and 'bf16'}}
  %c = klx.mma %a, %b, %z : !klx.tile<128x64xf16>, !klx.tile<64x128xbf16>, !klx.acc<128x128xf32>
}

// -----

klx.kernel @transposed_a(%A: !klx.tensor) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{only a B operand is loaded transposed}}
  %a = klx.load a %A[%c0, %c0] transposed : !klx.tile<128x64xf16>
}

// -----

klx.kernel @bias_length(%Bias: !klx.tensor) {
  %c0 = arith.constant 0 : index
  %z = klx.zero : !klx.acc<128x256xf32>
  %b = klx.load_vector %Bias[%c0] : !klx.col<128xf32>
  // expected-error @+1 {{input #1 is '!klx.col<128xf32>', which does not fit a '!klx.acc<128x256xf32>' result}}
  %y = klx.map %z, %b : !klx.acc<128x256xf32>, !klx.col<128xf32> -> !klx.acc<128x256xf32> {
  ^bb0(%x: f32, %v: f32):
    %s = arith.addf %x, %v : f32
    klx.map_yield %s : f32
  }
}

// -----

klx.kernel @map_arguments() {
  %z = klx.zero : !klx.acc<128x128xf32>
  // expected-error @+1 {{the body's argument #0 is 'f16', but input #0 holds 'f32'}}
  %y = klx.map %z : !klx.acc<128x128xf32> -> !klx.acc<128x128xf32> {
  ^bb0(%x: f16):
    %e = arith.extf %x : f16 to f32
    klx.map_yield %e : f32
  }
}

// -----

klx.kernel @map_yield() {
  %z = klx.zero : !klx.acc<128x128xf32>
  %y = klx.map %z : !klx.acc<128x128xf32> -> !klx.acc<128x128xbf16> {
  ^bb0(%x: f32):
    // expected-error @+1 {{yields a 'f32', but the result holds 'bf16'}}
    klx.map_yield %x : f32
  }
}

// -----

klx.kernel @map_vector_result() {
  %z = klx.zero : !klx.acc<128x128xf32>
  // expected-error @+1 {{a '!klx.row<128xf32>' result takes vectors of its kind only; input #0 is '!klx.acc<128x128xf32>'}}
  %y = klx.map %z : !klx.acc<128x128xf32> -> !klx.row<128xf32> {
  ^bb0(%x: f32):
    klx.map_yield %x : f32
  }
}

// -----

klx.kernel @reduce_axis() {
  %z = klx.zero : !klx.acc<128x64xf32>
  // expected-error @+1 {{reducing rows yields a !klx.row, not '!klx.col<64xf32>'}}
  %m = klx.reduce max rows %z : !klx.acc<128x64xf32> -> !klx.col<64xf32>
}

// -----

klx.kernel @reduce_length() {
  %z = klx.zero : !klx.acc<128x64xf32>
  // expected-error @+1 {{the accumulators have 128 rows but the result is 64 long}}
  %m = klx.reduce sum rows %z : !klx.acc<128x64xf32> -> !klx.row<64xf32>
}

// -----

klx.kernel @operand_f32() {
  %z = klx.zero : !klx.acc<128x64xf32>
  // expected-error @+1 {{an MMA operand is f16 or bf16: convert the accumulators with klx.map first (they are 'f32')}}
  %p = klx.as_operand %z : !klx.acc<128x64xf32> -> !klx.frag<128x64xf32>
}

// -----

klx.kernel @vector_f16(%V: !klx.tensor) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{loads f32 vectors, not 'f16'}}
  %v = klx.load_vector %V[%c0] : !klx.col<128xf16>
}

// -----

klx.kernel @type_rank() {
  %f = arith.constant 0.0 : f32
  // expected-error @+1 {{expected 1 dimension, got 2}}
  %r = klx.splat %f : f32 -> !klx.row<128x4xf32>
}

// -----

llvm.func @register_a_count(%d: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %a: i32, %b: i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  // expected-error @+1 {{takes the thread's 4 registers of the 64 x 16 A slice, got 2}}
  %r = klx.wgmma_register_a %d, [%a, %a], %b {n = 16 : i64, element = bf16} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}

// -----

llvm.func @register_a_accumulators(%d: !llvm.struct<(f32, f32, f32, f32)>, %a: i32, %b: i64) -> !llvm.struct<(f32, f32, f32, f32)> {
  // expected-error @+1 {{accumulates into the thread's n / 2 = 8 f32 values}}
  %r = klx.wgmma_register_a %d, [%a, %a, %a, %a], %b {n = 16 : i64, element = bf16} : !llvm.struct<(f32, f32, f32, f32)>
  llvm.return %r : !llvm.struct<(f32, f32, f32, f32)>
}

// -----

llvm.func @register_a_element(%d: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %a: i32, %b: i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  // expected-error @+1 {{element must be bf16 or f16, got 'f32'}}
  %r = klx.wgmma_register_a %d, [%a, %a, %a, %a], %b {n = 16 : i64, element = f32} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}

// -----

llvm.func @register_a_n(%d: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %a: i32, %b: i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  // expected-error @+1 {{n must be a multiple of 8 from 8 to 256, got 12}}
  %r = klx.wgmma_register_a %d, [%a, %a, %a, %a], %b {n = 12 : i64, element = bf16} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}
