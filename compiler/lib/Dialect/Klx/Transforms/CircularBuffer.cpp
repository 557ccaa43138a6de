//===- CircularBuffer.cpp - Channels become stages with full/empty barriers
//-===//
//
// Producer, per k step:            Consumer, per k step:
//   producer_acquire p[i] phase      consumer_wait p[i] phase
//   copy a A[..] to p[i]             %a = stage_tile a p[i]   ...mma...
//   copy b B[..] to p[i]             consumer_release p[i]
//   i, phase = advance i, phase      i, phase = advance i, phase
//
// The state (i, phase) is carried through every loop between the role and
// the step, so it keeps counting across output tiles, the same on both
// sides.
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/Transforms/Passes.h"
#include "klx/Dialect/Klx/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace klx {
#define GEN_PASS_DEF_KLXCIRCULARBUFFERPASS
#include "klx/Dialect/Klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

/// Adds (index, phase) as loop-carried values of every loop between `op`
/// and `role`, outermost first, starting at (0, false) in the role. The
/// innermost loop's body yields what `advanced(...)` computes there.
/// Returns the state visible at `op`.
std::pair<Value, Value> carryState(Operation *op, RoleOp role) {
  SmallVector<Operation *> loops;
  for (Operation *parent = op->getParentOp(); parent != role;
       parent = parent->getParentOp())
    if (isa<scf::ForOp, ForEachTileOp>(parent))
      loops.push_back(parent);
  std::reverse(loops.begin(), loops.end());

  OpBuilder builder(role.getContext());
  builder.setInsertionPointToStart(&role.getBody().front());
  Location loc = role.getLoc();
  Value index = arith::ConstantIndexOp::create(builder, loc, 0);
  Value phase =
      arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 0);

  IRRewriter rewriter(role.getContext());
  for (Operation *&loop : loops) {
    if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
      // Yield the state unchanged for now; the step's advance replaces it.
      auto newLoop = cast<scf::ForOp>(*forOp.replaceWithAdditionalYields(
          rewriter, ValueRange{index, phase},
          /*replaceInitOperandUsesInLoop=*/false,
          [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
            return SmallVector<Value>{args[0], args[1]};
          }));
      loop = newLoop;
      auto args = newLoop.getRegionIterArgs();
      index = args[args.size() - 2];
      phase = args.back();
      continue;
    }
    auto tiles = cast<ForEachTileOp>(loop);
    auto newLoop = appendIterArgs(rewriter, tiles, ValueRange{index, phase});
    loop = newLoop;
    ValueRange newArgs = newLoop.getRegionIterArgs().take_back(2);
    index = newArgs[0];
    phase = newArgs[1];
  }

  // Inner loops yield what the loop inside them produced, so the state
  // flows out of each loop into the next iteration of the one around it.
  for (size_t i = 0; i + 1 < loops.size(); ++i) {
    Operation *outer = loops[i], *inner = loops[i + 1];
    Operation *yield = outer->getRegion(0).front().getTerminator();
    unsigned n = yield->getNumOperands();
    yield->setOperand(n - 2, inner->getResult(inner->getNumResults() - 2));
    yield->setOperand(n - 1, inner->getResult(inner->getNumResults() - 1));
  }
  return {index, phase};
}

/// Makes the innermost loop around `after` yield the advanced state.
void advanceAfter(Operation *after, Value index, Value phase, int64_t stages) {
  OpBuilder builder(after->getContext());
  builder.setInsertionPointAfter(after);
  auto next = AdvanceOp::create(
      builder, after->getLoc(), builder.getIndexType(), builder.getI1Type(),
      index, phase, Value(), builder.getI64IntegerAttr(stages));
  Operation *yield = after->getBlock()->getTerminator();
  unsigned n = yield->getNumOperands();
  yield->setOperand(n - 2, next.getNextIndex());
  yield->setOperand(n - 1, next.getNextPhase());
}

