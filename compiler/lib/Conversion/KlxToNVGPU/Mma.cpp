//===- Mma.cpp - klx.mma as wgmma, and its issue recorded -----------------===//
//
// A consumer's klx.mma becomes one nvgpu.warpgroup.mma over its rows of the
// A stage and the whole B stage, through wgmma descriptors of the two
// shared-memory views; with a trace, the MMA's issue is recorded too. An
// MMA whose A is in registers (klx.as_operand) becomes wgmma's register
// form, one klx.wgmma_register_a per 64 rows and 16 k, which MLIR has no
// op for.
//
//===----------------------------------------------------------------------===//

#include "ThreadElements.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

/// Whether the MMA's A is in registers: klx.as_operand's, lowered before
/// the MMA into the registers themselves (a vector of i32), not a stage.
bool hasRegisterA(MmaOp mma) {
  return !mma.getA().getDefiningOp<StageTileOp>();
}

/// The shared-memory view of the MMA's B stage tile (the whole k step).
Value bView(Lowering &l, MmaOp mma) {
  Location loc = mma.getLoc();
  ScheduleAttr s = l.schedule;
  auto bTile = mma.getB().getDefiningOp<StageTileOp>();
  Value bOffset = l.add(loc, l.stageOffset(loc, bTile.getIndex()),
                        l.index(loc, s.tileBytes(Operand::A)));
  return l.view(loc, bOffset, {s.getTileK(), s.getTileN()});
}

/// The wgmma descriptor of `view` (bView's), at the builder's insertion
/// point.
Value bDescriptor(Lowering &l, Location loc, Value view) {
  OpBuilder &b = l.b;
  ScheduleAttr s = l.schedule;
  auto bDescType = nvgpu::WarpgroupMatrixDescriptorType::get(
      b.getContext(),
      MemRefType::get({s.getTileK(), s.getTileN()}, s.getDtype(), AffineMap(),
                      IntegerAttr::get(b.getI64Type(), 3)));
  Value mapB = l.descB;
  if (l.consumerDescB)
    mapB = UnrealizedConversionCastOp::create(b, loc, l.consumerDescB, l.descB)
               .getResult(0);
  return nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, bDescType, view,
                                                      mapB);
}

/// The wgmma descriptors of the MMA's A and B stage tiles, at the
/// builder's insertion point.
std::pair<Value, Value> mmaDescriptors(Lowering &l, MmaOp mma) {
  OpBuilder &b = l.b;
  Location loc = mma.getLoc();
  ScheduleAttr s = l.schedule;
  auto aTile = mma.getA().getDefiningOp<StageTileOp>();
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
  Value bTileView = bView(l, mma);
  auto aDescType = nvgpu::WarpgroupMatrixDescriptorType::get(
      b.getContext(),
      MemRefType::get({rows, s.getTileK()}, s.getDtype(), AffineMap(),
                      IntegerAttr::get(b.getI64Type(), 3)));
  Value consumerMapA =
      UnrealizedConversionCastOp::create(b, loc, l.consumerDescA, l.descA)
          .getResult(0);
  Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, aDescType, aView, consumerMapA);
  return {descA, bDescriptor(l, loc, bTileView)};
}

/// An MMA whose A the thread holds (lowerAsOperand's registers, pair 4 s +
/// r of a fragment being register r of k step s): per 64-row fragment and
/// 16 k, one wgmma of the register form, B's descriptor advanced 16 rows
/// at a time as nvgpu.warpgroup.mma advances it. One group, committed and
/// waited for as `groupsLeftPending` says.
void lowerRegisterMma(Lowering &l, MmaOp mma, int64_t groupsLeftPending) {
  OpBuilder &b = l.b;
  Location loc = mma.getLoc();
  ScheduleAttr s = l.schedule;
  Value descB = UnrealizedConversionCastOp::create(
                    b, loc, b.getI64Type(), bDescriptor(l, loc, bView(l, mma)))
                    .getResult(0);
  Value accumulators = asHeld(l, loc, mma.getAcc());
  Value a = mma.getA();
  int64_t elementBytes = s.getDtype().getIntOrFloatBitWidth() / 8;
  int64_t kSteps = s.getTileK() / 16, pairsPerFragment = s.getTileK() / 4;
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t f = 0; f < fragmentsOf(l); ++f) {
    Value d = LLVM::ExtractValueOp::create(b, loc, accumulators, f);
    for (int64_t k = 0; k < kSteps; ++k) {
      SmallVector<Value> registers;
      for (int64_t r = 0; r < 4; ++r)
        registers.push_back(LLVM::ExtractElementOp::create(
            b, loc, a, constantI64(b, loc, f * pairsPerFragment + 4 * k + r)));
      // 16 rows of B further on, in descriptor units of 16 bytes.
      int64_t advance = (s.getTileK() * 16 * k * elementBytes) >> 4;
      Value desc = advance ? LLVM::AddOp::create(b, loc, descB,
                                                 constantI64(b, loc, advance))
                                 .getResult()
                           : descB;
      d = WgmmaRegisterAOp::create(b, loc, d.getType(), d, registers, desc,
                                   s.getTileN(), s.getDtype());
    }
    accumulators = LLVM::InsertValueOp::create(b, loc, accumulators, d, f);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, uint64_t(groupsLeftPending));
  Value result =
      UnrealizedConversionCastOp::create(b, loc, l.accType, accumulators)
          .getResult(0);
  mma.replaceAllUsesWith(result);
  mma.erase();
}

/// `groupsLeftPending`: the wgmma.wait_group the MMA ends in.
void lowerMma(Lowering &l, MmaOp mma, int64_t groupsLeftPending) {
  OpBuilder &b = l.b;
  Location loc = mma.getLoc();
  b.setInsertionPoint(mma);
  if (hasRegisterA(mma))
    return lowerRegisterMma(l, mma, groupsLeftPending);
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
  // The stage the MMA reads: A's, or B's where A is in registers.
  Value stageTile = hasRegisterA(mma) ? mma.getB() : mma.getA();
  Value stage = stageTile.getDefiningOp<StageTileOp>().getIndex();
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
