//===- SoftwarePipeline.cpp - A circular buffer without warp roles --------===//
//
// warp_specialize = false: the same warpgroups load and multiply. One
// elected thread keeps the copies `ahead` = max(1, stages - 1) k steps
// ahead of the MMAs:
//
//   klx.for_each_tile (%tm, %tn) iter_args(%base = 0) {   // steps so far
//     scf.for %j = 0 to min(ahead, kt):  [thread 0] acquire, copy j
//     %acc = scf.for %k = 0 to kt {
//       consumer_wait, stage_tile, mma, consumer_release       (step k)
//       [thread 0] if k + ahead < kt: acquire, copy k + ahead
//     }
//     klx.store %acc ...
//     klx.yield %base + kt
//   }
//
// Each step's pipeline state is computed from the steps before it, so
// producer and consumer agree without carrying two states.
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Iterators.h"

using namespace mlir;
using namespace klx;

namespace {

struct InPlaceProgram {
  ForEachTileOp tiles;
  scf::ForOp kLoop;
  KTilesOp kTiles;
  SmallVector<LoadOp> loads;
};

FailureOr<InPlaceProgram> matchInPlace(KernelOp kernel) {
  InPlaceProgram program;
  auto loops = kernel.getBodyBlock().getOps<ForEachTileOp>();
  if (loops.empty())
    return kernel.emitOpError("has no klx.for_each_tile to pipeline");
  program.tiles = *loops.begin();
  if (std::next(loops.begin()) != loops.end() || program.tiles.hasK() ||
      !program.tiles.getInits().empty())
    return program.tiles.emitOpError(
        "software pipelining expects one (M, N) tile loop without iter_args");
  program.tiles.getBody().walk(
      [&](LoadOp load) { program.loads.push_back(load); });
  if (program.loads.empty())
    return program.tiles.emitOpError("loads no tiles: nothing to pipeline");
  program.kLoop = dyn_cast<scf::ForOp>(program.loads.front()->getParentOp());
  for (LoadOp load : program.loads)
    if (load->getParentOp() != program.kLoop.getOperation() ||
        program.kLoop->getParentOp() != program.tiles)
      return load.emitOpError("must sit directly in the one k loop (an "
                              "scf.for directly inside klx.for_each_tile)");
  program.kTiles = program.kLoop.getUpperBound().getDefiningOp<KTilesOp>();
  std::optional<int64_t> lower =
      getConstantIntValue(program.kLoop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(program.kLoop.getStep());
  if (!program.kTiles || lower != 0 || step != 1)
    return program.kLoop.emitOpError("the k loop must run from 0 to "
                                     "klx.k_tiles(K) in steps of 1");
  return program;
}

} // namespace

LogicalResult klx::pipelineWithoutRoles(KernelOp kernel) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  FailureOr<InPlaceProgram> matched = matchInPlace(kernel);
  if (failed(matched))
    return failure();
  InPlaceProgram &program = *matched;
  MLIRContext *context = kernel.getContext();
  Location loc = program.tiles.getLoc();
  int64_t stages = schedule.getStages();

