//===- WarpSpecialize.cpp - A producer role and consumer warpgroups -------===//
//
// Input (the tile program):
//
//   klx.for_each_tile (%tm, %tn) in (%M, %N) {          // T
//     %kt = klx.k_tiles %K
//     %acc = scf.for %k = 0 to %kt ... {                // K
//       %a = klx.load a %A[%tm, %k]
//       %b = klx.load b %B[%k, %tn]
//       %c = klx.mma %a, %b, ...
//     }
//     klx.store %acc, %D[%tm, %tn]
//   }
//
// Output: a channel and two roles. The producer runs one merged loop over
// (tile x k) with just the loads and what they depend on; the consumers
// keep T and K and take the tiles from the channel.
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/Transforms/Passes.h"
#include "klx/Dialect/Klx/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace klx {
#define GEN_PASS_DEF_KLXWARPSPECIALIZEPASS
#include "klx/Dialect/Klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

/// The parts of a tile program warp specialization needs.
struct TileProgram {
  ForEachTileOp tileLoop; // T
  scf::ForOp kLoop;       // K
  Value kExtent;          // K, as given to klx.k_tiles
  SmallVector<LoadOp> loads;
};

FailureOr<TileProgram> matchTileProgram(KernelOp kernel) {
  TileProgram program;
  for (Operation &op : kernel.getBodyBlock()) {
    if (auto loop = dyn_cast<ForEachTileOp>(op)) {
      if (program.tileLoop)
        return kernel
                   .emitOpError("warp specialization expects one "
                                "klx.for_each_tile, found a second")
                   .attachNote(loop.getLoc())
               << "this one";
      program.tileLoop = loop;
    }
  }
  if (!program.tileLoop)
    return kernel.emitOpError("has no klx.for_each_tile to specialize");
  if (program.tileLoop.hasK() || !program.tileLoop.getInits().empty())
    return program.tileLoop.emitOpError(
        "warp specialization expects the (M, N) tile loop of a tile "
        "program, without iter_args");

  program.tileLoop.getBody().walk(
      [&](LoadOp load) { program.loads.push_back(load); });
  if (program.loads.empty())
    return program.tileLoop.emitOpError("loads no tiles: nothing for a "
                                        "producer role to do");
  for (LoadOp load : program.loads) {
    auto k = dyn_cast<scf::ForOp>(load->getParentOp());
    if (!k || k->getParentOp() != program.tileLoop)
      return load.emitOpError("must sit directly in the k loop (an scf.for "
                              "directly inside klx.for_each_tile)");
    if (program.kLoop && program.kLoop != k)
      return load.emitOpError("is in a second k loop; warp specialization "
                              "expects one");
    program.kLoop = k;
  }
  scf::ForOp k = program.kLoop;
  auto count = k.getUpperBound().getDefiningOp<KTilesOp>();
  auto isConstant = [](Value v, int64_t expected) {
    std::optional<int64_t> c = getConstantIntValue(v);
    return c && *c == expected;
  };
  if (!count || !isConstant(k.getLowerBound(), 0) ||
      !isConstant(k.getStep(), 1))
    return k.emitOpError("the k loop must run from 0 to klx.k_tiles(K) in "
                         "steps of 1 for warp specialization");
  program.kExtent = count.getExtent();
  return program;
}

/// Clones into `builder` the ops inside `scope` that `load` needs, then
/// the load itself.
LoadOp cloneWithSlice(OpBuilder &builder, LoadOp load, Operation *scope,
                      IRMapping &mapping) {
  BackwardSliceOptions options;
  options.inclusive = false;
  // Block arguments (tm, tn, k) are mapped, not cloned with their loops.
  options.omitBlockArguments = true;
  options.filter = [&](Operation *op) {
    return scope->isProperAncestor(op) && !op->isAncestor(load);
  };
  SetVector<Operation *> slice;
  (void)getBackwardSlice(load.getOperation(), &slice, options);
  for (Operation *op : slice)
    if (!mapping.contains(op))
      builder.clone(*op, mapping);
  return cast<LoadOp>(builder.clone(*load, mapping));
}

