//===- RolesAndBarriers.cpp - klx roles and pipelines to nvgpu ------------===//
//
// The roles become branches on the warpgroup (and, for several producers,
// on the warp); the pipelines become mbarrier groups in shared memory.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "klx/Analysis/RoleTree/RoleTree.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

int64_t nvgpu_lowering::emptyArrivals(const Lowering &l, PipelineOp pipeline) {
  int64_t size = l.schedule.clusterSize();
  if (size == 1)
    return pipeline.getArrivals();
  // Consumers are whole warpgroups (lowerRoles refuses others), each
  // releasing 128 arrivals in klx's count; in a cluster each sends one
  // from lane 0 of warps 0 .. size-1 (size <= 4, checkCluster).
  assert(pipeline.getArrivals() % 128 == 0 && size <= 4 &&
         "a cluster's release counts whole consumer warpgroups");
  return pipeline.getArrivals() / 128 * size;
}

void nvgpu_lowering::lowerPipelines(Lowering &l,
                                    MutableArrayRef<PipelineOp> pipelines,
                                    TurnsOp turns) {
  OpBuilder &b = l.b;
  Location loc = pipelines.front().getLoc();
  b.setInsertionPoint(pipelines.front());
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  l.smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, l.smem);
  Value guarded = l.add(loc, base, l.index(loc, 64));
  Value misaligned =
      arith::RemUIOp::create(b, loc, guarded, l.index(loc, kSwizzleAlignment));
  Value gap = arith::SubIOp::create(b, loc, l.index(loc, kSwizzleAlignment),
                                    misaligned);
  Value align =
      arith::RemUIOp::create(b, loc, gap, l.index(loc, kSwizzleAlignment));
  l.stagesBase = l.add(loc, align, l.index(loc, 64));

  // Both operands of stage i sit together whatever pipeline copies them,
  // so the pipelines share the stage layout and count.
  int64_t stages = pipelines.front().getStages();
  l.barrierType =
      nvgpu::MBarrierGroupType::get(b.getContext(), workgroup, stages);
  auto create = [&](llvm::StringRef name) {
    Value group = nvgpu::MBarrierCreateOp::create(b, loc, l.barrierType);
    group.getDefiningOp()->setAttr(kBarrierNameAttrName, b.getStringAttr(name));
    return group;
  };
  for (auto [i, pipeline] : llvm::enumerate(pipelines)) {
    // The names the protocol model and the role tree give them.
    PipelineBarrierNames names = pipelineBarrierNames(pipelines, i);
    Lowering::Barriers &own = l.barriers[pipeline.getPipeline()];
    own.txBytes = pipeline.getTxBytes();
    own.index = int64_t(i);
    if (!pipeline.getFullOf())
      own.full = create(names.full);
    own.empty = create(names.empty);
  }
  for (PipelineOp pipeline : pipelines)
    if (Value other = pipeline.getFullOf())
      l.barriers[pipeline.getPipeline()].full = l.barriers[other].full;
  int64_t consumers = turns ? turns.getConsumers() : 0;
  if (turns) {
    l.turns = nvgpu::MBarrierCreateOp::create(
        b, loc,
        nvgpu::MBarrierGroupType::get(b.getContext(), workgroup, consumers));
    l.turns.getDefiningOp()->setAttr(kBarrierNameAttrName,
                                     b.getStringAttr("turn"));
  }

  // One thread initialises the barriers and prefetches the tensor maps;
  // everyone waits for it. A full barrier expects one arrival per phase:
  // its producer's arrive.expect_tx (also when another pipeline shares it).
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      l.threadId, l.index(loc, 0));
  auto init = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  b.setInsertionPointToStart(&init.getThenRegion().front());
  for (PipelineOp pipeline : pipelines) {
    const Lowering::Barriers &own = l.barriers[pipeline.getPipeline()];
    for (int64_t i = 0; i < stages; ++i) {
      if (!pipeline.getFullOf())
        nvgpu::MBarrierInitOp::create(b, loc, own.full, l.index(loc, 1),
                                      l.index(loc, i), Value());
      nvgpu::MBarrierInitOp::create(b, loc, own.empty,
                                    l.index(loc, emptyArrivals(l, pipeline)),
                                    l.index(loc, i), Value());
    }
  }
  // A turn passes when the whole warpgroup before has arrived.
  for (int64_t c = 0; c < consumers; ++c)
    nvgpu::MBarrierInitOp::create(b, loc, l.turns, l.index(loc, 128),
                                  l.index(loc, c), Value());
  for (Value desc : {l.descA, l.descB, l.descD})
    if (desc)
      nvgpu::TmaPrefetchOp::create(b, loc, desc, Value());
  NVVM::FenceMbarrierInitOp::create(b, loc);
  b.setInsertionPointAfter(init);
  if (l.schedule.clusterSize() > 1)
    syncClusterAfterInit(l, loc);
  else
    gpu::BarrierOp::create(b, loc);
}

