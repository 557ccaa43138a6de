// The warp-specialized sample's tile program compiled for AMD: the NVIDIA
// schedule parameters are ignored with a warning, and klx-to-amdgpu makes
// MFMA and LDS-DMA of it.
// RUN: klx pipeline %samples/nvidia/gemm_ws_persistent.mlir --target=gfx942 2>&1 | FileCheck %s
// CHECK: gemm_ws_persistent.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: klx-to-amdgpu: warp_specialize, pingpong, consumers and register budgets are NVIDIA schedule parameters and are ignored here
// CHECK: -> gfx942
// CHECK: klx-persistent
// CHECK: klx-to-amdgpu {{.*}} yes
// CHECK-NOT: klx-warp-specialize
// CHECK: klx-lds-alias-scope {{.*}} yes
// CHECK: amdgcn: {{.*}} v_mfma 64,
// CHECK: success
