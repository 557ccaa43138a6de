// The warp-specialized sample's tile program compiled for AMD: the NVIDIA
// schedule parameters are ignored with a warning, and klx-to-amdgpu makes
// MFMA and LDS-DMA of it.
// (Its 128 x 256 tiles need 96 KiB of LDS for two stages: tile_n=128.)
// RUN: klx pipeline %samples/nvidia/gemm_ws_persistent.mlir --target=gfx942 -D tile_n=128 2>&1 | FileCheck %s
// CHECK: gemm_ws_persistent.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: klx-to-amdgpu: warp_specialize, pingpong, consumers, register budgets and the TMA-store epilogue are NVIDIA schedule parameters and are ignored here
// CHECK: -> gfx942
// CHECK: klx-persistent
// CHECK: klx-to-amdgpu {{.*}} yes
// CHECK-NOT: klx-warp-specialize
// CHECK: klx-lds-alias-scope {{.*}} yes
// CHECK: amdgcn: {{.*}} v_mfma 64,
// CHECK: success
