//===- BodyOps.cpp - The ops of a kernel's body to nvgpu ------------------===//
//
// What is left of a kernel's body once KlxToNVGPU.cpp has made its
// signature and RolesAndBarriers.cpp its branches and mbarriers: the
// producers' acquires and copies, the consumers' waits and releases, the
// ping-pong turns, the pipeline states, the accumulators and the stores,
// each lowered in place (the MMAs by Mma.cpp, the TMA-store epilogue by
// Epilogue.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

/// The multicast mask of a 1-D cluster: every CTA (its rank's bit).
Value wholeCluster(Lowering &l, Location loc) {
  return arith::ConstantIntOp::create(l.b, loc, l.b.getI16Type(),
                                      (1 << l.schedule.clusterSize()) - 1);
}

/// Bytes of one 128-byte box row times `rows`, as an index.
Value rowBytes(Lowering &l, Location loc, int64_t rows) {
  return l.index(loc, rows * kBoxColumns *
                          (l.schedule.getDtype().getIntOrFloatBitWidth() / 8));
}

void tryWait(Lowering &l, Location loc, Value barriers, Value index,
             Value parity) {
  nvgpu::MBarrierTryWaitParityOp::create(l.b, loc, barriers, parity,
                                         l.index(loc, kTryWaitTicks), index);
}

void lowerCopy(Lowering &l, CopyOp copy) {
  OpBuilder &b = l.b;
  Location loc = copy.getLoc();
  b.setInsertionPoint(copy);
  ScheduleAttr s = l.schedule;
  Value stage = l.stageOffset(loc, copy.getIndex());
  Value full = l.barriers[copy.getPipeline()].full;
  Value k = l.mul(
      loc, copy.getOperand() == Operand::A ? copy.getCol() : copy.getRow(),
      s.getTileK());
  // In a cluster the CTAs that share an operand's tile each load their
  // rank's rows of its boxes (a share of whole 8-row swizzle atoms, so
  // the bytes land where one box would put them) into every CTA.
  bool shareA = s.getClusterN() > 1, shareB = s.getClusterM() > 1;
  Value mask = shareA || shareB ? wholeCluster(l, loc) : Value();
  if (copy.getOperand() == Operand::A) {
    int64_t share = shareRowsA(s);
    Value rows = l.mul(loc, copy.getRow(), s.getTileM());
    Value dstBytes = stage;
    if (shareA) {
      rows = l.add(loc, rows, l.mul(loc, l.clusterRank, share));
      dstBytes = l.add(loc, stage,
                       arith::MulIOp::create(b, loc, l.clusterRank,
                                             rowBytes(l, loc, share)));
    }
    Value dst = l.view(loc, dstBytes, {share, kBoxColumns});
    nvgpu::TmaAsyncLoadOp::create(b, loc, dst, full, l.descA,
                                  ValueRange{k, rows}, copy.getIndex(),
                                  shareA ? mask : Value(), Value());
  } else {
    // B is tile_k x tile_n: tile_n / 64 boxes of 64 x 64, side by side.
    Value columns = l.mul(loc, copy.getCol(), s.getTileN());
    Value bStart = l.add(loc, stage, l.index(loc, s.tileBytes(Operand::A)));
    int64_t boxBytes =
        s.getTileK() * kBoxColumns * (s.getDtype().getIntOrFloatBitWidth() / 8);
    int64_t share = shareRowsB(s);
    if (shareB) {
      Value skipped =
          arith::MulIOp::create(b, loc, l.clusterRank, rowBytes(l, loc, share));
      bStart = l.add(loc, bStart, skipped);
      k = l.add(loc, k, l.mul(loc, l.clusterRank, share));
    }
    for (int64_t j = 0; j < s.getTileN() / kBoxColumns; ++j) {
      Value dst = l.view(loc, l.add(loc, bStart, l.index(loc, j * boxBytes)),
                         {share, kBoxColumns});
      Value column = l.add(loc, columns, l.index(loc, j * kBoxColumns));
      nvgpu::TmaAsyncLoadOp::create(b, loc, dst, full, l.descB,
                                    ValueRange{column, k}, copy.getIndex(),
                                    shareB ? mask : Value(), Value());
    }
  }
  copy.erase();
}

