// The form of MLIR's TensorCore integration tests: one warp multiplies
// 16x16 f16 tiles with gpu.subgroup_mma_load_matrix, compute and store
// (WMMA), written in a gpu.launch.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: wmma.load.a.sync.aligned.row.m16n16k16
// PTX: wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32
// PTX: wmma.store.d.sync.aligned.row.m16n16k16
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// STEPS: step 1: load -> compute -> store
// STEPS-NEXT: load lines {{[0-9]+-[0-9]+}}: gpu.subgroup_mma_load_matrix x3
// STEPS-NEXT: compute line {{[0-9]+}} {{.*}}gpu.subgroup_mma_compute
// STEPS-NEXT: store line {{[0-9]+}} gpu.subgroup_mma_store_matrix
// For a CDNA chip upstream has no lowering (only RDNA's WMMA): the lint
// says why before upstream's bare "failed to legalize".
// RUN: not klx compile %s --target=gfx942 2>&1 | FileCheck %s --check-prefix=AMD
// AMD: warning: 'gpu.subgroup_mma_load_matrix' lowers on AMD only to RDNA's WMMA (gfx11, gfx12), and gfx942 is a CDNA chip, which has none {{.*}}(2 more uses below) [klx-lint]
// AMD: warning: 'gpu.subgroup_mma_compute' lowers on AMD only
// AMD: error: failed to legalize operation 'gpu.subgroup_mma_load_matrix'{{.*}}[convert-gpu-to-rocdl]

func.func @main(%a: memref<16x16xf16>, %b: memref<16x16xf16>,
                %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  return
}