void nvgpu_lowering::lowerAndRecordRelease(Lowering &l,
                                           ConsumerReleaseOp release) {
  OpBuilder &b = l.b;
  Location loc = release.getLoc();
  b.setInsertionPoint(release);
  const Lowering::Barriers &barriers = l.barriers[release.getPipeline()];
  bool held = l.releasesHeld.contains(release);
  if (held)
    recordEvent(l, loc, TraceEventKind::ReleaseEmpty, release.getIndex(), true,
                barriers.index, Hold::StampLate);
  if (l.schedule.clusterSize() > 1)
    releaseAcrossCluster(l, loc, barriers.empty, release.getIndex());
  else
    nvgpu::MBarrierArriveOp::create(b, loc, barriers.empty, release.getIndex());
  if (!held)
    recordEvent(l, loc, TraceEventKind::ReleaseEmpty, release.getIndex(), true,
                barriers.index);
  release.erase();
}

void nvgpu_lowering::syncClusterAfterInit(Lowering &l, Location loc) {
  NVVM::ClusterArriveOp::create(l.b, loc, l.b.getUnitAttr());
  NVVM::ClusterWaitOp::create(l.b, loc, l.b.getUnitAttr());
}

void nvgpu_lowering::syncClusterAtEnd(gpu::GPUFuncOp func) {
  func.walk([](gpu::ReturnOp ret) {
    OpBuilder b(ret);
    NVVM::ClusterArriveOp::create(b, ret.getLoc(), b.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, ret.getLoc(), b.getUnitAttr());
  });
}

void nvgpu_lowering::releaseAcrossCluster(Lowering &l, Location loc,
                                          Value empty, Value index) {
  OpBuilder &b = l.b;
  MLIRContext *context = b.getContext();
  // Lane 0 of warp w < size in the warpgroup arrives on CTA w's barrier.
  Value inGroup = arith::RemUIOp::create(b, loc, l.threadId, l.index(loc, 128));
  Value warp = arith::DivUIOp::create(b, loc, inGroup, l.index(loc, 32));
  Value lane = arith::RemUIOp::create(b, loc, inGroup, l.index(loc, 32));
  Value signals = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                            l.index(loc, 0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, warp,
                            l.index(loc, l.schedule.clusterSize())));
  auto signal = scf::IfOp::create(b, loc, signals, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&signal.getThenRegion().front());
  Value target = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), warp);
  Value address =
      nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), empty, index);
  auto shared = LLVM::LLVMPointerType::get(
      context, unsigned(NVVM::NVVMMemorySpace::Shared));
  auto sharedCluster = LLVM::LLVMPointerType::get(
      context, unsigned(NVVM::NVVMMemorySpace::SharedCluster));
  Value local = LLVM::IntToPtrOp::create(b, loc, shared, address);
  Value remote = NVVM::MapaOp::create(b, loc, sharedCluster, local, target);
  // Release at CTA scope, as a CTA's own release: the stage's reads were
  // wgmma's, waited for; the peer's producer only needs the arrival. A
  // release at cluster scope fenced the signalling warps at every k step.
  NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                 NVVM::MemScopeKind::CTA,
                                 /*relaxed=*/false);
}

