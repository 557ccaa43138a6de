// klx export for AMD: the backend's object linked by LLVM's ld.lld into
// kernel.hsaco, its assembly as kernel.s, and the manifest; klx-run would
// launch it through HIP, and says why it cannot where ROCm is missing.
// RUN: rm -rf %t.bundle
// RUN: klx export %samples/amd/gemm_mfma.mlir -o %t.bundle | FileCheck %s --check-prefix=OUT
// RUN: llvm-readelf -h --dyn-syms %t.bundle/kernel.hsaco | FileCheck %s --check-prefix=ELF
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.bundle/manifest.json
// RUN: FileCheck %s --check-prefix=ASM < %t.bundle/kernel.s
// RUN: env KLX_LIBHIP=/nonexistent/libamdhip64.so not klx-run %t.bundle 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: not klx export %samples/amd/gemm_mfma.mlir -o %t.ragged --size=1000x1024x1024 2>&1 | FileCheck %s --check-prefix=RAGGED

// OUT: wrote {{.*}}: kernel.hsaco ({{[0-9]+}} bytes), kernel.s, manifest.json (gfx942, gemm, block 256, 0 bytes of dynamic shared memory, tiles grid, 2048x2048x1024)

// ELF: Type: DYN (Shared object file)
// ELF: Machine: EM_AMDGPU
// ELF: Flags: {{.*}}gfx942
// ELF-DAG: FUNC GLOBAL PROTECTED {{.*}} gemm
// ELF-DAG: OBJECT GLOBAL DEFAULT {{.*}} gemm.kd

// MANIFEST: "amdgcn": "kernel.s",
// MANIFEST: "binary": "kernel.hsaco",
// MANIFEST: "kind": "memref",
// MANIFEST-NEXT: "name": "A",
// MANIFEST: "target": "gfx942",

// ASM: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// ASM: v_mfma_f32_32x32x8_f16

// LAUNCH: result: no_device: no HIP runtime: /nonexistent/libamdhip64.so does not load

// RAGGED: klx export: --size=1000x1024x1024: for gfx942, M, N and K must be multiples of the tile 128x128x64
