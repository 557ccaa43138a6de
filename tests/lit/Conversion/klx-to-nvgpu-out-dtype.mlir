// -D out_dtype=bf16|f16 on the TMA-store epilogue: each thread rounds its
// pairs of f32 accumulators into one 32-bit word (cvt.rn.bf16x2.f32 or
// cvt.rn.f16x2.f32), and each warp writes them with stmatrix (16 x 16 at
// a time, four 8 x 8 matrices whose registers are the threads' pairs)
// under a 64-byte swizzle into boxes of 64 rows x 32 elements (4 KB, half
// the f32 box); D's tensor map is of the same type, and the bundle says
// what D holds.
//
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D out_dtype=bf16 --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=IR
// IR: klx.launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 1, 1, 1>, cluster_tiles = array<i64: 1, 1>, dtype = "f16", dynamic_shared_memory = 215040 : i64
// IR-SAME: {box = array<i64: 64, 32>, dtype = "bf16", kind = "tensor_map", name = "D", swizzle = 64 : i64}
// IR: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// IR: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// IR: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// IR-NOT: llvm.store %{{.*}} : vector<2xbf16>
// IR: nvgpu.tma.async.store %{{.*}} : memref<64x32xbf16, #gpu.address_space<workgroup>> -> <tensor = memref<64x32xbf16, 3>, swizzle = swizzle_64b
//
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D out_dtype=bf16 --emit=ptx | FileCheck %s --check-prefix=BF16
// BF16: .entry gemm
// BF16: cvt.rn.bf16x2.f32
// BF16: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// BF16: stmatrix.sync.aligned.m8n8.x4.shared.b16
// BF16: fence.proxy.async.shared::cta;
// BF16: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// BF16-NOT: st.shared.b32
//
// RUN: klx compile %samples/nvidia/gemm_pingpong.mlir -D out_dtype=f16 --emit=ptx | FileCheck %s --check-prefix=F16
// F16: cvt.rn.f16x2.f32
// F16: stmatrix.sync.aligned.m8n8.x4.shared.b16
// F16: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
//
// RUN: rm -rf %t && klx export %samples/nvidia/gemm_ws_persistent.mlir -D out_dtype=bf16 -o %t/bf16 > /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/bf16/manifest.json
// MANIFEST: "layout": "D[M,N] (bf16) = A[M,K] x B[K,N], row-major",
// MANIFEST: "out_dtype": "bf16"
//
// The direct epilogue stores f32 as it is; the AMD lowering too.
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir -D out_dtype=bf16 -D epilogue=direct --emit=ptx 2>&1 | FileCheck %s --check-prefix=DIRECT
// DIRECT: error: 'klx.kernel' op schedule: out_dtype = bf16 needs epilogue = "tma"
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir -D out_dtype=bf16 -D tile_n=64 -D tile_m=64 -D consumers=1 --target=gfx942 --emit=amdgcn 2>&1 | FileCheck %s --check-prefix=AMD
// AMD: error: 'klx.kernel' op klx-to-amdgpu: out_dtype must be f32 here