namespace {

/// A warp-specialized kernel's roles, as klx-to-nvgpu lowers them: one or
/// more producers of one warp each on the last warpgroup, and consumers
/// on warpgroups 0..consumers-1 in order.
struct LoweredRoles {
  SmallVector<RoleOp> producers, consumers;
};

FailureOr<LoweredRoles> lowerableRoles(Lowering &l, WarpSpecializeOp roles) {
  LoweredRoles out;
  int64_t consumers = l.schedule.getConsumers();
  SmallVector<int64_t> consumerGroups;
  for (RoleOp role : roles.getBody().front().getOps<RoleOp>()) {
    if (role.getKind() == RoleKind::Consumer) {
      if (role.getWarps() != ArrayRef<int64_t>{0, 1, 2, 3})
        return role.emitOpError("klx-to-nvgpu lowers consumers that use all "
                                "four warps of their warpgroups (wgmma is a "
                                "warpgroup instruction)");
      out.consumers.push_back(role);
      consumerGroups.append(role.getWarpgroups().begin(),
                            role.getWarpgroups().end());
      continue;
    }
    if (role.getKind() != RoleKind::Producer ||
        role.getWarpgroups().size() != 1 ||
        role.getWarpgroups()[0] != consumers || role.getWarps().size() != 1)
      return role.emitOpError("klx-to-nvgpu lowers producer roles of one "
                              "warp each on the last warpgroup, and one "
                              "consumer role");
    // The verifier makes roles that share a warpgroup agree on regs.
    out.producers.push_back(role);
  }
  bool inOrder = consumerGroups.size() == size_t(consumers);
  for (size_t i = 0; inOrder && i < consumerGroups.size(); ++i)
    inOrder = consumerGroups[i] == int64_t(i);
  if (out.producers.empty() || out.consumers.empty() || !inOrder)
    return roles.emitOpError("klx-to-nvgpu lowers producer roles on the "
                             "last warpgroup and one consumer role on "
                             "warpgroups 0..consumers-1 (the epilogue's "
                             "nvgpu.warpgroup.mma.store places rows by the "
                             "warp's index in the CTA)");
  return out;
}

/// `role`'s setmaxnreg: down or up from the cap at entry (`.maxntid` and
/// `.minnctapersm 1` set it).
void setRegisters(Lowering &l, RoleOp role) {
  int64_t entry = registerCapAtEntry(unsigned(l.schedule.threads()), 1);
  auto action = int64_t(role.getRegs()) < entry
                    ? NVVM::SetMaxRegisterAction::decrease
                    : NVVM::SetMaxRegisterAction::increase;
  NVVM::SetMaxRegisterOp::create(l.b, role.getLoc(), uint32_t(role.getRegs()),
                                 action);
}

Value equals(Lowering &l, Location loc, Value x, int64_t v) {
  return arith::CmpIOp::create(l.b, loc, arith::CmpIPredicate::eq, x,
                               l.index(loc, v));
}

/// Moves `role`'s ops to the end of `into`, before its terminator.
void moveBody(RoleOp role, Block &into) {
  into.getOperations().splice(std::prev(into.end()),
                              role.getBody().front().getOperations());
}

/// Producers (the builder at the start of their branch): one elected
/// thread of each producer's warp runs its body.
void lowerProducers(Lowering &l, Location loc, ArrayRef<RoleOp> producers) {
  OpBuilder &b = l.b;
  setRegisters(l, producers.front());
  Value inGroup = arith::RemUIOp::create(b, loc, l.threadId, l.index(loc, 128));
  if (producers.size() == 1) {
    // Lane 0 of the role's warp.
    RoleOp producer = producers.front();
    int64_t first = 32 * producer.getWarps()[0];
    auto elected = scf::IfOp::create(b, loc, equals(l, loc, inGroup, first),
                                     /*withElse=*/false);
    moveBody(producers.front(), elected.getThenRegion().front());
    return;
  }
  // Several producers share the producer warpgroup, one warp each.
  Value warp = arith::DivUIOp::create(b, loc, inGroup, l.index(loc, 32));
  Value lane = arith::RemUIOp::create(b, loc, inGroup, l.index(loc, 32));
  for (RoleOp producer : producers) {
    auto ownWarp =
        scf::IfOp::create(b, loc, equals(l, loc, warp, producer.getWarps()[0]),
                          /*withElse=*/false);
    ownWarp->setAttr(kRoleNamesAttrName,
                     b.getStrArrayAttr({producer.getName(), ""}));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ownWarp.getThenRegion().front());
    auto elected = scf::IfOp::create(b, loc, equals(l, loc, lane, 0),
                                     /*withElse=*/false);
    moveBody(producer, elected.getThenRegion().front());
  }
}

/// Consumers (the builder at the start of `branch`, their block): one
/// setmaxnreg for all of them; ping-pong consumers then branch on their
/// own warpgroup.
void lowerConsumers(Lowering &l, Location loc, ArrayRef<RoleOp> consumers,
                    Block &branch) {
  OpBuilder &b = l.b;
  setRegisters(l, consumers.front());
  if (consumers.size() == 1)
    return moveBody(consumers.front(), branch);
  for (RoleOp consumer : consumers) {
    auto own = scf::IfOp::create(
        b, loc, equals(l, loc, l.warpgroup, consumer.getWarpgroups()[0]),
        /*withElse=*/false);
    own->setAttr(kRoleNamesAttrName,
                 b.getStrArrayAttr({consumer.getName(), ""}));
    moveBody(consumer, own.getThenRegion().front());
  }
}

} // namespace

LogicalResult nvgpu_lowering::lowerRoles(Lowering &l, WarpSpecializeOp roles) {
  FailureOr<LoweredRoles> split = lowerableRoles(l, roles);
  if (failed(split))
    return failure();
  OpBuilder &b = l.b;
  Location loc = roles.getLoc();
  b.setInsertionPoint(roles);
  auto branch = scf::IfOp::create(
      b, loc, equals(l, loc, l.warpgroup, l.schedule.getConsumers()),
      /*withElse=*/true);
  // The role names outlive the klx ops, for the role tree of later passes.
  auto nameOf = [](ArrayRef<RoleOp> roles, const char *several) {
    RoleOp first = roles.front();
    return roles.size() == 1 ? first.getName().str() : std::string(several);
  };
  branch->setAttr(kRoleNamesAttrName,
                  b.getStrArrayAttr({nameOf(split->producers, "producers"),
                                     nameOf(split->consumers, "consumers")}));
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  lowerProducers(l, loc, split->producers);
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  lowerConsumers(l, loc, split->consumers, branch.getElseRegion().front());
  roles.erase();
  return success();
}
