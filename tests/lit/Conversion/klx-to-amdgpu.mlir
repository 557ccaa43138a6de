// klx-to-amdgpu: a tile program as four waves of MFMA fed by LDS-DMA into
// two stages of named LDS bases.
// RUN: klx-opt %s -split-input-file -verify-diagnostics --klx-materialize-schedule --klx-persistent="grid-stride=false" --klx-to-amdgpu | FileCheck %s
// gfx950 has 160 KB of LDS: the wider tiles that do not fit gfx942 do.
// RUN: klx-opt %s -split-input-file --klx-materialize-schedule --klx-persistent="grid-stride=false" --klx-to-amdgpu="chipset=gfx950" | FileCheck %s --check-prefix=GFX950

module attributes {klx.target = "gfx942",
                   klx.params = {tile_m = 128 : i64, tile_n = 128 : i64, tile_k = 64 : i64,
                                 stages = 2 : i64, warp_specialize = false, persistent = false}} {
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
// CHECK: gpu.module @gemm_kernels
// CHECK: gpu.func @gemm(%[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[D:.*]]: memref<?x?xf32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME: workgroup(%[[LDS:.*]] : memref<65536xi8, #gpu.address_space<workgroup>>)
// CHECK-SAME: kernel
// CHECK-SAME: klx.lds_bases = {a0 = [0, 16384], a1 = [16384, 16384], b0 = [32768, 16384], b1 = [49152, 16384]}
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// Each stage is a view of the one buffer at its base's offset.
// CHECK-DAG: memref.view %[[LDS]][%c0{{.*}}][] : memref<65536xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[LDS]][%c16384{{.*}}][] : {{.*}} to memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[LDS]][%c32768{{.*}}][] : {{.*}} to memref<64x128xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[LDS]][%c49152{{.*}}][] : {{.*}} to memref<64x128xf16, #gpu.address_space<workgroup>>
// One tile per workgroup.
// CHECK: gpu.block_id  y
// CHECK: gpu.block_id  x
// Prologue: k-tile 0 into stage 0, then per k step a wait, a barrier, the
// refill of the other stage and the MFMAs.
// CHECK: amdgpu.gather_to_lds %[[A]]
// CHECK-SAME: : vector<2xf16>, memref<?x?xf16>, memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK: amdgpu.gather_to_lds %[[B]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>)
// CHECK: amdgpu.memory_counter_wait load(0)
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if %{{.*}} -> (vector<4x16xf32>)
// CHECK: amdgpu.gather_to_lds
// CHECK: amdgpu.mfma 32x32x8 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
// CHECK: } else {
// CHECK: amdgpu.mfma 32x32x8
// The epilogue writes each block's 16 elements per lane.
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK-NOT: klx.
// GFX950: gpu.func @gemm(
// GFX950: gpu.func @wide(
// GFX950-SAME: klx.lds_bases = {a0 = [0, 16384], a1 = [16384, 16384], b0 = [32768, 24576], b1 = [57344, 24576]}
// GFX950: gpu.func @wider(

// -----

module attributes {klx.params = {tile_m = 128 : i64, tile_n = 192 : i64, tile_k = 64 : i64,
                                 stages = 2 : i64, warp_specialize = false, persistent = false}} {
  // expected-error @below {{klx-to-amdgpu: two LDS stages of 128x64 A and 64x192 B tiles need 81920 bytes, more than the 65536 of gfx942 (try a smaller tile_m or tile_n)}}
  klx.kernel @wide(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor, %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %zero = klx.zero
      klx.store %zero, %D[%tm, %tn]
    }
  }
}

// -----

module attributes {klx.params = {tile_m = 128 : i64, tile_n = 256 : i64, tile_k = 64 : i64,
                                 stages = 2 : i64, warp_specialize = false, persistent = false}} {
  // expected-error @below {{klx-to-amdgpu: two LDS stages of 128x64 A and 64x256 B tiles need 98304 bytes, more than the 65536 of gfx942}}
  klx.kernel @wider(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor, %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %zero = klx.zero
      klx.store %zero, %D[%tm, %tn]
    }
  }
}
