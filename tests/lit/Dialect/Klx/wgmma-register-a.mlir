// klx.wgmma_register_a, the register form of wgmma (A in registers) that
// MLIR's nvvm.wgmma.mma_async lacks: it round-trips, and
// convert-nvvm-to-llvm lowers it to inline PTX through NVVM's
// BasicPtxBuilderInterface, as it lowers nvvm.wgmma.mma_async: the
// accumulators out ($0-$7) and tied back in ($8-$15), A's four registers,
// B's descriptor, scale-d. Its verifier errors are in compute-invalid.mlir.
// RUN: klx-opt %s | klx-opt | FileCheck %s --check-prefix=ROUND
// RUN: klx-opt %s --convert-nvvm-to-llvm | FileCheck %s --check-prefix=LLVM

// ROUND-LABEL: llvm.func @two_steps
// ROUND: %[[D1:.*]] = klx.wgmma_register_a %{{.*}}, [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {element = bf16, n = 16 : i64}
// ROUND: klx.wgmma_register_a %[[D1]], [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {element = f16, n = 16 : i64}
// LLVM-LABEL: llvm.func @two_steps
// LLVM-NOT: klx.wgmma_register_a
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}setp.ne.b32 p, $21, 0;{{.*}}wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, p, 1, 1, 1;{{.*}}", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,r,r,r,r,l,n"
// LLVM: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
llvm.func @two_steps(%d: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %a0: i32, %a1: i32, %a2: i32, %a3: i32,
                     %b: i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  %d1 = klx.wgmma_register_a %d, [%a0, %a1, %a2, %a3], %b
      {n = 16 : i64, element = bf16} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  %d2 = klx.wgmma_register_a %d1, [%a0, %a1, %a2, %a3], %b
      {n = 16 : i64, element = f16} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %d2 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}
