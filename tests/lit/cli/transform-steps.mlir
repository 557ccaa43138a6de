// A transform script's top-level ops are steps: an op that appears twice
// is named NAME#2 as passes are, --stop-after takes them, and a schedule
// that fails reports at the script's line, with the payload op in a note.
//
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// STEPS: 1  transform.structured.match builtin.module
// STEPS: 2  transform.structured.match#2 builtin.module
// STEPS: 3  transform.structured.tile_using_for
// STEPS: 4  transform.nvgpu.rewrite_matmul_as_mma_sync
// STEPS: success
//
// RUN: klx compile %s --stop-after=transform.structured.match#2 | FileCheck %s --check-prefix=SECOND
// SECOND: linalg.matmul ins({{.*}} : memref<16x16xf16>, memref<16x16xf16>)
// SECOND-NOT: transform.
//
// Tiles of 16x16 are not the shape of an mma.sync: the rewrite refuses.
// RUN: sed 's/tile_sizes \[16, 8\]/tile_sizes [16, 16]/' %s > %t.mlir
// RUN: not klx compile %t.mlir --emit=ptx 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: transform-steps.mlir.tmp.mlir:[[@LINE+35]]:5: error: unsupported target op
// BAD: transform-steps.mlir.tmp.mlir:[[@LINE+19]]:7: note: target op
//
// A script by another name (or a legacy top-level transform.sequence) is
// not run: a warning at it says so before the payload fails untransformed.
// RUN: sed 's/@__transform_main/@schedule/' %s > %t.other.mlir
// RUN: not klx compile %t.other.mlir --emit=ptx 2>&1 | FileCheck %s --check-prefix=IGNORED
// IGNORED: transform-steps.mlir.tmp.other.mlir:[[@LINE+19]]:3: warning: this 'transform.named_sequence' is not run: klx runs the transform script named @__transform_main
// IGNORED: error:
// RUN: not klx pipeline %t.other.mlir 2>&1 | FileCheck %s --check-prefix=IGNORED-STEPS
// IGNORED-STEPS-NOT: transform.structured
// IGNORED-STEPS: 1  klx-lint

module attributes {gpu.container_module, transform.with_named_sequence} {
  func.func @matmul(%a: memref<16x16xf16>, %b: memref<16x16xf16>,
                    %c: memref<16x16xf16>) {
    %one = arith.constant 1 : index
    %warp = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
               threads(%tx, %ty, %tz) in (%sx = %warp, %sy = %one, %sz = %one) {
      linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x16xf16>)
                    outs(%c : memref<16x16xf16>)
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %funcs
        : (!transform.any_op) -> !transform.any_op
    %tile, %loops:2 = transform.structured.tile_using_for %matmul
        tile_sizes [16, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.nvgpu.rewrite_matmul_as_mma_sync %tile
        : (!transform.any_op) -> ()
    transform.yield
  }
}