/// A ping-pong consumer sees only every tile_step-th tile of the ring: its
/// state starts first_tile tiles in and, after each of its tiles, jumps
/// over the k steps of the tiles the other consumers take.
void skipOtherConsumersStages(ForEachTileOp tiles, PopOp pop, int64_t stages) {
  auto kLoop = pop->getParentOfType<scf::ForOp>();
  auto kTiles = kLoop.getUpperBound().getDefiningOp<KTilesOp>();
  if (!kTiles)
    return; // warp specialization only makes k loops up to klx.k_tiles
  OpBuilder b(tiles);
  Location loc = tiles.getLoc();
  auto skipBy = [&](OpBuilder &at, Value count, int64_t tilesSkipped,
                    Value index, Value phase) {
    Value skip = arith::MulIOp::create(
        at, loc, count, arith::ConstantIndexOp::create(at, loc, tilesSkipped));
    return AdvanceOp::create(at, loc, at.getIndexType(), at.getI1Type(), index,
                             phase, skip, at.getI64IntegerAttr(stages));
  };
  unsigned n = tiles->getNumOperands();
  Value countHere =
      KTilesOp::create(b, loc, b.getIndexType(), kTiles.getExtent());
  auto start = skipBy(b, countHere, tiles.firstTile(), tiles->getOperand(n - 2),
                      tiles->getOperand(n - 1));
  tiles->setOperand(n - 2, start.getNextIndex());
  tiles->setOperand(n - 1, start.getNextPhase());
  Operation *yield = tiles.getBodyBlock().getTerminator();
  unsigned y = yield->getNumOperands();
  OpBuilder atYield(yield);
  auto next = skipBy(atYield, kTiles.getCount(), tiles.tileStep() - 1,
                     yield->getOperand(y - 2), yield->getOperand(y - 1));
  yield->setOperand(y - 2, next.getNextIndex());
  yield->setOperand(y - 1, next.getNextPhase());
}

