//===- Persistent.cpp - Which output tiles each CTA computes --------------===//
//
// persistent = true:                      persistent = false:
//   for t = block_id.x; t < tiles;          tm = block_id.y
//       t += grid_dim.x                     tn = block_id.x
//     tm = t / tiles_n, tn = t % tiles_n    (the body, once)
//     (the body)
//
// raster = hilbert walks 8 x 8 blocks of tiles along a Hilbert curve
// (hilbertTile); group_m > 1 walks groups of rows column by column.
//
// With a cluster of cluster_m x cluster_n CTAs, t counts groups of that
// many tiles, one group per cluster (block_id.x / size, stepping by
// grid_dim.x / size), and each CTA takes its rank's tile of the group.
//
// A producer's merged (tile x k) loop becomes a loop over this CTA's
// tiles with the k loop inside: the tile's coordinates (divisions, three
// with grouped rows) are worked out once per tile, not at every k step,
// where they delayed the producer's next copy.
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/Transforms/Passes.h"
#include "klx/Dialect/Klx/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace klx {
#define GEN_PASS_DEF_KLXPERSISTENTPASS
#include "klx/Dialect/Klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

Value ceilDiv(OpBuilder &b, Location loc, Value x, int64_t divisor) {
  return arith::CeilDivUIOp::create(
      b, loc, x, arith::ConstantIndexOp::create(b, loc, divisor));
}

/// A scf.for from `zero` to `count` carrying `inits`, its body empty (no
/// terminator) and the insertion point at its start.
scf::ForOp emptyLoop(IRRewriter &rewriter, Location loc, Value zero,
                     Value count, Value one, ValueRange inits) {
  auto forOp = scf::ForOp::create(rewriter, loc, zero, count, one, inits);
  Block *body = forOp.getBody();
  if (!body->empty())
    rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPointToStart(body);
  return forOp;
}

/// Moves `loop`'s body to the end of `into`, `arguments` standing for its
/// block arguments, its klx.yield made a scf.yield.
void moveBodyInto(IRRewriter &rewriter, ForEachTileOp loop, Block *into,
                  ArrayRef<Value> arguments) {
  Block &body = loop.getBodyBlock();
  auto yield = cast<YieldOp>(body.getTerminator());
  rewriter.mergeBlocks(&body, into, arguments);
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yield.getValues());
}

/// Replaces `loop` by `body` run once per `count` (a scf.for from 0), or
/// once when `count` is null; `coordinates` gives (tm, tn[, k]) from the
/// iteration number.
void replaceLoop(IRRewriter &rewriter, ForEachTileOp loop, Value count,
                 function_ref<SmallVector<Value>(OpBuilder &, Location, Value)>
                     coordinates) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  if (!count) {
    Block &body = loop.getBodyBlock();
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Value> arguments = coordinates(rewriter, loc, Value());
    arguments.append(loop.getInits().begin(), loop.getInits().end());
    SmallVector<Value> results(yield.getValues());
    rewriter.inlineBlockBefore(&body, loop, arguments);
    rewriter.eraseOp(yield);
    rewriter.replaceOp(loop, results);
    return;
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  scf::ForOp forOp =
      emptyLoop(rewriter, loc, zero, count, one, loop.getInits());
  SmallVector<Value> arguments =
      coordinates(rewriter, loc, forOp.getInductionVar());
  arguments.append(forOp.getRegionIterArgs().begin(),
                   forOp.getRegionIterArgs().end());
  moveBodyInto(rewriter, loop, forOp.getBody(), arguments);
  rewriter.replaceOp(loop, forOp.getResults());
}

/// Replaces a merged (tile x k) `loop` by a loop over `tileCount` tiles
/// and, inside it, one over `kTiles`; the loop-carried values go through
/// both. `tileOf` gives (tm, tn) from the tile number, once per tile.
void replaceMergedLoop(
    IRRewriter &rewriter, ForEachTileOp loop, Value tileCount, Value kTiles,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> tileOf) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  scf::ForOp tiles =
      emptyLoop(rewriter, loc, zero, tileCount, one, loop.getInits());
  SmallVector<Value> arguments = tileOf(rewriter, loc, tiles.getInductionVar());
  OpBuilder::InsertPoint inTiles = rewriter.saveInsertionPoint();
  scf::ForOp ks =
      emptyLoop(rewriter, loc, zero, kTiles, one, tiles.getRegionIterArgs());
  rewriter.restoreInsertionPoint(inTiles);
  scf::YieldOp::create(rewriter, loc, ks.getResults());
  arguments.push_back(ks.getInductionVar());
  arguments.append(ks.getRegionIterArgs().begin(),
                   ks.getRegionIterArgs().end());
  moveBodyInto(rewriter, loop, ks.getBody(), arguments);
  rewriter.replaceOp(loop, tiles.getResults());
}