/// The consumer role `role`: T and K as they were, each producer's loads
/// replaced by a pop from its channel, the releases after the last use of
/// any tile. With `turns` (ping-pong), consumer `index` of `count` visits
/// every count-th tile from its index-th, and takes its turn on the tensor
/// cores around its k loop.
void buildConsumer(RoleOp role, TileProgram &program,
                   ArrayRef<SmallVector<LoadOp>> groups,
                   ArrayRef<Value> channels, Value turns, int64_t index,
                   int64_t count) {
  MLIRContext *context = role.getContext();
  Location loc = program.tileLoop.getLoc();
  OpBuilder builder(context);
  builder.setInsertionPointToStart(&role.getBody().front());
  IRMapping mapping;
  auto consumerLoop =
      cast<ForEachTileOp>(builder.clone(*program.tileLoop, mapping));
  Operation *lastUse = nullptr;
  for (auto [group, channel] : llvm::zip(groups, channels)) {
    SmallVector<LoadOp> clonedLoads;
    for (LoadOp load : group)
      clonedLoads.push_back(cast<LoadOp>(mapping.lookup(load.getOperation())));
    OpBuilder kBody(clonedLoads.front());
    SmallVector<Type> tileTypes(clonedLoads.size(), TileType::get(context));
    // At the loads it stands for: a wait on it is read as theirs.
    auto pop =
        PopOp::create(kBody, clonedLoads.front().getLoc(), tileTypes, channel);
    if (!lastUse || lastUse->isBeforeInBlock(pop))
      lastUse = pop;
    Block *kBlock = pop->getBlock();
    for (auto [load, tile] : llvm::zip(clonedLoads, pop.getTiles())) {
      // A use nested deeper (in an scf.if of the k step) counts as the op
      // of the k step that holds it.
      for (Operation *user : load->getUsers())
        if (Operation *step = kBlock->findAncestorOpInBlock(*user);
            step && lastUse->isBeforeInBlock(step))
          lastUse = step;
      load.getTile().replaceAllUsesWith(tile);
      load.erase();
    }
  }
  OpBuilder after(context);
  after.setInsertionPointAfter(lastUse);
  // At the last op that reads the tiles: the release is what ends it.
  for (Value channel : channels)
    ReleaseOp::create(after, lastUse->getLoc(), channel);
  // The loads' index arithmetic is dead in the consumer now. (Only ops:
  // region DCE would also drop block arguments the loops need.)
  consumerLoop.getBody().walk<WalkOrder::PostOrder, ReverseIterator>(
      [&](Operation *op) {
        if (isOpTriviallyDead(op))
          op->erase();
      });
  if (!turns)
    return;

  // Ping-pong: this consumer's tiles, and a turn phase carried from tile
  // to tile. Consumer 0 starts on the phase a fresh barrier counts as
  // complete, so it goes first.
  consumerLoop.setFirstTileAttr(builder.getI64IntegerAttr(index));
  consumerLoop.setTileStepAttr(builder.getI64IntegerAttr(count));
  IRRewriter rewriter(context);
  rewriter.setInsertionPoint(consumerLoop);
  Value firstPhase = arith::ConstantIntOp::create(
      rewriter, loc, rewriter.getI1Type(), index == 0 ? 1 : 0);
  ForEachTileOp loop = appendIterArgs(rewriter, consumerLoop, firstPhase);
  Value phase = loop.getRegionIterArgs().back();
  auto kLoop = cast<scf::ForOp>(
      loop.getBodyBlock().findAncestorOpInBlock(*lastUse->getParentOp()));
  builder.setInsertionPoint(kLoop);
  TakeTurnOp::create(builder, loc, turns, builder.getI64IntegerAttr(index),
                     phase);
  builder.setInsertionPointAfter(kLoop);
  PassTurnOp::create(builder, loc, turns,
                     builder.getI64IntegerAttr((index + 1) % count));
  auto yield = cast<YieldOp>(loop.getBodyBlock().getTerminator());
  builder.setInsertionPoint(yield);
  Value flipped = arith::XOrIOp::create(
      builder, loc, phase,
      arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
  yield->setOperand(yield->getNumOperands() - 1, flipped);
}

/// Which loads each producer role issues: all of them, or with two
/// producers one operand each.
FailureOr<SmallVector<SmallVector<LoadOp>>>
groupLoadsByProducer(TileProgram &program, ScheduleAttr schedule) {
  SmallVector<SmallVector<LoadOp>> groups;
  if (schedule.getProducers() == 1) {
    groups.push_back(program.loads);
    return groups;
  }
  if (program.loads.size() != 2 ||
      program.loads[0].getOperand() == program.loads[1].getOperand())
    return program.tileLoop.emitOpError(
               "producers = 2 splits the loads between two producer warps, "
               "one operand each; this tile program loads ")
           << program.loads.size() << " tiles";
  for (LoadOp load : program.loads)
    groups.push_back({load});
  return groups;
}

/// The producer roles, one per group of loads, at `builder`: they share
/// the warpgroup after the consumers', one warp each.
SmallVector<RoleOp>
createProducerRoles(OpBuilder &builder, Location loc,
                    MutableArrayRef<SmallVector<LoadOp>> groups,
                    ScheduleAttr schedule) {
  MLIRContext *context = builder.getContext();
  int64_t consumers = schedule.getConsumers();
  SmallVector<RoleOp> producers;
  for (auto [i, group] : llvm::enumerate(groups)) {
    std::string name = "producer";
    if (groups.size() > 1)
      name += group.front().getOperand() == Operand::A ? "_a" : "_b";
    auto producer =
        RoleOp::create(builder, loc, builder.getStringAttr(name),
                       RoleKindAttr::get(context, RoleKind::Producer),
                       builder.getDenseI64ArrayAttr({consumers}),
                       builder.getDenseI64ArrayAttr({int64_t(i)}),
                       builder.getI64IntegerAttr(schedule.getProducerRegs()));
    producer.getBody().emplaceBlock();
    producers.push_back(producer);
  }
  return producers;
}

/// The consumer roles at `builder`. Cooperative consumers share one role
/// and split each tile's rows; ping-pong consumers are a role each and
/// take whole tiles in turn.
SmallVector<RoleOp> createConsumerRoles(OpBuilder &builder, Location loc,
                                        ScheduleAttr schedule) {
  MLIRContext *context = builder.getContext();
  int64_t consumers = schedule.getConsumers();
  SmallVector<RoleOp> consumerRoles;
  auto makeConsumer = [&](StringRef name, ArrayRef<int64_t> warpgroups) {
    auto role =
        RoleOp::create(builder, loc, builder.getStringAttr(name),
                       RoleKindAttr::get(context, RoleKind::Consumer),
                       builder.getDenseI64ArrayAttr(warpgroups),
                       builder.getDenseI64ArrayAttr({0, 1, 2, 3}),
                       builder.getI64IntegerAttr(schedule.getConsumerRegs()));
    role.getBody().emplaceBlock();
    consumerRoles.push_back(role);
  };
  if (schedule.getPingpong()) {
    for (int64_t c = 0; c < consumers; ++c)
      makeConsumer(("consumer" + Twine(c)).str(), {c});
  } else {
    SmallVector<int64_t> consumerGroups;
    for (int64_t i = 0; i < consumers; ++i)
      consumerGroups.push_back(i);
    makeConsumer("consumer", consumerGroups);
  }
  return consumerRoles;
}

/// The producer role `producer`: one loop over (tm, tn, k) with its loads
/// and their operands, pushing the tiles into `channel`.
void buildProducer(RoleOp producer, TileProgram &program,
                   ArrayRef<LoadOp> group, Value channel) {
  ForEachTileOp tileLoop = program.tileLoop;
  Location loc = tileLoop.getLoc();
  OpBuilder builder(producer.getContext());
  builder.setInsertionPointToStart(&producer.getBody().front());
  SmallVector<Value> extents(tileLoop.getExtents());
  extents.push_back(program.kExtent);
  auto merged = ForEachTileOp::create(builder, loc, extents, ValueRange());
  IRMapping mapping;
  ValueRange ivs = merged.getInductionVars();
  mapping.map(tileLoop.getInductionVars()[0], ivs[0]);
  mapping.map(tileLoop.getInductionVars()[1], ivs[1]);
  mapping.map(program.kLoop.getInductionVar(), ivs[2]);
  OpBuilder body = OpBuilder::atBlockTerminator(&merged.getBodyBlock());
  SmallVector<Value> tiles;
  for (LoadOp load : group)
    tiles.push_back(cloneWithSlice(body, load, tileLoop, mapping).getTile());
  // At the loads it pushes: their acquire and arrive are read as theirs.
  PushOp::create(body, LoadOp(group.front()).getLoc(), channel, tiles);
}

} // namespace

