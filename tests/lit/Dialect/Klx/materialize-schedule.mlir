// klx-materialize-schedule turns klx.params into a checked #klx.schedule,
// and says why when the hardware cannot run it.
// RUN: klx-opt %s -split-input-file -verify-diagnostics --klx-materialize-schedule | FileCheck %s

// CHECK-LABEL: klx.kernel @defaults
// CHECK-SAME: schedule = #klx.schedule<tileM = 128, tileN = 128, tileK = 64, stages = 4, consumers = 2, warpSpecialize = true, pingpong = false, persistent = false, producerRegs = 40, consumerRegs = 232, dtype = f16>
klx.kernel @defaults(%M: index) {
}

// -----

// CHECK-LABEL: klx.kernel @overridden
// CHECK-SAME: tileN = 256, tileK = 64, stages = 3, consumers = 2, warpSpecialize = true, pingpong = false, persistent = true
// CHECK-SAME: dtype = bf16
module attributes {klx.params = {tile_n = 256 : i64, stages = 3 : i64, persistent = true, dtype = "bf16"}} {
  klx.kernel @overridden(%M: index) {
  }
}

// -----

module attributes {klx.params = {stages = 0 : i64}} {
  // expected-error @+1 {{schedule: stages must be at least 1, got 0}}
  klx.kernel @no_stages(%M: index) {
  }
}

// -----

module attributes {klx.params = {consumers = 3 : i64, tile_m = 192 : i64}} {
  // expected-error @+1 {{schedule: the roles do not fit the register file: 128 x 40 + 3 x 128 x 232 = 94208 registers > 65536}}
  klx.kernel @too_many_registers(%M: index) {
  }
}

// -----

module attributes {klx.params = {tile_n = 96 : i64}} {
  // expected-error @+1 {{schedule: tile_n must be 64, 128, 192 or 256 (whole 64-column TMA boxes, at most wgmma's N = 256); got 96}}
  klx.kernel @bad_tile_n(%M: index) {
  }
}

// -----

module attributes {klx.params = {tile_k = 32 : i64}} {
  // expected-error @+1 {{schedule: tile_k must be 64}}
  klx.kernel @bad_tile_k(%M: index) {
  }
}

// -----

module attributes {klx.params = {tile_m = 96 : i64}} {
  // expected-error @+1 {{schedule: tile_m = 96 does not split into 2 consumer warpgroups of a multiple of 64 rows}}
  klx.kernel @bad_tile_m(%M: index) {
  }
}

// -----

module attributes {klx.params = {tile_m = 256 : i64, tile_n = 256 : i64, consumers = 2 : i64, consumer_regs = 232 : i64}} {
  // expected-error @+1 {{schedule: each consumer thread holds 256 accumulator registers, which with 16 for addresses and loop state do not fit consumer_regs = 232}}
  klx.kernel @accumulator_too_big(%M: index) {
  }
}

// -----

module attributes {klx.params = {stages = 7 : i64, tile_n = 256 : i64}} {
  // expected-error @+1 {{schedule: 7 stages of 49152 bytes need 346112 bytes of shared memory, more than the 232448 a CTA may use}}
  klx.kernel @too_much_shared_memory(%M: index) {
  }
}

// -----

module attributes {klx.params = {stage = 3 : i64}} {
  // expected-error @+1 {{klx.params: unknown parameter 'stage' (known: alias_scopes, bridge_steps, cluster_m, cluster_n, const_reg_tensor, consumer_regs, consumers, deferred_release, dtype, epilogue, group_m, out_dtype, persistent, pingpong, producer_regs, producers, raster, shared_full_barrier, stages, tile_k, tile_m, tile_n, warp_specialize)}}
  klx.kernel @typo(%M: index) {
  }
}

// -----

module attributes {klx.params = {dtype = "f32"}} {
  // expected-error @+1 {{klx.params: dtype must be "f16" or "bf16", got "f32"}}
  klx.kernel @bad_dtype(%M: index) {
  }
}

// -----

module attributes {klx.params = {producers = 3 : i64}} {
  // expected-error @+1 {{schedule: producers must be 1 (one warp loads A and B) or 2 (one warp each); got 3}}
  klx.kernel @three_producers(%M: index) {
  }
}

