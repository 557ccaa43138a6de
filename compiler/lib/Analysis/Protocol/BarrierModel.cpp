//===- BarrierModel.cpp - The mbarrier protocol of a klx kernel -----------===//
//
// The barriers are the ones klx-to-nvgpu creates (RolesAndBarriers.cpp):
// per pipeline a full group initialised for one arrival (shared when a
// pipeline is `full_of` another) and an empty group for the pipeline's
// arrivals; with ping-pong a turn barrier per consumer for 128. A role's
// ops in its k loop (or a producer's merged tile x k loop) run every k
// step; ops in a tile loop outside it (the turns) once per tile.
//
//===----------------------------------------------------------------------===//

#include "klx/Analysis/Protocol/BarrierModel.h"

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace klx;
using SimOp = klx::sim::Op;
using klx::sim::OpKind;

namespace {

struct Groups {
  llvm::DenseMap<Value, int> full, empty;
  int turn = -1;
  /// Each operand's ring of stage buffers: the first buffer's index.
  int bufferA = -1, bufferB = -1;
  int64_t stages = 1;
};

/// The tile loop around a role's ops, for ping-pong's first_tile/tile_step.
ForEachTileOp tileLoopOf(RoleOp role) {
  ForEachTileOp found;
  role.walk([&](ForEachTileOp loop) {
    if (!found)
      found = loop;
  });
  return found;
}

/// true when a take_turn's phase starts true (it passes on a fresh
/// barrier): the tile loop's iter_arg initialised with `true`.
bool startsPassing(TakeTurnOp take) {
  auto arg = dyn_cast<BlockArgument>(take.getPhase());
  if (!arg)
    return false;
  auto loop = dyn_cast<ForEachTileOp>(arg.getOwner()->getParentOp());
  if (!loop)
    return false;
  unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
  if (index >= loop.getInits().size())
    return false;
  auto constant = loop.getInits()[index].getDefiningOp<arith::ConstantOp>();
  auto value = constant ? dyn_cast<BoolAttr>(constant.getValue()) : nullptr;
  if (auto integer =
          constant ? dyn_cast<IntegerAttr>(constant.getValue()) : nullptr)
    return integer.getInt() != 0;
  return value && value.getValue();
}

/// The simulator's ops for one klx pipeline op of a k step (none for other
/// ops): producer_acquire is a wait on empty and arrive.expect_tx on full,
/// a copy delivers its tile's bytes to full, consumer_wait waits on full,
/// an MMA computes, consumer_release arrives `releaseArrivals` on empty.
SmallVector<SimOp, 2> stepOps(Operation *nested, const Groups &g,
                              ScheduleAttr schedule, int releaseArrivals,
                              unsigned line) {
  SimOp op;
  op.line = line;
  if (auto acquire = dyn_cast<ProducerAcquireOp>(nested)) {
    op.kind = OpKind::Wait;
    op.barrier = g.empty.lookup(acquire.getPipeline());
    op.previousPhase = true;
    op.label = "wait empty";
    SimOp announce = op;
    announce.kind = OpKind::ArriveExpectTx;
    announce.barrier = g.full.lookup(acquire.getPipeline());
    announce.previousPhase = false;
    announce.bytes =
        acquire.getPipeline().getDefiningOp<PipelineOp>().getTxBytes();
    announce.label = "arrive.expect_tx full";
    return {op, announce};
  }
  if (auto copy = dyn_cast<CopyOp>(nested)) {
    op.kind = OpKind::Copy;
    op.barrier = g.full.lookup(copy.getPipeline());
    op.bytes = schedule.tileBytes(copy.getOperand());
    op.label = copy.getOperand() == Operand::A ? "copy a" : "copy b";
    op.buffer = copy.getOperand() == Operand::A ? g.bufferA : g.bufferB;
    op.bufferSlots = g.stages;
    return {op};
  }
  if (auto wait = dyn_cast<ConsumerWaitOp>(nested)) {
    op.kind = OpKind::Wait;
    op.barrier = g.full.lookup(wait.getPipeline());
    op.label = "wait full";
    return {op};
  }
  if (isa<MmaOp>(nested)) {
    // The stage it reads is the one its k step's consumer_wait waited for:
    // klx-to-nvgpu defers the release until the wgmma reading it is done.
    op.kind = OpKind::Compute;
    op.label = "mma";
    op.reads = {g.bufferA, g.bufferB};
    op.bufferSlots = g.stages;
    return {op};
  }
  if (auto release = dyn_cast<ConsumerReleaseOp>(nested)) {
    op.kind = OpKind::Arrive;
    op.barrier = g.empty.lookup(release.getPipeline());
    op.arrivals = releaseArrivals;
    op.label = "arrive empty";
    return {op};
  }
  return {};
}

sim::RoleModel modelRole(RoleOp role, const Groups &g, ScheduleAttr schedule,
                         int64_t tiles, int64_t kSteps, int64_t consumers,
                         const std::function<unsigned(Operation *)> &lineOf) {
  sim::RoleModel model;
  model.name = role.getName().str();
  int threads = int(role.getWarpgroups().size() * role.getWarps().size() * 32);
  ForEachTileOp tileLoop = tileLoopOf(role);
  int64_t tileStep = tileLoop ? tileLoop.tileStep() : 1;
  int64_t firstTile = tileLoop ? tileLoop.firstTile() : 0;
  model.steps = (tiles / tileStep) * kSteps;
  auto perStep = [&](SimOp op) {
    if (tileStep > 1) { // this role's runs of k steps in the shared ring
      op.runLength = kSteps;
      op.runStride = tileStep * kSteps;
      op.ringOffset = firstTile * kSteps;
    }
    return op;
  };
  role.walk([&](Operation *nested) {
    for (SimOp op : stepOps(nested, g, schedule, threads, lineOf(nested)))
      model.body.push_back(perStep(op));
    SimOp op;
    op.line = lineOf(nested);
    if (auto take = dyn_cast<TakeTurnOp>(nested)) {
      op.kind = OpKind::Wait;
      op.barrier = g.turn;
      op.period = kSteps;
      op.at = 0;
      op.ringStride = consumers;
      op.ringOffset = int64_t(take.getConsumer());
      op.previousPhase = startsPassing(take);
      op.label = "take turn";
      model.body.push_back(op);
    } else if (auto pass = dyn_cast<PassTurnOp>(nested)) {
      op.kind = OpKind::Arrive;
      op.barrier = g.turn;
      op.period = kSteps;
      op.at = kSteps - 1;
      op.ringStride = consumers;
      op.ringOffset = int64_t(pass.getConsumer());
      op.arrivals = 128;
      op.label = "pass turn";
      model.body.push_back(op);
    }
  });
  return model;
}

/// warp_specialize = false (SoftwarePipeline.cpp): one program that all
/// threads run, thread 0 also issuing the copies. Its order is thread 0's:
/// per tile the first `ahead` k steps' copies, then per k step wait, MMA,
/// release and the copies `ahead` steps on while there are any.
sim::RoleModel
modelWithoutRoles(KernelOp kernel, const Groups &g, ScheduleAttr schedule,
                  int64_t tiles, int64_t kSteps,
                  const std::function<unsigned(Operation *)> &lineOf) {
  sim::RoleModel model;
  model.name = "all threads";
  model.steps = tiles * kSteps;
  int64_t ahead =
      std::min<int64_t>(std::max<int64_t>(1, schedule.getStages() - 1), kSteps);
  int threads = int(schedule.threads());
  scf::ForOp kLoop;
  kernel.walk([&](ConsumerWaitOp wait) {
    kLoop = wait->getParentOfType<scf::ForOp>();
  });
  // The producer side of one k step at ring position `offset` past the
  // step, or (prologue) at tile start + j.
  auto producerOps = [&](Operation *root, auto place) {
    root->walk([&](Operation *nested) {
      for (SimOp op : stepOps(nested, g, schedule, threads, lineOf(nested)))
        model.body.push_back(place(op));
    });
  };
  // The prologue loop: the first copy group outside the k loop.
  Operation *prologue = nullptr;
  kernel.walk([&](ProducerAcquireOp acquire) {
    if (!prologue && (!kLoop || !kLoop->isAncestor(acquire)))
      prologue = acquire->getParentOfType<scf::ForOp>();
  });
  if (prologue)
    for (int64_t j = 0; j < ahead; ++j)
      producerOps(prologue, [&](SimOp op) {
        op.period = kSteps;
        op.at = 0;
        op.ringStride = kSteps;
        op.ringOffset = j;
        return op;
      });
  if (!kLoop)
    return model;
  for (Operation &nested : *kLoop.getBody()) {
    if (isa<scf::IfOp>(nested)) {
      producerOps(&nested, [&](SimOp op) {
        op.ringOffset = ahead;
        op.guardPeriod = kSteps;
        op.guardBelow = kSteps - ahead;
        return op;
      });
      continue;
    }
    for (const SimOp &op :
         stepOps(&nested, g, schedule, threads, lineOf(&nested)))
      model.body.push_back(op);
  }
  return model;
}

} // namespace