/// `sharedFull`: a pipeline whose full barriers this one's producer
/// arrives on instead of its own (shared_full_barrier); may be null.
FailureOr<PipelineOp> bufferChannel(ChannelOp channel, ScheduleAttr schedule,
                                    PipelineOp sharedFull) {
  SmallVector<PushOp> pushes;
  SmallVector<PopOp> pops;
  SmallVector<ReleaseOp> releases;
  for (Operation *user : channel->getUsers()) {
    if (auto push = dyn_cast<PushOp>(user))
      pushes.push_back(push);
    else if (auto pop = dyn_cast<PopOp>(user))
      pops.push_back(pop);
    else if (auto release = dyn_cast<ReleaseOp>(user))
      releases.push_back(release);
  }
  if (pushes.size() != 1)
    return channel.emitOpError("needs exactly one push (one producer role), "
                               "found ")
           << pushes.size();
  if (pops.empty() || pops.size() != releases.size())
    return channel.emitOpError("needs a pop and a release per consumer loop");
  PushOp push = pushes.front();

  // What each slot holds, from the loads the producer pushes.
  SmallVector<LoadOp> loads;
  // Kept apart from the loads, which are gone before the consumers' side.
  SmallVector<OperandAttr> operands;
  int64_t txBytes = 0;
  for (Value tile : push.getTiles()) {
    auto load = tile.getDefiningOp<LoadOp>();
    if (!load || load->getBlock() != push->getBlock())
      return push.emitOpError("pushes a tile that is not a klx.load of the "
                              "same k step");
    loads.push_back(load);
    operands.push_back(load.getOperandAttr());
    txBytes += schedule.tileBytes(load.getOperand());
  }

  OpBuilder builder(channel);
  int64_t stages = schedule.getStages();
  // Every consumer thread releases each stage; with ping-pong only the one
  // warpgroup whose tile it holds.
  int64_t arrivals =
      128 * (schedule.getPingpong() ? 1 : schedule.getConsumers());
  auto pipeline = PipelineOp::create(
      builder, channel.getLoc(), PipelineType::get(channel.getContext()),
      builder.getI64IntegerAttr(stages), builder.getI64IntegerAttr(txBytes),
      builder.getI64IntegerAttr(arrivals),
      sharedFull ? sharedFull.getPipeline() : Value());

  // Producer side.
  auto producer = push->getParentOfType<RoleOp>();
  auto [pIndex, pPhase] = carryState(push, producer);
  builder.setInsertionPoint(loads.front());
  ProducerAcquireOp::create(builder, push.getLoc(), pipeline, pIndex, pPhase);
  for (LoadOp load : loads) {
    builder.setInsertionPoint(load);
    CopyOp::create(builder, load.getLoc(), load.getOperandAttr(),
                   load.getTensor(), load.getRow(), load.getCol(), pipeline,
                   pIndex);
  }
  advanceAfter(push, pIndex, pPhase, stages);
  push.erase();
  for (LoadOp load : loads)
    load.erase();

  // Consumer side: each pop with the release of its block.
  for (PopOp pop : pops) {
    auto paired = llvm::find_if(releases, [&](ReleaseOp release) {
      return release && release->getBlock() == pop->getBlock();
    });
    if (paired == releases.end())
      return pop.emitOpError("has no klx.release in its block");
    ReleaseOp release = *paired;
    *paired = ReleaseOp();
    auto consumer = pop->getParentOfType<RoleOp>();
    auto [cIndex, cPhase] = carryState(pop, consumer);
    if (auto tiles = consumer.getBody().front().getOps<ForEachTileOp>();
        !tiles.empty() && (*tiles.begin()).tileStep() > 1)
      skipOtherConsumersStages(*tiles.begin(), pop, stages);
    builder.setInsertionPoint(pop);
    ConsumerWaitOp::create(builder, pop.getLoc(), pipeline, cIndex, cPhase);
    for (auto [operand, tile] : llvm::zip(operands, pop.getTiles())) {
      auto stageTile = StageTileOp::create(builder, pop.getLoc(),
                                           TileType::get(pop.getContext()),
                                           operand, pipeline, cIndex);
      tile.replaceAllUsesWith(stageTile.getTile());
    }
    builder.setInsertionPoint(release);
    auto consumerRelease =
        ConsumerReleaseOp::create(builder, release.getLoc(), pipeline, cIndex);
    advanceAfter(consumerRelease, cIndex, cPhase, stages);
    pop.erase();
    release.erase();
  }
  channel.erase();
  return pipeline;
}

} // namespace

LogicalResult klx::buildCircularBuffers(KernelOp kernel) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  SmallVector<ChannelOp> channels(kernel.getBodyBlock().getOps<ChannelOp>());
  if (!channels.empty() && !schedule)
    return kernel.emitOpError("has no schedule; run klx-materialize-schedule "
                              "first");
  if (schedule && !schedule.getWarpSpecialize() && channels.empty() &&
      kernel.getBodyBlock().getOps<PipelineOp>().empty())
    return pipelineWithoutRoles(kernel);
  PipelineOp first;
  for (ChannelOp channel : channels) {
    PipelineOp sharedFull =
        first && schedule.getSharedFullBarrier() ? first : PipelineOp();
    FailureOr<PipelineOp> pipeline =
        bufferChannel(channel, schedule, sharedFull);
    if (failed(pipeline))
      return failure();
    if (!first)
      first = *pipeline;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pass definition
//===----------------------------------------------------------------------===//

namespace {
struct KlxCircularBufferPass final
    : klx::impl::KlxCircularBufferPassBase<KlxCircularBufferPass> {
  void runOnOperation() override {
    if (failed(forEachKernel(getOperation(), buildCircularBuffers)))
      signalPassFailure();
  }
};
} // namespace