// -----

module attributes {klx.params = {shared_full_barrier = true}} {
  // expected-error @+1 {{schedule: shared_full_barrier needs two producers to share it (producers = 2)}}
  klx.kernel @shared_without_two(%M: index) {
  }
}

// -----

module attributes {klx.params = {pingpong = true}} {
  // expected-error @+1 {{schedule: pingpong = true needs persistent = true}}
  klx.kernel @pingpong_one_tile(%M: index) {
  }
}

// -----

module attributes {klx.params = {pingpong = true, persistent = true, consumers = 1 : i64, consumer_regs = 240 : i64}} {
  // expected-error @+1 {{schedule: pingpong = true needs at least two consumers to take turns; got 1}}
  klx.kernel @pingpong_alone(%M: index) {
  }
}

// -----

module attributes {klx.params = {pingpong = true, persistent = true, tile_n = 64 : i64}} {
  // expected-error @+1 {{schedule: a consumer holding 2 wgmma fragments of 64 rows needs tile_n = 128 or epilogue = "tma"}}
  klx.kernel @pingpong_narrow(%M: index) {
  }
}

// -----

module attributes {klx.params = {warp_specialize = false, pingpong = true, persistent = true}} {
  // expected-error @+1 {{schedule: pingpong and producers = 2 are ways of specializing warps; they need warp_specialize = true}}
  klx.kernel @pingpong_without_roles(%M: index) {
  }
}

// -----

// Without roles the consumers keep the cap at entry: 65536 / 256 threads
// is 256, at most 255, rounded down to a multiple of 8.
// CHECK-LABEL: klx.kernel @no_roles
// CHECK-SAME: warpSpecialize = false
// CHECK-SAME: consumerRegs = 248
module attributes {klx.params = {warp_specialize = false}} {
  klx.kernel @no_roles(%M: index) {
  }
}

// -----

module attributes {klx.params = {epilogue = "smem"}} {
  // expected-error @+1 {{klx.params: epilogue must be "tma" (a TMA store from shared memory) or "direct" (each thread stores its fragments), got "smem"}}
  klx.kernel @unknown_epilogue(%M: index) {
  }
}

// -----

// A direct epilogue of two wgmma fragments per consumer needs N = 128; the
// TMA-store one places every box itself.
module attributes {klx.params = {tile_m = 256 : i64, tile_n = 192 : i64, stages = 2 : i64, epilogue = "direct"}} {
  // expected-error @+1 {{schedule: a consumer holding 2 wgmma fragments of 64 rows needs tile_n = 128 or epilogue = "tma"}}
  klx.kernel @two_fragments_direct(%M: index) {
  }
}

// -----

// CHECK-LABEL: klx.kernel @two_fragments_tma
// CHECK-SAME: tileM = 256, tileN = 192
// CHECK-SAME: tmaStore = true
module attributes {klx.params = {tile_m = 256 : i64, tile_n = 192 : i64, stages = 2 : i64, epilogue = "tma"}} {
  klx.kernel @two_fragments_tma(%M: index) {
  }
}

// -----

// D rounded to bf16 is the TMA-store epilogue's: its boxes are 64 rows of
// 32 bf16 (4 KB), so the epilogue takes 2 x 2 x 4 KB after the stages.
// CHECK-LABEL: klx.kernel @bf16_out
// CHECK-SAME: tmaStore = true, outDtype = bf16
module attributes {klx.params = {epilogue = "tma", out_dtype = "bf16"}} {
  klx.kernel @bf16_out(%M: index) {
  }
}

// -----

module attributes {klx.params = {epilogue = "direct", out_dtype = "bf16"}} {
  // expected-error @+1 {{schedule: out_dtype = bf16 needs epilogue = "tma" (the direct epilogue stores the f32 accumulators as they are)}}
  klx.kernel @bf16_direct(%M: index) {
  }
}

// -----

module attributes {klx.params = {epilogue = "tma", out_dtype = "fp8"}} {
  // expected-error @+1 {{klx.params: out_dtype must be "f32", "bf16" or "f16" (D's element type), got "fp8"}}
  klx.kernel @fp8_out(%M: index) {
  }
}