std::vector<sim::ProtocolModel>
klx::buildProtocolModels(Operation *op, const ModelSize &size,
                         std::vector<std::string> &notModelled,
                         const std::function<unsigned(Operation *)> &lineOf) {
  std::vector<sim::ProtocolModel> models;
  op->walk([&](KernelOp kernel) {
    ScheduleAttr schedule = kernel.getScheduleAttr();
    SmallVector<PipelineOp> pipelines;
    kernel.walk([&](PipelineOp p) { pipelines.push_back(p); });
    bool tileLoops = false;
    kernel.walk([&](ForEachTileOp) { tileLoops = true; });
    // Before klx-circular-buffer there is no protocol yet; after
    // klx-persistent the tile loops that say who takes which tiles are gone.
    if (!schedule || pipelines.empty() || !tileLoops)
      return;
    WarpSpecializeOp roles;
    kernel.walk([&](WarpSpecializeOp w) { roles = w; });
    sim::ProtocolModel model;
    model.kernel = kernel.getSymName().str();
    int64_t stages = pipelines.front().getStages();
    int64_t kSteps = size.kSteps > 0 ? size.kSteps : 2 * stages + 1;
    model.bound = llvm::formatv("{0} tile{1} x {2} k steps", size.tiles,
                                size.tiles == 1 ? "" : "s", kSteps)
                      .str();
    Groups g;
    g.stages = stages;
    // The stage buffers of A and B: one ring each, as the pipelines hold
    // them (copies write them, MMAs read them).
    for (auto [which, base] :
         {std::make_pair("a", &g.bufferA), std::make_pair("b", &g.bufferB)}) {
      *base = int(model.buffers.size());
      for (int64_t s = 0; s < stages; ++s)
        model.buffers.push_back(
            {llvm::formatv("{0}[{1}]", which, s).str(), 0,
             int64_t(model.buffers.size()) << 20,
             schedule.tileBytes(*which == 'a' ? Operand::A : Operand::B)});
    }
    bool several = pipelines.size() > 1;
    bool sharedFull = llvm::any_of(
        pipelines, [](PipelineOp p) { return bool(p.getFullOf()); });
    for (auto [i, p] : llvm::enumerate(pipelines)) {
      std::string suffix = several ? operandSuffix(p.getPipeline()) : "";
      if (several && suffix.empty())
        suffix = std::to_string(i);
      if (!p.getFullOf()) {
        g.full[p.getPipeline()] = int(model.barriers.size());
        model.barriers.push_back(
            {sharedFull ? "full" : "full" + suffix, int(stages), 1});
      }
      g.empty[p.getPipeline()] = int(model.barriers.size());
      model.barriers.push_back(
          {"empty" + suffix, int(stages), int(p.getArrivals())});
    }
    for (PipelineOp p : pipelines)
      if (Value other = p.getFullOf())
        g.full[p.getPipeline()] = g.full.lookup(other);
    int64_t consumers = 0;
    kernel.walk([&](TurnsOp turns) {
      consumers = turns.getConsumers();
      g.turn = int(model.barriers.size());
      model.barriers.push_back({"turn", int(consumers), 128});
    });
    if (roles)
      for (RoleOp role : roles.getBody().front().getOps<RoleOp>())
        model.roles.push_back(modelRole(role, g, schedule, size.tiles, kSteps,
                                        consumers, lineOf));
    else
      model.roles.push_back(
          modelWithoutRoles(kernel, g, schedule, size.tiles, kSteps, lineOf));
    models.push_back(std::move(model));
  });
  return models;
}