/// The (x, y) of point `d` on the Hilbert curve through a side x side
/// square (side a power of 2), unrolled: per level, the quadrant from two
/// bits of d, the point so far turned into it.
std::pair<Value, Value> hilbertPoint(OpBuilder &b, Location loc, Value d,
                                     int64_t side) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  auto eq = [&](Value x, int64_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(v));
  };
  Value x = c(0), y = c(0), t = d;
  for (int64_t level = 1; level < side; level *= 2) {
    Value rx = arith::AndIOp::create(b, loc, c(1),
                                     arith::ShRUIOp::create(b, loc, t, c(1)));
    Value ry = arith::AndIOp::create(b, loc, c(1),
                                     arith::XOrIOp::create(b, loc, t, rx));
    // In the lower quadrants the curve turns: mirrored when rx = 1, then
    // x and y swap.
    Value turn = eq(ry, 0);
    Value mirror = arith::AndIOp::create(b, loc, turn, eq(rx, 1));
    Value last = c(level - 1);
    Value mx = arith::SelectOp::create(
        b, loc, mirror, arith::SubIOp::create(b, loc, last, x), x);
    Value my = arith::SelectOp::create(
        b, loc, mirror, arith::SubIOp::create(b, loc, last, y), y);
    Value nx = arith::SelectOp::create(b, loc, turn, my, mx);
    Value ny = arith::SelectOp::create(b, loc, turn, mx, my);
    x = arith::AddIOp::create(b, loc, nx,
                              arith::MulIOp::create(b, loc, rx, c(level)));
    y = arith::AddIOp::create(b, loc, ny,
                              arith::MulIOp::create(b, loc, ry, c(level)));
    t = arith::ShRUIOp::create(b, loc, t, c(2));
  }
  return {x, y};
}

/// Tile number `tile` of a tilesM x tilesN grid in Hilbert order: the
/// whole blocks of `side` x `side` tiles row by row, each along the curve;
/// then, row by row, the tiles right of the last whole block column (in
/// the rows the blocks cover) and those below the last whole block row.
SmallVector<Value> hilbertTile(OpBuilder &b, Location loc, Value tile,
                               Value tilesM, Value tilesN, int64_t side) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  auto mul = [&](Value x, Value y) {
    return arith::MulIOp::create(b, loc, x, y).getResult();
  };
  auto divAtLeastOne = [&](Value x, Value y) {
    return arith::DivUIOp::create(b, loc, x,
                                  arith::MaxUIOp::create(b, loc, y, c(1)))
        .getResult();
  };
  auto remAtLeastOne = [&](Value x, Value y) {
    return arith::RemUIOp::create(b, loc, x,
                                  arith::MaxUIOp::create(b, loc, y, c(1)))
        .getResult();
  };
  auto select = [&](Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y).getResult();
  };
  auto ult = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y)
        .getResult();
  };
  Value blocksN = arith::DivUIOp::create(b, loc, tilesN, c(side));
  Value fullM = mul(arith::DivUIOp::create(b, loc, tilesM, c(side)), c(side));
  Value fullN = mul(blocksN, c(side));
  Value inBlocks = mul(fullM, fullN);
  // Along the curve, in a whole block.
  Value block = arith::DivUIOp::create(b, loc, tile, c(side * side));
  auto [x, y] = hilbertPoint(
      b, loc, arith::RemUIOp::create(b, loc, tile, c(side * side)), side);
  Value curveM = arith::AddIOp::create(
      b, loc, mul(divAtLeastOne(block, blocksN), c(side)), x);
  Value curveN = arith::AddIOp::create(
      b, loc, mul(remAtLeastOne(block, blocksN), c(side)), y);
  // Row by row, past the blocks: first the strip at the right.
  Value rest = arith::SubIOp::create(b, loc, tile, inBlocks);
  Value rightWidth = arith::SubIOp::create(b, loc, tilesN, fullN);
  Value inRight = mul(fullM, rightWidth);
  Value rightM = divAtLeastOne(rest, rightWidth);
  Value rightN =
      arith::AddIOp::create(b, loc, fullN, remAtLeastOne(rest, rightWidth));
  Value below = arith::SubIOp::create(b, loc, rest, inRight);
  Value belowM =
      arith::AddIOp::create(b, loc, fullM, divAtLeastOne(below, tilesN));
  Value belowN = remAtLeastOne(below, tilesN);
  Value onCurve = ult(tile, inBlocks);
  Value onRight = ult(rest, inRight);
  return {select(onCurve, curveM, select(onRight, rightM, belowM)),
          select(onCurve, curveN, select(onRight, rightN, belowN))};
}

