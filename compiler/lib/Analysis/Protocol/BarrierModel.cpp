//===- BarrierModel.cpp - The mbarrier protocol of a klx kernel -----------===//
//
// The barriers are the ones klx-to-nvgpu creates (RolesAndBarriers.cpp):
// per pipeline a full group initialised for one arrival (shared when a
// pipeline is `full_of` another) and an empty group for the pipeline's
// arrivals; with ping-pong a turn barrier per consumer for 128. A role's
// ops in its k loop (or a producer's merged tile x k loop) run every k
// step; ops in a tile loop outside it (the turns) once per tile.
//
// A cluster of S CTAs is S copies of the CTA's barriers, buffers and roles
// ("producer (CTA 1)"), run in step, linked where klx-to-nvgpu links them:
// a copy of the operand the CTAs share lands a 1/S share in every CTA's
// stage (multicast), and a consumer's release arrives 1/S of its arrivals
// on every CTA's empty barrier.
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
  /// Each operand's rings of stage buffers (the first buffer's index of
  /// each): one, or in a cluster one per CTA's share of a shared operand.
  SmallVector<int, 4> ringsA, ringsB;
  int64_t stages = 1;
};

/// Every CTA's groups (one without a cluster), and which one is modelled.
struct Cluster {
  std::vector<Groups> ctas;
  size_t cta = 0;
  const Groups &own() const { return ctas[cta]; }
  bool clustered() const { return ctas.size() > 1; }
  /// " (CTA 1)" in a cluster of `size`, else nothing.
  static std::string suffix(size_t which, int64_t size) {
    return size > 1 ? llvm::formatv(" (CTA {0})", which).str() : "";
  }
  std::string suffix(size_t which) const {
    return suffix(which, int64_t(ctas.size()));
  }
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
SmallVector<SimOp, 4> stepOps(Operation *nested, const Cluster &cluster,
                              ScheduleAttr schedule, int releaseArrivals,
                              unsigned line) {
  const Groups &g = cluster.own();
  int64_t size = int64_t(cluster.ctas.size());
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
    bool isA = copy.getOperand() == Operand::A;
    op.kind = OpKind::Copy;
    op.bytes = schedule.tileBytes(copy.getOperand());
    op.label = isA ? "copy a" : "copy b";
    op.bufferSlots = g.stages;
    bool shared = isA ? schedule.getClusterN() > 1 : schedule.getClusterM() > 1;
    if (!shared || !cluster.clustered()) {
      op.barrier = g.full.lookup(copy.getPipeline());
      op.buffer = (isA ? g.ringsA : g.ringsB).front();
      return {op};
    }
    // This CTA's share, multicast: the same bytes land in its share's
    // ring of every CTA, each arriving on that CTA's full barrier.
    SmallVector<SimOp, 4> shares;
    op.bytes /= size;
    for (const auto &[to, other] : llvm::enumerate(cluster.ctas)) {
      SimOp share = op;
      share.barrier = other.full.lookup(copy.getPipeline());
      share.buffer = (isA ? other.ringsA : other.ringsB)[cluster.cta];
      share.multicast = !shares.empty();
      share.label += llvm::formatv(" share {0} to CTA {1}", cluster.cta, to);
      shares.push_back(share);
    }
    return shares;
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
    op.reads.assign(g.ringsA.begin(), g.ringsA.end());
    op.reads.insert(op.reads.end(), g.ringsB.begin(), g.ringsB.end());
    op.bufferSlots = g.stages;
    return {op};
  }
  if (auto release = dyn_cast<ConsumerReleaseOp>(nested)) {
    op.kind = OpKind::Arrive;
    op.label = "arrive empty";
    op.arrivals = int(releaseArrivals / size);
    // In a cluster each CTA's empty barrier hears a share from every CTA.
    SmallVector<SimOp, 4> arrives;
    for (const auto &[to, other] : llvm::enumerate(cluster.ctas)) {
      SimOp arrive = op;
      arrive.barrier = other.empty.lookup(release.getPipeline());
      arrive.label += cluster.suffix(to);
      arrives.push_back(arrive);
    }
    return arrives;
  }
  return {};
}

