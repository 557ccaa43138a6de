// klx-lint's chip lints on AMD chips: RDNA's WMMA on CDNA, CDNA's MFMA on
// RDNA, NVIDIA ops on either; the chip's own matrix op is quiet.
// RUN: klx-opt %s -klx-lint='chip=gfx942' -verify-diagnostics
// RUN: sed '/expected-/d' %s > %t.mlir
// RUN: klx-opt %t.mlir -klx-lint='chip=gfx1100' -o /dev/null 2>&1 | FileCheck %s --check-prefix=RDNA

gpu.module @kernels {
  gpu.func @matrix(%a: vector<16xf16>, %c: vector<8xf32>,
                   %x: vector<4xf16>, %acc: vector<16xf32>) kernel {
    // expected-warning @below {{'amdgpu.wmma' is an RDNA instruction (gfx11, gfx12), and gfx942 is a CDNA chip, which has none (use amdgpu.mfma); upstream's lowering of it fails or makes code the chip cannot run}}
    %w = amdgpu.wmma 16x16x16 %a * %a + %c : vector<16xf16>, vector<16xf16>, vector<8xf32>
    %m = amdgpu.mfma 32x32x8 %x * %x + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    // expected-warning @below {{'nvvm.read.ptx.sreg.tid.x' is an NVIDIA op, and gfx942 is an AMD chip}}
    %t = nvvm.read.ptx.sreg.tid.x : i32
    gpu.return
  }
}
// RDNA: 'amdgpu.mfma' is a CDNA instruction (gfx908 to gfx950), and gfx1100 is an RDNA chip, which has none (use amdgpu.wmma)
// RDNA-NOT: 'amdgpu.wmma'
