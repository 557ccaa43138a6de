// Lesson: a matmul scheduled by a transform script, written the way MLIR's
// own TensorCore tests write it: linalg.matmul in a gpu.launch of one warp,
// and a transform.named_sequence @__transform_main that tiles it to the
// shape of one mma.sync and rewrites each tile into nvgpu.mma.sync.
//
// Each top-level op of the script is a step of its own, right after
// parse: transform.structured.match finds the matmul,
// transform.structured.tile_using_for cuts it into 16x8x16 tiles in three
// scf.for loops, and transform.nvgpu.rewrite_matmul_as_mma_sync turns each
// tile into per-lane loads, one nvgpu.mma.sync and per-lane stores. The
// schedule is erased after the last one; the upstream passes lower the
// rest, and the PTX ends in mma.sync.aligned.m16n8k16.
//
// C += A * B: A is 32x32, B is 32x16, C is 32x16, f16; 32 threads.
//
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx compile %s --stop-after=transform.structured.tile_using_for | FileCheck %s --check-prefix=TILED
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// STEPS: 0  parse
// STEPS-NEXT: 1  transform.structured.match builtin.module
// STEPS-NEXT: 2  transform.structured.tile_using_for {{.*}} yes
// STEPS-NEXT: 3  transform.nvgpu.rewrite_matmul_as_mma_sync {{.*}} yes
// STEPS-NEXT: 4  klx-lint
// STEPS-NEXT: 5  convert-nvgpu-to-nvvm
// STEPS: cubin
// TILED-NOT: transform.
// TILED: scf.for
// TILED: scf.for
// TILED: scf.for
// TILED: linalg.matmul ins({{.*}} : memref<16x16xf16, strided<[32, 1], offset: ?>>, memref<16x8xf16, strided<[16, 1], offset: ?>>)
// PTX: .entry matmul_kernel
// PTX: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16

module attributes {gpu.container_module, transform.with_named_sequence} {
  func.func @matmul(%a: memref<32x32xf16>, %b: memref<32x16xf16>,
                    %c: memref<32x16xf16>) {
    %one = arith.constant 1 : index
    %warp = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
               threads(%tx, %ty, %tz) in (%sx = %warp, %sy = %one, %sz = %one) {
      linalg.matmul ins(%a, %b : memref<32x32xf16>, memref<32x16xf16>)
                    outs(%c : memref<32x16xf16>)
      gpu.terminator
    }
    return
  }

  // The schedule: what to do with the payload above, op by op.
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // M, N, K tiles of 16, 8 and 16: the shape of one mma.sync.m16n8k16.
    %tile, %loops:3 = transform.structured.tile_using_for %matmul
        tile_sizes [16, 8, 16]
        : (!transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op,
              !transform.any_op)
    transform.nvgpu.rewrite_matmul_as_mma_sync %tile
        : (!transform.any_op) -> ()
    transform.yield
  }
}