void lowerStore(Lowering &l, StoreOp store, Value output) {
  OpBuilder &b = l.b;
  Location loc = store.getLoc();
  b.setInsertionPoint(store);
  ScheduleAttr s = l.schedule;
  // A view the size of one consumer's share: nvgpu.warpgroup.mma.store
  // places each warp's rows 16 x (its warp index in the CTA) past the
  // view, so consumer c (warpgroup c, warps 4c..4c+3) lands 64c rows past
  // it, where its share starts c x rowsPerConsumer rows into the tile (0
  // for ping-pong, whose consumers each hold the whole tile). Start the
  // view at the difference. (It is negative only in the index arithmetic;
  // no access is.)
  Value row = l.mul(loc, store.getRow(), s.getTileM());
  int64_t shareRows = s.getPingpong() ? 0 : s.rowsPerConsumer();
  if (shareRows != 64)
    row = l.add(loc, row, l.mul(loc, l.warpgroup, shareRows - 64));
  Value column = l.mul(loc, store.getCol(), s.getTileN());
  auto tile = memref::SubViewOp::create(
      b, loc, output, ArrayRef<OpFoldResult>{row, column},
      ArrayRef<OpFoldResult>{b.getIndexAttr(s.rowsPerConsumer()),
                             b.getIndexAttr(s.getTileN())},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, store.getAcc(), tile);
  store.erase();
}

void lowerAdvance(Lowering &l, AdvanceOp advance) {
  OpBuilder &b = l.b;
  Location loc = advance.getLoc();
  b.setInsertionPoint(advance);
  Value index, phase;
  if (Value count = advance.getCount()) {
    // n stages at once: the phase flips once per wrap.
    Value linear = l.add(loc, advance.getIndex(), count);
    Value stages = l.index(loc, advance.getStages());
    index = arith::RemUIOp::create(b, loc, linear, stages);
    Value wraps = arith::DivUIOp::create(b, loc, linear, stages);
    Value odd = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, wraps, l.index(loc, 1)), l.index(loc, 0));
    phase = arith::XOrIOp::create(b, loc, advance.getPhase(), odd);
  } else {
    Value next = l.add(loc, advance.getIndex(), l.index(loc, 1));
    Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                        l.index(loc, advance.getStages()));
    index = arith::SelectOp::create(b, loc, wraps, l.index(loc, 0), next);
    phase = arith::XOrIOp::create(b, loc, advance.getPhase(), wraps);
  }
  advance.replaceAllUsesWith(ValueRange{index, phase});
  advance.erase();
}

} // namespace