/// The (row, column) of tile number `tile` in the schedule's order: along
/// a Hilbert curve; row by row (group_m = 1); or in groups of group_m tile
/// rows (the last one may be shorter), walked column by column: tile t of a
/// group is row t % rows, column t / rows.
SmallVector<Value> tileInOrder(OpBuilder &b, Location loc, Value tile,
                               Value tilesM, Value tilesN,
                               ScheduleAttr schedule) {
  if (schedule.getHilbert())
    return hilbertTile(b, loc, tile, tilesM, tilesN,
                       ScheduleAttr::kHilbertBlock);
  int64_t groupM = schedule.getGroupM();
  if (groupM == 1)
    return {arith::DivUIOp::create(b, loc, tile, tilesN),
            arith::RemUIOp::create(b, loc, tile, tilesN)};
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value perGroup = arith::MulIOp::create(b, loc, tilesN, c(groupM));
  Value group = arith::DivUIOp::create(b, loc, tile, perGroup);
  Value firstRow = arith::MulIOp::create(b, loc, group, c(groupM));
  Value rows = arith::MinUIOp::create(
      b, loc, c(groupM), arith::SubIOp::create(b, loc, tilesM, firstRow));
  Value inGroup = arith::RemUIOp::create(b, loc, tile, perGroup);
  return {arith::AddIOp::create(b, loc, firstRow,
                                arith::RemUIOp::create(b, loc, inGroup, rows)),
          arith::DivUIOp::create(b, loc, inGroup, rows)};
}

/// How many of `tiles` a CTA visits that owns tiles first, first + stride,
/// ...: ceil((tiles - first) / stride), or 0 when first >= tiles; of those,
/// a ping-pong consumer takes its firstTile-th and then every tileStep-th:
/// ceil((mine - firstTile) / tileStep), or none.
Value tilesVisited(IRRewriter &rewriter, Location loc, Value tiles, Value first,
                   Value stride, int64_t firstTile, int64_t tileStep) {
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value owns = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     first, tiles);
  Value left = arith::SubIOp::create(rewriter, loc, tiles, first);
  Value mine = arith::SelectOp::create(
      rewriter, loc, owns,
      arith::CeilDivUIOp::create(rewriter, loc, left, stride), zero);
  if (firstTile == 0 && tileStep == 1)
    return mine;
  Value firstValue = arith::ConstantIndexOp::create(rewriter, loc, firstTile);
  Value any = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt,
                                    mine, firstValue);
  Value rest = arith::SubIOp::create(rewriter, loc, mine, firstValue);
  return arith::SelectOp::create(rewriter, loc, any,
                                 ceilDiv(rewriter, loc, rest, tileStep), zero);
}

