// klx pipeline --json: one object with the steps, diagnostics and the
// backend's reports.
// RUN: klx pipeline %samples/nvidia/gemm_tma_wgmma.mlir --json --nvdisasm=/nonexistent | FileCheck %s

// CHECK: "target": "sm_90a",
// CHECK: "status": "success",
// CHECK: "steps": [
// CHECK: "name": "parse",
// CHECK: "name": "convert-nvgpu-to-nvvm",
// CHECK: "kind": "mlir",
// CHECK: "name": "cubin",
// CHECK: "name": "sass",
// CHECK: "skipped": "nvdisasm
// CHECK: "artifacts": [
// CHECK: "module": "gemm",
// CHECK: "ptxas": {
// CHECK: "name": "gemm_tma_wgmma",
// CHECK: "arch": "sm_90a",
// CHECK: "registers": {{[0-9]+}},
// CHECK: "stack_frame_bytes": 0,
// CHECK: "instruction_counts": {
// CHECK: "ptx": {
// CHECK: "wgmma.mma_async": 8,
