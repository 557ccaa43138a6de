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

/// What the phases of pipelining one tile loop share: the pipeline, the
/// constants and the elected thread made before the tile loop, and the
/// ring steps the tiles before this one used (`base`).
struct InPlacePipeline {
  InPlacePipeline(InPlaceProgram &program, Location loc)
      : program(program), loc(loc) {}

  InPlaceProgram &program;
  Location loc;
  int64_t stages = 0;
  PipelineOp pipeline;
  Value zero, noPhase, one, ahead, elected;
  ForEachTileOp tiles;
  Value base;
  scf::ForOp kLoop;
  Value kTiles;

  /// The state of k step `k` of this tile: base + k steps into the ring.
  AdvanceOp stateAt(OpBuilder &at, Value k) {
    Value steps = arith::AddIOp::create(at, loc, base, k);
    return AdvanceOp::create(at, loc, at.getIndexType(), at.getI1Type(), zero,
                             noPhase, steps, at.getI64IntegerAttr(stages));
  }

  /// The elected thread's copies for k step `k`: the loads' index math
  /// cloned with the k loop's induction variable replaced.
  void issue(OpBuilder &at, Value k) {
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
  }
};

/// The pipeline, its constants and the elected thread before the tile
/// loop, and the tile loop given the ring steps so far as an iter_arg.
InPlacePipeline createPipeline(KernelOp kernel, InPlaceProgram &program) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  MLIRContext *context = kernel.getContext();
  InPlacePipeline p(program, program.tiles.getLoc());
  Location loc = p.loc;
  p.stages = schedule.getStages();

  OpBuilder b(program.tiles);
  int64_t txBytes = 0;
  for (LoadOp load : program.loads)
    txBytes += schedule.tileBytes(load.getOperand());
  p.pipeline = PipelineOp::create(
      b, loc, PipelineType::get(context), b.getI64IntegerAttr(p.stages),
      b.getI64IntegerAttr(txBytes),
      b.getI64IntegerAttr(128 * schedule.getConsumers()), Value());
  p.zero = arith::ConstantIndexOp::create(b, loc, 0);
  p.noPhase = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  p.one = arith::ConstantIndexOp::create(b, loc, 1);
  // stages-1 steps ahead leaves the stage just released to the step after
  // next, so the elected thread rarely waits on the slowest warpgroup; one
  // stage has no such slack and refills the stage it just released.
  p.ahead = arith::ConstantIndexOp::create(b, loc,
                                           std::max<int64_t>(1, p.stages - 1));
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  p.elected =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, p.zero);

  IRRewriter rewriter(context);
  p.tiles = appendIterArgs(rewriter, program.tiles, p.zero);
  p.base = p.tiles.getRegionIterArgs().back();
  p.kLoop = program.kLoop;
  p.kTiles = program.kTiles.getCount();
  return p;
}

/// Prologue: the first `ahead` k steps (fewer when K is short).
void issuePrologue(InPlacePipeline &p) {
  OpBuilder b(p.kLoop);
  Value prologueSteps = arith::MinUIOp::create(b, p.loc, p.ahead, p.kTiles);
  auto prologue = scf::ForOp::create(b, p.loc, p.zero, prologueSteps, p.one);
  OpBuilder body = OpBuilder::atBlockTerminator(prologue.getBody());
  auto only = scf::IfOp::create(body, p.loc, p.elected, /*withElse=*/false);
  OpBuilder then = OpBuilder::atBlockTerminator(only.thenBlock());
  p.issue(then, prologue.getInductionVar());
}

/// Steady state: wait for the step's stage and take its tiles in place of
/// the loads, release it after their last use in the step, then have the
/// elected thread refill the stage just freed with the step `ahead` steps
/// later.
void consumeAndRefill(InPlacePipeline &p) {
  MLIRContext *context = p.pipeline.getContext();
  Location loc = p.loc;
  OpBuilder step(p.program.loads.front());
  AdvanceOp state = p.stateAt(step, p.kLoop.getInductionVar());
  ConsumerWaitOp::create(step, loc, p.pipeline, state.getNextIndex(),
                         state.getNextPhase());
  Operation *lastUse = state;
  for (LoadOp load : p.program.loads) {
    auto tile = StageTileOp::create(step, loc, TileType::get(context),
                                    load.getOperandAttr(), p.pipeline,
                                    state.getNextIndex());
    for (Operation *user : load->getUsers())
      if (Operation *inStep = p.kLoop.getBody()->findAncestorOpInBlock(*user);
          inStep && lastUse->isBeforeInBlock(inStep))
        lastUse = inStep;
    load.getTile().replaceAllUsesWith(tile.getTile());
  }
  OpBuilder after(context);
  after.setInsertionPointAfter(lastUse);
  ConsumerReleaseOp::create(after, loc, p.pipeline, state.getNextIndex());
  Value next =
      arith::AddIOp::create(after, loc, p.kLoop.getInductionVar(), p.ahead);
  Value more = arith::CmpIOp::create(after, loc, arith::CmpIPredicate::ult,
                                     next, p.kTiles);
  // Elected first, then the bound: a reader (and the role tree) sees one
  // thread issuing the copies.
  auto electedIf = scf::IfOp::create(after, loc, p.elected, /*withElse=*/false);
  OpBuilder inElected = OpBuilder::atBlockTerminator(electedIf.thenBlock());
  auto refillIf = scf::IfOp::create(inElected, loc, more, /*withElse=*/false);
  OpBuilder then = OpBuilder::atBlockTerminator(refillIf.thenBlock());
  p.issue(then, next);
}

/// The loads, and the index math only they used.
void eraseLoads(InPlacePipeline &p) {
  for (LoadOp load : p.program.loads)
    load.erase();
  p.kLoop.getBody()->walk<WalkOrder::PostOrder, ReverseIterator>(
      [&](Operation *op) {
        if (isOpTriviallyDead(op))
          op->erase();
      });
}

/// The next tile starts kt steps further into the ring.
void advanceBaseAtYield(InPlacePipeline &p) {
  auto yield = cast<YieldOp>(p.tiles.getBodyBlock().getTerminator());
  OpBuilder atYield(yield);
  yield->setOperand(yield->getNumOperands() - 1,
                    arith::AddIOp::create(atYield, p.loc, p.base, p.kTiles));
}

} // namespace

LogicalResult klx::pipelineWithoutRoles(KernelOp kernel) {
  FailureOr<InPlaceProgram> matched = matchInPlace(kernel);
  if (failed(matched))
    return failure();
  InPlacePipeline p = createPipeline(kernel, *matched);
  issuePrologue(p);
  consumeAndRefill(p);
  eraseLoads(p);
  advanceBaseAtYield(p);
  return success();
}