void mapLoop(ForEachTileOp loop, ScheduleAttr schedule, bool gridStride) {
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  ValueRange extents = loop.getExtents();
  // A cluster walks groups of clusterM x clusterN tiles (one per CTA) as
  // one CTA walks tiles; past here "tile" means such a group.
  int64_t clusterM = schedule.getClusterM(), clusterN = schedule.getClusterN();
  int64_t clusterSize = clusterM * clusterN;
  Value tilesM =
      ceilDiv(rewriter, loc, extents[0], schedule.getTileM() * clusterM);
  Value tilesN =
      ceilDiv(rewriter, loc, extents[1], schedule.getTileN() * clusterN);
  Value kTiles = loop.hasK()
                     ? ceilDiv(rewriter, loc, extents[2], schedule.getTileK())
                     : Value();
  auto groupCoordinates = [&](OpBuilder &b, Value tile) {
    return tileInOrder(b, loc, tile, tilesM, tilesN, schedule);
  };

  // The CTA's own tile of its cluster's group: the CTAs of a 1-D cluster
  // (x = rank) stand in a column (clusterM) or a row (clusterN).
  Value rank;
  auto tileCoordinates = [&](OpBuilder &b, Value tile) -> SmallVector<Value> {
    SmallVector<Value> group = groupCoordinates(b, tile);
    if (clusterSize == 1)
      return group;
    int dim = clusterM > 1 ? 0 : 1;
    group[dim] = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, group[dim],
            arith::ConstantIndexOp::create(b, loc, clusterSize)),
        rank);
    return group;
  };

  if (!schedule.getPersistent() || !gridStride) {
    // One tile per CTA: grid (tiles_n, tiles_m).
    Value tm = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::y);
    Value tn = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    replaceLoop(rewriter, loop, kTiles,
                [&](OpBuilder &, Location, Value k) -> SmallVector<Value> {
                  if (!k)
                    return {tm, tn};
                  return {tm, tn, k};
                });
    return;
  }

  // Persistent: this CTA owns tiles block_id.x, + grid_dim.x, ...; a
  // cluster (grid_dim.x a multiple of its size) owns groups cluster_id,
  // + clusters, ...
  Value first = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value stride = gpu::GridDimOp::create(rewriter, loc, gpu::Dimension::x);
  if (clusterSize > 1) {
    Value size = arith::ConstantIndexOp::create(rewriter, loc, clusterSize);
    rank = gpu::ClusterBlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    first = arith::DivUIOp::create(rewriter, loc, first, size);
    stride = arith::DivUIOp::create(rewriter, loc, stride, size);
  }
  int64_t firstTile = loop.firstTile(), tileStep = loop.tileStep();
  Value mine = tilesVisited(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, tilesM, tilesN),
      first, stride, firstTile, tileStep);
  // The j-th of this CTA's tiles (of those it visits) as (tm, tn).
  auto tileOf = [&](OpBuilder &b, Location, Value j) -> SmallVector<Value> {
    if (firstTile != 0 || tileStep != 1)
      j = arith::AddIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, firstTile),
          arith::MulIOp::create(
              b, loc, j, arith::ConstantIndexOp::create(b, loc, tileStep)));
    Value tile = arith::AddIOp::create(
        b, loc, first, arith::MulIOp::create(b, loc, j, stride));
    return tileCoordinates(b, tile);
  };
  if (kTiles)
    replaceMergedLoop(rewriter, loop, mine, kTiles, tileOf);
  else
    replaceLoop(rewriter, loop, mine, tileOf);
}

} // namespace

LogicalResult klx::mapTilesToCTAs(KernelOp kernel, bool gridStride) {
  SmallVector<ForEachTileOp> loops;
  kernel.walk([&](ForEachTileOp loop) { loops.push_back(loop); });
  if (loops.empty())
    return success();
  ScheduleAttr schedule = kernel.getScheduleAttr();
  if (!schedule)
    return kernel.emitOpError("has no schedule; run klx-materialize-schedule "
                              "first");
  if (schedule.clusterSize() > 1 && !gridStride)
    return kernel.emitOpError("klx-persistent{grid-stride=false} maps one "
                              "tile per CTA, which a cluster's walk of its "
                              "groups of tiles cannot take");
  for (ForEachTileOp loop : loops) {
    if (loop->getParentOfType<ForEachTileOp>())
      return loop.emitOpError("is nested in another klx.for_each_tile");
    if ((loop.firstTile() != 0 || loop.tileStep() != 1) &&
        (!schedule.getPersistent() || !gridStride))
      return loop.emitOpError("visits only some of the CTA's tiles, which "
                              "needs a persistent schedule (one tile per CTA "
                              "leaves nothing to share)");
    mapLoop(loop, schedule, gridStride);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pass definition
//===----------------------------------------------------------------------===//

namespace {
struct KlxPersistentPass final
    : klx::impl::KlxPersistentPassBase<KlxPersistentPass> {
  using KlxPersistentPassBase::KlxPersistentPassBase;
  void runOnOperation() override {
    if (failed(forEachKernel(getOperation(), [&](KernelOp kernel) {
          return mapTilesToCTAs(kernel, gridStride);
        })))
      signalPassFailure();
  }
};
} // namespace
