// Long literal LLVM struct types print once, as aliases: the lowered wgmma
// accumulator is a struct of two structs of 64 floats.
// RUN: klx compile %samples/nvidia/gemm_tma_wgmma.mlir --stop-after=cse#2 | FileCheck %s
// The aliased text is still MLIR: klx-opt parses it back.
// RUN: klx compile %samples/nvidia/gemm_tma_wgmma.mlir --stop-after=cse#2 | klx-opt | FileCheck %s --check-prefix=ROUNDTRIP

// CHECK-DAG: !struct_64xf32 = !llvm.struct<(f32, f32,
// CHECK-DAG: !struct_2 = !llvm.struct<(struct<(f32,
// CHECK: llvm.func @gemm_tma_wgmma
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async{{.*}} -> !struct_64xf32
// ROUNDTRIP: llvm.func @gemm_tma_wgmma
