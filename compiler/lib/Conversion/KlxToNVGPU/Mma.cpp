//===- Mma.cpp - klx.mma as wgmma, and its issue recorded -----------------===//
//
// A consumer's klx.mma becomes one nvgpu.warpgroup.mma over its rows of the
// A stage and the whole B stage, through wgmma descriptors of the two
// shared-memory views; with a trace, the MMA's issue is recorded too.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

/// The wgmma descriptors of the MMA's A and B stage tiles, at the
/// builder's insertion point.
std::pair<Value, Value> mmaDescriptors(Lowering &l, MmaOp mma) {
  OpBuilder &b = l.b;
  Location loc = mma.getLoc();
  ScheduleAttr s = l.schedule;
  auto aTile = mma.getA().getDefiningOp<StageTileOp>();
  auto bTile = mma.getB().getDefiningOp<StageTileOp>();
  int64_t rows = s.rowsPerConsumer();
  int64_t elementBytes = s.getDtype().getIntOrFloatBitWidth() / 8;
  // This consumer's rows of the A tile (consumer c is warpgroup c; a
  // ping-pong consumer has them all), and the whole B tile.
  Value stage = l.stageOffset(loc, aTile.getIndex());
  Value aOffset =
      s.getPingpong()
          ? stage
          : l.add(loc, stage,
                  l.mul(loc, l.warpgroup, rows * s.getTileK() * elementBytes));
  Value aView = l.view(loc, aOffset, {rows, s.getTileK()});
  Value bOffset = l.add(loc, l.stageOffset(loc, bTile.getIndex()),
                        l.index(loc, s.tileBytes(Operand::A)));
  Value bView = l.view(loc, bOffset, {s.getTileK(), s.getTileN()});
  auto shared3 = IntegerAttr::get(b.getI64Type(), 3);
  auto aDescType = nvgpu::WarpgroupMatrixDescriptorType::get(
      b.getContext(), MemRefType::get({rows, s.getTileK()}, s.getDtype(),
                                      AffineMap(), shared3));
  auto bDescType = nvgpu::WarpgroupMatrixDescriptorType::get(
      b.getContext(), MemRefType::get({s.getTileK(), s.getTileN()},
                                      s.getDtype(), AffineMap(), shared3));
  Value consumerMapA =
      UnrealizedConversionCastOp::create(b, loc, l.consumerDescA, l.descA)
          .getResult(0);
  Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, aDescType, aView, consumerMapA);
  Value mapB = l.descB;
  if (l.consumerDescB)
    mapB = UnrealizedConversionCastOp::create(b, loc, l.consumerDescB, l.descB)
               .getResult(0);
  Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, bDescType,
                                                             bView, mapB);
  return {descA, descB};
}

/// `groupsLeftPending`: the wgmma.wait_group the MMA ends in.
void lowerMma(Lowering &l, MmaOp mma, int64_t groupsLeftPending) {
  OpBuilder &b = l.b;
  Location loc = mma.getLoc();
  b.setInsertionPoint(mma);
  auto [descA, descB] = l.hoistedDescriptors.count(mma)
                            ? l.hoistedDescriptors.lookup(mma)
                            : mmaDescriptors(l, mma);
  Value result = nvgpu::WarpgroupMmaOp::create(
      b, loc, l.accType, descA, descB, b.getI64IntegerAttr(groupsLeftPending),
      UnitAttr(), b.getUnitAttr(), mma.getAcc());
  mma.replaceAllUsesWith(result);
  mma.erase();
}

} // namespace

