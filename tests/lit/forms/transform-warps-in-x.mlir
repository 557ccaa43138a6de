// A transform schedule that maps a matmul's warps to x, as a first try
// at MLIR's TensorCore schedules often does: tile_using_forall over
// #gpu.warp<x>, map_nested_forall_to_threads with 64 threads in x, then
// rewrite_matmul_as_mma_sync. Upstream lowers it without a word, but the
// rewrite takes gpu.thread_id x as the lane, so the second warp indexes
// fragments of lanes 32..63. klx-lint says so at the mma.sync (whose
// location is the matmul's) and the PTX is still made, as upstream makes it.
//
// RUN: klx compile %s --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=LINT
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// LINT: transform-warps-in-x.mlir:[[# @LINE + 16]]:7: warning: 'nvgpu.mma.sync' takes each lane's fragment at the thread index x, but the block has 64 threads in x
// LINT: note: the kernel
// LINT: note: the thread index x is read here
// PTX: .maxntid 64, 1, 1
// PTX: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// STEPS: 2  transform.structured.tile_using_forall
// STEPS: 6  transform.gpu.map_nested_forall_to_threads
// STEPS: klx-lint

module attributes {gpu.container_module, transform.with_named_sequence} {
  func.func @gemm(%lhs: memref<16x64xf16>, %rhs: memref<64x16xf16>,
                  %acc: memref<16x16xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      linalg.matmul ins(%lhs, %rhs : memref<16x64xf16>, memref<64x16xf16>)
                    outs(%acc : memref<16x16xf16>)
      gpu.terminator
    }
    return
  }

  transform.named_sequence @__transform_main(
      %module: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %module
        : (!transform.any_op) -> !transform.any_op
    %per_warp, %warps = transform.structured.tile_using_forall %mm
        num_threads [1, 2] (mapping = [#gpu.warp<y>, #gpu.warp<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mma_tile, %l:3 = transform.structured.tile_using_for %per_warp
        tile_sizes [16, 8, 16]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                  !transform.any_op, !transform.any_op)
    transform.nvgpu.rewrite_matmul_as_mma_sync %mma_tile
        : (!transform.any_op) -> ()
    %launch = transform.structured.match ops{["gpu.launch"]} in %module
        : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %launch
        block_dims = [64, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
