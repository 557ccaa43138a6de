// Lesson: a matmul scheduled by a transform script, written the way MLIR's
// own TensorCore tests write it: linalg.matmul in a gpu.launch, and a
// transform.named_sequence @__transform_main that maps it to warps, tiles
// each warp's part to the shape of one mma.sync and rewrites each tile
// into nvgpu.mma.sync.
//
// Each top-level op of the script is a step of its own, right after
// parse: transform.structured.match finds the matmul;
// transform.structured.tile_using_forall splits it 2x2 into an scf.forall
// over warps (#gpu.warp<y>, #gpu.warp<z>); transform.structured.tile_using_for
// cuts each warp's 32x16 part into 16x8x16 tiles in three scf.for loops;
// transform.nvgpu.rewrite_matmul_as_mma_sync turns each tile into per-lane
// loads, one nvgpu.mma.sync and per-lane stores; a second match finds the
// gpu.launch, and transform.gpu.map_nested_forall_to_threads replaces the
// scf.forall by the warp's ids. The schedule is erased after the last one;
// the upstream passes lower the rest, and the PTX ends in
// mma.sync.aligned.m16n8k16.
//
// Warps are mapped to y and z, never x: the rewrite takes gpu.thread_id x
// as the lane, so the launch has exactly 32 threads in x (klx-lint warns
// when it has more).
//
// C += A * B: A is 64x32, B is 32x32, C is 64x32, f16; 4 warps of 32.
//
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx compile %s --stop-after=transform.structured.tile_using_for | FileCheck %s --check-prefix=TILED
// RUN: klx compile %s --stop-after=transform.gpu.map_nested_forall_to_threads | FileCheck %s --check-prefix=MAPPED
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// STEPS: 0  parse
// STEPS-NEXT: 1  transform.structured.match builtin.module
// STEPS-NEXT: 2  transform.structured.tile_using_forall {{.*}} yes
// STEPS-NEXT: 3  transform.structured.tile_using_for {{.*}} yes
// STEPS-NEXT: 4  transform.nvgpu.rewrite_matmul_as_mma_sync {{.*}} yes
// STEPS-NEXT: 5  transform.structured.match#2 builtin.module
// STEPS-NEXT: 6  transform.gpu.map_nested_forall_to_threads {{.*}} yes
// STEPS-NEXT: 7  klx-lint
// STEPS-NEXT: 8  convert-nvgpu-to-nvvm
// STEPS: cubin
// TILED-NOT: transform.
// TILED: scf.forall ({{.*}}) in (2, 2)
// TILED: scf.for
// TILED: scf.for
// TILED: scf.for
// TILED: linalg.matmul ins({{.*}} : memref<16x16xf16, strided<[32, 1], offset: ?>>, memref<16x8xf16, strided<[32, 1], offset: ?>>)
// TILED: mapping = [#gpu.warp<y>, #gpu.warp<z>]
// MAPPED-NOT: scf.forall
// MAPPED: gpu.thread_id  y
// MAPPED: gpu.thread_id  z
// MAPPED: nvgpu.mma.sync
// PTX: .entry matmul_kernel
// PTX: .maxntid 32, 2, 2
// PTX: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16

module attributes {gpu.container_module, transform.with_named_sequence} {
  func.func @matmul(%a: memref<64x32xf16>, %b: memref<32x32xf16>,
                    %c: memref<64x32xf16>) {
    %one = arith.constant 1 : index
    %two = arith.constant 2 : index
    %lanes = arith.constant 32 : index
    // 32 lanes in x; the 2x2 warps in y and z.
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
               threads(%tx, %ty, %tz) in (%sx = %lanes, %sy = %two, %sz = %two) {
      linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x32xf16>)
                    outs(%c : memref<64x32xf16>)
      gpu.terminator
    }
    return
  }

  // The schedule: what to do with the payload above, op by op.
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // 2x2 warps, each a 32x16 part of C.
    %warp_part, %forall = transform.structured.tile_using_forall %matmul
        num_threads [2, 2] (mapping = [#gpu.warp<y>, #gpu.warp<z>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // M, N, K tiles of 16, 8 and 16: the shape of one mma.sync.m16n8k16.
    %tile, %loops:3 = transform.structured.tile_using_for %warp_part
        tile_sizes [16, 8, 16]
        : (!transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op,
              !transform.any_op)
    transform.nvgpu.rewrite_matmul_as_mma_sync %tile
        : (!transform.any_op) -> ()
    // The warps of the forall become the launch's thread ids y and z.
    %launch = transform.structured.match ops{["gpu.launch"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %launch
        block_dims = [32, 2, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