LogicalResult klx::warpSpecialize(KernelOp kernel) {
  if (kernel.getBodyBlock().getOps<WarpSpecializeOp>().begin() !=
      kernel.getBodyBlock().getOps<WarpSpecializeOp>().end())
    return success(); // already specialized
  ScheduleAttr schedule = kernel.getScheduleAttr();
  if (!schedule)
    return kernel.emitOpError("has no schedule; run klx-materialize-schedule "
                              "first");
  if (!schedule.getWarpSpecialize())
    return success();
  FailureOr<TileProgram> matched = matchTileProgram(kernel);
  if (failed(matched))
    return failure();
  TileProgram &program = *matched;
  ForEachTileOp tileLoop = program.tileLoop;
  Location loc = tileLoop.getLoc();
  MLIRContext *context = kernel.getContext();
  FailureOr<SmallVector<SmallVector<LoadOp>>> groups =
      groupLoadsByProducer(program, schedule);
  if (failed(groups))
    return failure();

  OpBuilder builder(tileLoop);
  SmallVector<Value> channels;
  for (auto &group : *groups)
    channels.push_back(
        ChannelOp::create(builder, loc, ChannelType::get(context),
                          builder.getI64IntegerAttr(int64_t(group.size()))));
  auto roles = WarpSpecializeOp::create(builder, loc);
  roles.getBody().emplaceBlock();
  builder.setInsertionPointToStart(&roles.getBody().front());

  // The consumers come first, warpgroups 0..consumers-1, all four warps of
  // each: nvgpu.warpgroup.mma.store places each warp's rows by its index in
  // the CTA, so consumer c must be warpgroup c. The producers share the
  // last warpgroup, one warp each; one thread of it issues the copies.
  SmallVector<RoleOp> producers =
      createProducerRoles(builder, loc, *groups, schedule);
  SmallVector<RoleOp> consumerRoles =
      createConsumerRoles(builder, loc, schedule);
  for (auto [producer, group, channel] :
       llvm::zip(producers, *groups, channels))
    buildProducer(producer, program, group, channel);

  Value turns;
  if (schedule.getPingpong()) {
    OpBuilder before(roles);
    turns = TurnsOp::create(before, loc, TurnsType::get(context),
                            before.getI64IntegerAttr(schedule.getConsumers()));
  }
  for (auto [c, role] : llvm::enumerate(consumerRoles))
    buildConsumer(role, program, *groups, channels, turns, int64_t(c),
                  int64_t(consumerRoles.size()));

  tileLoop.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Pass definition
//===----------------------------------------------------------------------===//

namespace {
struct KlxWarpSpecializePass final
    : klx::impl::KlxWarpSpecializePassBase<KlxWarpSpecializePass> {
  void runOnOperation() override {
    if (failed(forEachKernel(getOperation(), warpSpecialize)))
      signalPassFailure();
  }
};
} // namespace
