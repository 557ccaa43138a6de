// The form of MLIR's sm80 TensorCore tests: the gpu.module names its chip
// (#nvvm.target<chip = "sm_80">), one warp loads its fragments from
// workgroup memory with nvgpu.ldmatrix and multiplies them with
// nvgpu.mma.sync. With no --target klx compiles for the file's sm_80 (no
// warning); ptxas 13 builds it; --target=sm_90a overrides it with a word.
//
// RUN: klx compile %s --emit=ptx 2> %t.err | FileCheck %s --check-prefix=PTX
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// PTX: .target sm_80
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// QUIET-NOT: warning
// RUN: klx compile %s --emit=cubin -o %t.cubin
// RUN: klx compile %s --target=sm_90a --emit=ptx 2>&1 >/dev/null | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: warning: --target=sm_90a overrides the file's #nvvm.target<chip = "sm_80">
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// STEPS: step 1: load -> compute -> store
// STEPS-NEXT: load (shared) lines {{[0-9]+-[0-9]+}}: nvvm.ldmatrix x2
// STEPS-NEXT: compute line {{[0-9]+}} {{.*}}nvvm.mma.sync
// STEPS-NEXT: store

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    gpu.func @mma(%d: memref<64x8xf32>)
        workgroup(%tile: memref<16x16xf16, #gpu.address_space<workgroup>>)
        kernel {
      %lane = gpu.lane_id
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %row = arith.remui %lane, %c16 : index
      %A = nvgpu.ldmatrix %tile[%row, %c0] {numTiles = 4 : i32, transpose = false}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %B = nvgpu.ldmatrix %tile[%row, %c0] {numTiles = 2 : i32, transpose = false}
          : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %C = arith.constant dense<0.0> : vector<2x2xf32>
      %D = nvgpu.mma.sync(%A, %B, %C) {mmaShape = [16, 8, 16]}
          : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %top = vector.extract %D[0] : vector<2xf32> from vector<2x2xf32>
      %out = arith.muli %lane, %c2 : index
      vector.store %top, %d[%out, %c0] : memref<64x8xf32>, vector<2xf32>
      gpu.return
    }
  }
}