sim::RoleModel modelRole(RoleOp role, const Cluster &cluster,
                         ScheduleAttr schedule, int64_t tiles, int64_t kSteps,
                         int64_t consumers,
                         const std::function<unsigned(Operation *)> &lineOf) {
  const Groups &g = cluster.own();
  sim::RoleModel model;
  model.name = role.getName().str() + cluster.suffix(cluster.cta);
  model.sm = int(cluster.cta);
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
    for (SimOp op : stepOps(nested, cluster, schedule, threads, lineOf(nested)))
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
  Cluster alone{{g}, 0};
  assert(g.ringsA.size() == 1 && g.ringsB.size() == 1 &&
         "a cluster needs warp-specialized roles (checkCluster)");
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
      for (SimOp op : stepOps(nested, alone, schedule, threads, lineOf(nested)))
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
         stepOps(&nested, alone, schedule, threads, lineOf(&nested)))
      model.body.push_back(op);
  }
  return model;
}

/// One CTA's barriers (named with `suffix`) and stage buffers (in
/// shared-memory space `space`, so CTAs never overlap) added to `model`.
Groups addCtaGroups(sim::ProtocolModel &model, ScheduleAttr schedule,
                    MutableArrayRef<PipelineOp> pipelines, int64_t consumers,
                    const std::string &suffix, int64_t space) {
  Groups g;
  int64_t stages = pipelines.front().getStages();
  g.stages = stages;
  // The stage buffers of A and B: a ring each, as the pipelines hold
  // them (copies write them, MMAs read them); the operand a cluster's CTAs
  // share is one ring per CTA's share.
  for (auto [which, rings] :
       {std::make_pair("a", &g.ringsA), std::make_pair("b", &g.ringsB)}) {
    bool isA = *which == 'a';
    int64_t shares = isA ? schedule.getClusterN() : schedule.getClusterM();
    int64_t bytes = schedule.tileBytes(isA ? Operand::A : Operand::B) / shares;
    for (int64_t share = 0; share < shares; ++share) {
      rings->push_back(int(model.buffers.size()));
      std::string part =
          shares > 1 ? llvm::formatv(" share {0}", share).str() : "";
      for (int64_t s = 0; s < stages; ++s)
        model.buffers.push_back(
            {llvm::formatv("{0}[{1}]{2}{3}", which, s, part, suffix).str(),
             int(space), int64_t(model.buffers.size()) << 20, bytes});
    }
  }
  for (auto [i, p] : llvm::enumerate(pipelines)) {
    PipelineBarrierNames names = pipelineBarrierNames(pipelines, i);
    if (!p.getFullOf()) {
      g.full[p.getPipeline()] = int(model.barriers.size());
      model.barriers.push_back({names.full + suffix, int(stages), 1});
    }
    g.empty[p.getPipeline()] = int(model.barriers.size());
    model.barriers.push_back(
        {names.empty + suffix, int(stages), int(p.getArrivals())});
  }
  for (PipelineOp p : pipelines)
    if (Value other = p.getFullOf())
      g.full[p.getPipeline()] = g.full.lookup(other);
  if (consumers > 0) {
    g.turn = int(model.barriers.size());
    model.barriers.push_back({"turn" + suffix, int(consumers), 128});
  }
  return g;
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
    model.tiles = size.tiles;
    model.kSteps = kSteps;
    model.tileElements = schedule.getTileM() * schedule.getTileN();
    // One CTA's groups and buffers per CTA of the cluster, in order.
    Cluster cluster;
    int64_t ctas = schedule.clusterSize();
    int64_t consumers = 0;
    kernel.walk([&](TurnsOp turns) { consumers = turns.getConsumers(); });
    for (int64_t cta = 0; cta < ctas; ++cta)
      cluster.ctas.push_back(addCtaGroups(model, schedule, pipelines, consumers,
                                          Cluster::suffix(size_t(cta), ctas),
                                          cta));
    for (cluster.cta = 0; cluster.cta < cluster.ctas.size(); ++cluster.cta) {
      if (roles)
        for (RoleOp role : roles.getBody().front().getOps<RoleOp>())
          model.roles.push_back(modelRole(role, cluster, schedule, size.tiles,
                                          kSteps, consumers, lineOf));
      else
        model.roles.push_back(modelWithoutRoles(kernel, cluster.own(), schedule,
                                                size.tiles, kSteps, lineOf));
    }
    if (cluster.clustered())
      model.assumptions = llvm::formatv("a cluster of {0} CTAs that take "
                                        "their tiles in step",
                                        ctas)
                              .str();
    models.push_back(std::move(model));
  });
  return models;
}