/// With a trace, each MMA's shared-memory descriptors are built before the
/// consumer wait in front of it. They depend only on the stage, and ptxas
/// schedules them under the latency of the uninstrumented kernel's
/// try_wait, but not across the branch around a recorded wait: there they
/// sat between the wait and the MMA. On the H100 that took ping-pong's
/// recording from +14.7% to +11.9% at 2048^3 and from +10.1% to +8.0% at
/// 8192^3. The kernel without a trace is left as it was.
void klx::nvgpu_lowering::hoistMmaDescriptors(Lowering &l,
                                              gpu::GPUFuncOp func) {
  if (!l.trace.buffer)
    return;
  auto definedBefore = [](Value v, Operation *op) {
    Operation *def = v.getDefiningOp();
    return !def || def->getBlock() != op->getBlock() ||
           def->isBeforeInBlock(op);
  };
  func.walk([&](MmaOp mma) {
    Operation *wait = mma->getPrevNode();
    while (wait && isa<StageTileOp>(wait))
      wait = wait->getPrevNode();
    auto aTile = mma.getA().getDefiningOp<StageTileOp>();
    auto bTile = mma.getB().getDefiningOp<StageTileOp>();
    if (!wait || !isa<ConsumerWaitOp>(wait) || !aTile || !bTile ||
        !definedBefore(aTile.getIndex(), wait) ||
        !definedBefore(bTile.getIndex(), wait))
      return;
    l.b.setInsertionPoint(wait);
    l.hoistedDescriptors[mma] = mmaDescriptors(l, mma);
  });
}

/// nvgpu.warpgroup.mma ends in its own wgmma.wait_group: done reading the
/// stage before it is released (0), or all but this step's group when the
/// release waits a step (1, deferStageReleases). With a trace the MMA's
/// issue is recorded too. One waited for at once is stamped after its group
/// is committed, while the tensor cores work, and waited for after the
/// stamp (its own wait_group 1 is then free, a wait_group 0 follows):
/// stamped before it, the event sat between one MMA and the next. On the
/// H100 that took ping-pong from +22% to +17% at 2048^3 and from +13% to +9%
/// at 8192^3. A bar.warp.sync follows the stamp: without it ptxas sank the
/// stamp's stores past the wait (WARPGROUP.DEPBAR), into the gap before
/// the next MMA; with it they issue while the tensor cores work (ping-pong
/// +17.9% -> +15.6% at 2048^3 on the H100, +18.1% -> +15.3% on an H200).
/// One left in flight is stamped before it is issued (after it, the stamp
/// would include the wait for the previous group), but its event is held
/// and stored after the group is committed, before that wait: stored before
/// the issue, the store waited for the clock read and the wgmma waited for
/// the store. On the H100, with one copy event per stage
/// (isLastCopyOfStage), no roles went from +6.8% to +5.2% at 2048^3 and
/// from +10.1% to +7.8% at 8192^3, of which the copies alone gave +5.6%
/// and +8.8%.
void klx::nvgpu_lowering::lowerAndRecordMma(Lowering &l, MmaOp mma) {
  Location loc = mma.getLoc();
  Value stage = mma.getA().getDefiningOp<StageTileOp>().getIndex();
  bool inFlight = l.mmasInFlight.contains(mma);
  if (!l.trace.buffer) {
    l.b.setInsertionPoint(mma);
    return lowerMma(l, mma, inFlight ? 1 : 0);
  }
  Operation *next = mma->getNextNode();
  if (inFlight) {
    l.b.setInsertionPoint(mma);
    recordEvent(l, loc, TraceEventKind::MmaIssue, stage, true, 0,
                Hold::StampNow);
    // At most this group and the one before are pending: wait_group 2
    // returns at once, and the wait for the one before follows the store.
    lowerMma(l, mma, 2);
    l.b.setInsertionPoint(next);
    storeHeldEvent(l, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(l.b, loc, uint64_t(1));
    return;
  }
  lowerMma(l, mma, 1);
  l.b.setInsertionPoint(next);
  recordEvent(l, loc, TraceEventKind::MmaIssue, stage, true);
  Value allLanes = arith::ConstantIntOp::create(l.b, loc, l.b.getI32Type(), -1);
  NVVM::SyncWarpOp::create(l.b, loc, allLanes);
  NVVM::WgmmaWaitGroupSyncOp::create(l.b, loc, uint64_t(0));
}