LogicalResult nvgpu_lowering::lowerBodyOps(Lowering &l, gpu::GPUFuncOp func,
                                           DenseMap<Value, Value> &tensors) {
  hoistMmaDescriptors(l, func);
  // In program order, so that each op's operands are lowered before it; a
  // klx.map's body is cloned whole, not lowered in place.
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<KlxDialect>(op->getDialect()))
      ops.push_back(op);
    auto mma = dyn_cast_or_null<MmaOp>(op->getPrevNode());
    if (isa<ConsumerReleaseOp>(op) && mma && !l.mmasInFlight.contains(mma))
      l.releasesHeld.insert(op);
    return isa<MapOp>(op) ? WalkResult::skip() : WalkResult::advance();
  });
  OpBuilder &b = l.b;
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    if (isComputeOp(op)) {
      if (failed(lowerComputeOp(l, op, tensors)))
        return failure();
    } else if (auto wait = dyn_cast<ConsumerWaitOp>(op)) {
      const Lowering::Barriers &barriers = l.barriers[wait.getPipeline()];
      Value full = barriers.full;
      waitAndRecord(l, loc, full, wait.getIndex(), wait.getPhase(),
                    TraceEventKind::WaitFullBegin, true, barriers.index, [&] {
                      tryWait(l, loc, full, wait.getIndex(), wait.getPhase());
                    });
      wait.erase();
    } else if (auto take = dyn_cast<TakeTurnOp>(op)) {
      Value consumer = l.index(loc, take.getConsumer());
      waitAndRecord(l, loc, l.turns, consumer, take.getPhase(),
                    TraceEventKind::WaitTurnBegin, true, 0, [&] {
                      tryWait(l, loc, l.turns, consumer, take.getPhase());
                    });
      take.erase();
    } else if (auto pass = dyn_cast<PassTurnOp>(op)) {
      recordEvent(l, loc, TraceEventKind::PassTurn, Value(), true);
      nvgpu::MBarrierArriveOp::create(b, loc, l.turns,
                                      l.index(loc, pass.getConsumer()));
      pass.erase();
    } else if (auto release = dyn_cast<ConsumerReleaseOp>(op)) {
      lowerAndRecordRelease(l, release);
    } else if (auto copy = dyn_cast<CopyOp>(op)) {
      // One elected thread issues copies; a stage's last copy is recorded
      // once it is issued (Trace.cpp says why).
      bool recorded = isLastCopyOfStage(copy);
      Value stage = copy.getIndex();
      int64_t pipeline = l.barriers[copy.getPipeline()].index;
      Operation *next = copy->getNextNode();
      lowerCopy(l, copy);
      if (recorded) {
        b.setInsertionPoint(next);
        recordEvent(l, loc, TraceEventKind::CopyIssue, stage, false, pipeline);
      }
    } else if (auto mma = dyn_cast<MmaOp>(op)) {
      lowerAndRecordMma(l, mma);
    } else if (auto zero = dyn_cast<ZeroOp>(op)) {
      Value acc =
          nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, l.accType);
      zero.replaceAllUsesWith(acc);
      zero.erase();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      Operation *map = store.getAcc().getDefiningOp();
      if (map && isMapIntoStore(l, map)) {
        if (failed(lowerMapIntoStore(l, store, tensors)))
          return failure();
      } else if (l.schedule.getTmaStore())
        lowerStoreThroughTma(l, store);
      else
        lowerStore(l, store, tensors.lookup(store.getTensor()));
    } else if (auto advance = dyn_cast<AdvanceOp>(op)) {
      lowerAdvance(l, advance);
    } else if (auto kTiles = dyn_cast<KTilesOp>(op)) {
      Value count = arith::CeilDivUIOp::create(
          b, loc, kTiles.getExtent(), l.index(loc, l.schedule.getTileK()));
      kTiles.replaceAllUsesWith(count);
      kTiles.erase();
    } else if (!isa<StageTileOp, PipelineOp, TurnsOp>(op)) {
      return op->emitOpError("is not lowered by klx-to-nvgpu; run "
                             "klx-warp-specialize, klx-circular-buffer and "
                             "klx-persistent first");
    }
  }
  // The tiles were read by the MMAs they fed, the vectors by the maps.
  func.walk([](Operation *op) {
    if (isa<StageTileOp, LoadVectorOp>(op) && op->use_empty())
      op->erase();
  });
  return success();
}

void nvgpu_lowering::lowerProducerAcquires(Lowering &l, gpu::GPUFuncOp func) {
  OpBuilder &b = l.b;
  SmallVector<ProducerAcquireOp> acquires;
  func.walk([&](ProducerAcquireOp a) { acquires.push_back(a); });
  for (ProducerAcquireOp acquire : acquires) {
    b.setInsertionPoint(acquire);
    Location loc = acquire.getLoc();
    Value previous = arith::XOrIOp::create(
        b, loc, acquire.getPhase(),
        arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    const Lowering::Barriers &barriers = l.barriers[acquire.getPipeline()];
    waitAndRecord(
        l, loc, barriers.empty, acquire.getIndex(), previous,
        TraceEventKind::WaitEmptyBegin, false, barriers.index,
        [&] { tryWait(l, loc, barriers.empty, acquire.getIndex(), previous); });
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers.full,
                                            l.index(loc, barriers.txBytes),
                                            acquire.getIndex(), Value());
    acquire.erase();
  }
}