  OpBuilder b(program.tiles);
  int64_t txBytes = 0;
  for (LoadOp load : program.loads)
    txBytes += schedule.tileBytes(load.getOperand());
  auto pipeline = PipelineOp::create(
      b, loc, PipelineType::get(context), b.getI64IntegerAttr(stages),
      b.getI64IntegerAttr(txBytes),
      b.getI64IntegerAttr(128 * schedule.getConsumers()), Value());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value noPhase = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  // stages-1 steps ahead leaves the stage just released to the step after
  // next, so the elected thread rarely waits on the slowest warpgroup; one
  // stage has no such slack and refills the stage it just released.
  Value ahead =
      arith::ConstantIndexOp::create(b, loc, std::max<int64_t>(1, stages - 1));
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value elected =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, zero);

  IRRewriter rewriter(context);
  ForEachTileOp tiles = appendIterArgs(rewriter, program.tiles, zero);
  Value base = tiles.getRegionIterArgs().back();
  scf::ForOp kLoop = program.kLoop;
  Value kTiles = program.kTiles.getCount();

  // The state of k step `k` of this tile: base + k steps into the ring.
  auto stateAt = [&](OpBuilder &at, Value k) {
    Value steps = arith::AddIOp::create(at, loc, base, k);
    return AdvanceOp::create(at, loc, at.getIndexType(), at.getI1Type(), zero,
                             noPhase, steps, at.getI64IntegerAttr(stages));
  };
  // The elected thread's copies for k step `k`: the loads' index math
  // cloned with the k loop's induction variable replaced.
  auto issue = [&](OpBuilder &at, Value k) {
    AdvanceOp state = stateAt(at, k);
    ProducerAcquireOp::create(at, loc, pipeline, state.getNextIndex(),
                              state.getNextPhase());
    IRMapping mapping;
    mapping.map(kLoop.getInductionVar(), k);
    for (LoadOp load : program.loads) {
      BackwardSliceOptions options;
      options.omitBlockArguments = true;
      options.filter = [&](Operation *op) {
        return kLoop->isProperAncestor(op);
      };
      SetVector<Operation *> slice;
      (void)getBackwardSlice(load.getOperation(), &slice, options);
      for (Operation *op : slice)
        if (op != load && !mapping.contains(op))
          at.clone(*op, mapping);
      CopyOp::create(at, load.getLoc(), load.getOperandAttr(),
                     mapping.lookupOrDefault(load.getTensor()),
                     mapping.lookupOrDefault(load.getRow()),
                     mapping.lookupOrDefault(load.getCol()), pipeline,
                     state.getNextIndex());
    }
  };

  // Prologue: the first `ahead` k steps (fewer when K is short).
  b.setInsertionPoint(kLoop);
  Value prologueSteps = arith::MinUIOp::create(b, loc, ahead, kTiles);
  auto prologue = scf::ForOp::create(b, loc, zero, prologueSteps, one);
  {
    OpBuilder body = OpBuilder::atBlockTerminator(prologue.getBody());
    auto only = scf::IfOp::create(body, loc, elected, /*withElse=*/false);
    OpBuilder then = OpBuilder::atBlockTerminator(only.thenBlock());
    issue(then, prologue.getInductionVar());
  }

  // Steady state: wait, multiply, release, then refill the stage just
  // freed with the step `ahead` steps later.
  OpBuilder step(program.loads.front());
  AdvanceOp state = stateAt(step, kLoop.getInductionVar());
  ConsumerWaitOp::create(step, loc, pipeline, state.getNextIndex(),
                         state.getNextPhase());
  Operation *lastUse = state;
  for (LoadOp load : program.loads) {
    auto tile = StageTileOp::create(step, loc, TileType::get(context),
                                    load.getOperandAttr(), pipeline,
                                    state.getNextIndex());
    for (Operation *user : load->getUsers())
      if (Operation *inStep = kLoop.getBody()->findAncestorOpInBlock(*user);
          inStep && lastUse->isBeforeInBlock(inStep))
        lastUse = inStep;
    load.getTile().replaceAllUsesWith(tile.getTile());
  }
  OpBuilder after(context);
  after.setInsertionPointAfter(lastUse);
  ConsumerReleaseOp::create(after, loc, pipeline, state.getNextIndex());
  Value next =
      arith::AddIOp::create(after, loc, kLoop.getInductionVar(), ahead);
  Value more = arith::CmpIOp::create(after, loc, arith::CmpIPredicate::ult,
                                     next, kTiles);
  // Elected first, then the bound: a reader (and the role tree) sees one
  // thread issuing the copies.
  auto electedIf = scf::IfOp::create(after, loc, elected, /*withElse=*/false);
  OpBuilder inElected = OpBuilder::atBlockTerminator(electedIf.thenBlock());
  auto refillIf = scf::IfOp::create(inElected, loc, more, /*withElse=*/false);
  OpBuilder then = OpBuilder::atBlockTerminator(refillIf.thenBlock());
  issue(then, next);
  for (LoadOp load : program.loads)
    load.erase();
  kLoop.getBody()->walk<WalkOrder::PostOrder, ReverseIterator>(
      [&](Operation *op) {
        if (isOpTriviallyDead(op))
          op->erase();
      });

  // The next tile starts kt steps further into the ring.
  auto yield = cast<YieldOp>(tiles.getBodyBlock().getTerminator());
  OpBuilder atYield(yield);
  yield->setOperand(yield->getNumOperands() - 1,
                    arith::AddIOp::create(atYield, loc, base, kTiles));
  return success();
}
