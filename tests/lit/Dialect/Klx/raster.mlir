// The order a persistent CTA walks its tiles: -D raster=row (row by row,
// as group_m = 1), grouped (the default: groups of group_m tile rows,
// column by column), hilbert (8 x 8 blocks of tiles along a Hilbert
// curve, the blocks row by row, the edges past the last whole block row
// by row). Both roles compute the same order once per tile.
//
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D raster=hilbert --stop-after=klx-persistent --emit=mlir | FileCheck %s --check-prefix=HILBERT
// The curve through a block: three levels (8 = 2^3), two bits of the
// point each.
// HILBERT: %[[SIDE:.*]] = arith.constant 8 : index
// HILBERT: arith.divui %{{.*}}, %[[SIDE]]
// HILBERT-COUNT-3: arith.xori
// HILBERT: arith.maxui
// HILBERT: klx.producer_acquire
// The consumers walk the same curve.
// HILBERT-COUNT-3: arith.xori
// HILBERT: klx.consumer_wait
//
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D raster=row --stop-after=klx-persistent --emit=mlir | FileCheck %s --check-prefix=ROW
// ROW-NOT: arith.minui
// ROW-NOT: arith.xori
// ROW: klx.producer_acquire
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --stop-after=klx-persistent --emit=mlir | FileCheck %s --check-prefix=GROUPED
// GROUPED: arith.minui
// GROUPED-NOT: arith.xori
// GROUPED: klx.producer_acquire
//
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir -D raster=zigzag 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: 'klx.kernel' op klx.params: raster must be "row" (row by row), "grouped" (groups of group_m tile rows) or "hilbert" (along a Hilbert curve in blocks of 8 x 8 tiles), got "zigzag"
