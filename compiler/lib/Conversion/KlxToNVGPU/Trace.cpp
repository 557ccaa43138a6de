//===- Trace.cpp - Recording a measured timeline --------------------------===//
//
// With `instrument`, the lowered kernel takes two more parameters: a buffer
// of i64 words in global memory and its capacity in events per warp. Each
// traced CTA owns kTraceHeaderWords + warps x (1 + capacity) words from
// its slot (BundleFormat.h): thread 0 stamps %globaltimer, %clock64 and
// %smid when the CTA starts and the first two again when it returns, so
// klx-run can put every SM's clock on one time axis; each warp writes one
// word per event: the low 32 bits of clock64, the pipeline (two producers
// each fill their own), the stage and the kind.
//
// What keeps recording cheap: each warp's events have one writer (ops a
// whole warpgroup runs are recorded by its first thread, the producer's by
// its elected lane 0), so the writer counts its events in a register (an
// alloca LLVM promotes) instead of loading and storing a count in global
// memory, and an event is one clock read and one predicated 8-byte store
// that nothing waits for. A barrier wait is recorded only when it blocks (a
// non-blocking mbarrier.test_wait first): most waits find their phase
// complete, and recording each one's begin and end put two or four events
// between one MMA and the next. On the H100 that took the recording's
// cost from +52% to +30% for ping-pong at 2048^3 and from +52% to +16% for
// two producers (bench/gpu/trace-overhead.sh). A release right after an
// MMA waited for at once is held and stamped late: its slot and its word
// without a clock (kTraceStampedLate) are taken there, and the warp's next
// event puts its own clock in the word and stores it, so neither a store
// nor a clock read sits between the MMA's end and the arrive (the store:
// ping-pong -1.4 points at 2048^3 on the H100; the clock read: ping-pong
// +9.9% -> +7.4% at 2048^3 and +7.4% -> +6.0% at 8192^3, at tile_n=192
// +14.3% -> +7.3% and +11.9% -> +6.8%, on an H200). klx-run takes the
// warp's event before it as its lower bound, and the critical chain
// matches a producer's wait by that bound (CriticalChain.cpp). An
// MMA left in flight is stamped before its issue and stored after it
// (Mma.cpp); only a stage's last copy is recorded (isLastCopyOfStage); and
// the MMAs' descriptors are built before the wait in front of them, out of
// the branch around a recorded wait (hoistMmaDescriptors).
// A stage's copy event is recorded once its copies are issued, and a
// release that is not held once its arrive is: recorded before them, the
// event's clock read and stores sat between the empty barrier's phase and
// the copies it lets the producer issue, and between the MMA's end and the
// arrive that wakes the producer. On an H200, beside the build before in
// one run (bench/gpu/trace-ab.sh), two producers went from +12.6% to +8.9%
// at 2048^3 (5 processes) and from +13.6% to +9.2% at 8192^3 (2); the
// other bundles moved within the noise. Ping-pong's held releases with a
// clock read of their own right after the arrive, instead of before it,
// cost more (+10.7% -> +11.2%).
// A blocking consumer wait's end stamped by the MMA
// after it (no clock read of its own) helped two stages (+11.4% ->
// +10.2%) and cost two producers (+8.5% -> +13.5%): not kept
// (performance.md).
// Events past the capacity are not written; the writer stores how many it
// had into the warp's count word, so klx-run can say so and record again
// with room for them.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

/// The buffer's words are 8-byte aligned (cuMemAlloc gives 256): said so,
/// an event is one 64-bit store instead of two 32-bit ones.
constexpr unsigned kWordAlignment = 8;

/// The linear block id, and whether this CTA records and in which slot.
std::pair<Value, Value> slotOfCta(Lowering &l, Location loc, Value cta,
                                  const TraceOptions &options) {
  OpBuilder &b = l.b;
  if (!options.ctaList.empty()) {
    Value slot = l.index(loc, 0);
    Value traced = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    for (auto [i, id] : llvm::enumerate(options.ctaList)) {
      Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cta,
                                       l.index(loc, id));
      slot = arith::SelectOp::create(b, loc, is, l.index(loc, i), slot);
      traced = arith::OrIOp::create(b, loc, traced, is);
    }
    return {slot, traced};
  }
  Value traced =
      options.ctas == 0
          ? Value(arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1))
          : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, cta,
                                        l.index(loc, options.ctas)));
  return {cta, traced};
}

Value wordAt(Lowering &l, Location loc, Value index) {
  OpBuilder &b = l.b;
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                             b.getI64Type(), l.trace.buffer,
                             ValueRange{offset});
}

void storeHeader(Lowering &l, Location loc, rt::TraceHeader word, Value v) {
  OpBuilder &b = l.b;
  if (v.getType() != b.getI64Type())
    v = arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
  LLVM::StoreOp::create(
      b, loc, v, wordAt(l, loc, l.add(loc, l.trace.ctaBase, int64_t(word))),
      kWordAlignment);
}

/// One store where `condition` holds: a branch around a single store,
/// which ptxas turns into a predicated store.
void storeIf(Lowering &l, Location loc, Value condition, Value value,
             Value address) {
  OpBuilder &b = l.b;
  auto guarded = scf::IfOp::create(b, loc, condition, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(guarded.thenBlock()->getTerminator());
  LLVM::StoreOp::create(b, loc, value, address, kWordAlignment);
}

} // namespace

void klx::nvgpu_lowering::storeHeldEvent(Lowering &l, Location loc,
                                         Value nextClock) {
  OpBuilder &b = l.b;
  Type i64 = b.getI64Type();
  Value holds = LLVM::LoadOp::create(b, loc, b.getI1Type(), l.trace.heldStore);
  Value word = LLVM::LoadOp::create(b, loc, i64, l.trace.heldWord);
  Value slot = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      LLVM::LoadOp::create(b, loc, i64, l.trace.heldSlot));
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  // A word stamped late has no clock bits yet and its kind's late bit set.
  Value late = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc, word, constant(rt::kTraceStampedLate)),
      constant(0));
  if (!nextClock) {
    // Read only for a late word that is stored: where nothing is held (the
    // flag stored false by the event before) or what is held was stamped
    // already (an MMA's word, its late bit clear), LLVM drops the branch.
    auto read = scf::IfOp::create(b, loc, TypeRange{i64},
                                  arith::AndIOp::create(b, loc, holds, late),
                                  /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(read.thenBlock());
    scf::YieldOp::create(b, loc,
                         ValueRange{NVVM::Clock64Op::create(b, loc, i64)});
    b.setInsertionPointToStart(read.elseBlock());
    scf::YieldOp::create(b, loc, ValueRange{constant(0)});
    nextClock = read.getResult(0);
  }
  Value stamp = arith::SelectOp::create(
      b, loc, late, arith::ShLIOp::create(b, loc, nextClock, constant(32)),
      constant(0));
  storeIf(l, loc, holds, arith::OrIOp::create(b, loc, word, stamp),
          wordAt(l, loc, slot));
  LLVM::StoreOp::create(b, loc,
                        arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
                        l.trace.heldStore);
}

namespace {

/// Runs `body` in thread 0 of a traced CTA.
void inThreadZero(Lowering &l, Location loc, llvm::function_ref<void()> body) {
  OpBuilder &b = l.b;
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      l.threadId, l.index(loc, 0));
  auto stamp = scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, l.trace.traced, first),
      /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(stamp.thenBlock()->getTerminator());
  body();
}

} // namespace

void klx::nvgpu_lowering::setUpTrace(Lowering &l, Location loc, Value buffer,
                                     Value capacity,
                                     const TraceOptions &options) {
  OpBuilder &b = l.b;
  Type i64 = b.getI64Type();
  l.trace.buffer = buffer;
  l.trace.options = options;
  l.trace.capacity =
      arith::IndexCastOp::create(b, loc, b.getIndexType(), capacity);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value gx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value cta = l.add(loc, bx, arith::MulIOp::create(b, loc, by, gx));
  auto [slot, traced] = slotOfCta(l, loc, cta, options);
  l.trace.traced = traced;

  int64_t warps = l.schedule.threads() / 32;
  Value perWarp = l.add(loc, l.trace.capacity, l.index(loc, 1));
  Value perCta =
      l.add(loc, arith::MulIOp::create(b, loc, perWarp, l.index(loc, warps)),
            l.index(loc, rt::kTraceHeaderWords));
  l.trace.ctaBase = arith::MulIOp::create(b, loc, slot, perCta);
  Value warp = arith::DivUIOp::create(b, loc, l.threadId, l.index(loc, 32));
  l.trace.region =
      l.add(loc, l.add(loc, l.trace.ctaBase, rt::kTraceHeaderWords),
            arith::MulIOp::create(b, loc, warp, perWarp));
  Value lane0 = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, l.threadId, l.index(loc, 128)),
      l.index(loc, 0));
  l.trace.tracedWarpgroup =
      arith::AndIOp::create(b, loc, l.trace.traced, lane0);

  Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
  l.trace.counter = LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), i64, one);
  LLVM::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, i64, 0),
                        l.trace.counter);
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  l.trace.heldWord = LLVM::AllocaOp::create(b, loc, pointer, i64, one);
  l.trace.heldSlot = LLVM::AllocaOp::create(b, loc, pointer, i64, one);
  l.trace.heldStore =
      LLVM::AllocaOp::create(b, loc, pointer, b.getI1Type(), one);
  for (Value held : {l.trace.heldWord, l.trace.heldSlot})
    LLVM::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, i64, 0),
                          held);
  LLVM::StoreOp::create(b, loc,
                        arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
                        l.trace.heldStore);
  inThreadZero(l, loc, [&] {
    storeHeader(l, loc, rt::TraceHeader::StartTimer,
                NVVM::GlobalTimerOp::create(b, loc, i64));
    storeHeader(l, loc, rt::TraceHeader::StartClock,
                NVVM::Clock64Op::create(b, loc, i64));
    storeHeader(l, loc, rt::TraceHeader::SmId,
                NVVM::SmIdOp::create(b, loc, b.getI32Type()));
    Value id = arith::IndexCastOp::create(b, loc, i64, l.add(loc, cta, 1));
    storeHeader(l, loc, rt::TraceHeader::BlockId, id);
  });
}

void klx::nvgpu_lowering::finishTrace(Lowering &l, gpu::GPUFuncOp func) {
  OpBuilder &b = l.b;
  Type i64 = b.getI64Type();
  func.walk([&](gpu::ReturnOp ret) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ret);
    Location loc = ret.getLoc();
    storeHeldEvent(l, loc);
    inThreadZero(l, loc, [&] {
      storeHeader(l, loc, rt::TraceHeader::EndTimer,
                  NVVM::GlobalTimerOp::create(b, loc, i64));
      storeHeader(l, loc, rt::TraceHeader::EndClock,
                  NVVM::Clock64Op::create(b, loc, i64));
    });
  });
}

void klx::nvgpu_lowering::waitAndRecord(Lowering &l, Location loc,
                                        Value barriers, Value index,
                                        Value parity, TraceEventKind begin,
                                        bool wholeWarpgroup, int64_t pipeline,
                                        llvm::function_ref<void()> wait) {
  if (!l.trace.buffer)
    return wait();
  OpBuilder &b = l.b;
  Value address =
      nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), barriers, index);
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), /*shared=*/3),
      address);
  Value phase = arith::ExtUIOp::create(b, loc, b.getI32Type(), parity);
  Value ready =
      NVVM::MBarrierTestWaitOp::create(b, loc, b.getI1Type(), pointer, phase);
  Value blocks = arith::XOrIOp::create(
      b, loc, ready, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  auto slow = scf::IfOp::create(b, loc, blocks, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(slow.thenBlock()->getTerminator());
  recordEvent(l, loc, begin, index, wholeWarpgroup, pipeline);
  wait();
  recordEvent(l, loc, rt::waitEndOf(begin), index, wholeWarpgroup, pipeline);
}

void klx::nvgpu_lowering::recordEvent(Lowering &l, Location loc,
                                      TraceEventKind kind, Value stage,
                                      bool wholeWarpgroup, int64_t pipeline,
                                      Hold hold) {
  if (!l.trace.buffer)
    return;
  OpBuilder &b = l.b;
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  // Every thread reads the clock, counts and builds the word; only the
  // writer stores. Branching around the whole event made the other lanes
  // of the writer's warp diverge and reconverge before the next wgmma,
  // on the consumers' critical path; two guarded stores become predicated
  // stores. On the H100 that took no roles from +12% to +7% at 2048^3
  // and two producers from +16% to +9% (bench/gpu/trace-overhead.sh).
  // A release stamped late reads no clock: the warp's next event's goes
  // into its word when that event stores it.
  Value clock = hold == Hold::StampLate
                    ? Value()
                    : Value(NVVM::Clock64Op::create(b, loc, i64));
  Value count = LLVM::LoadOp::create(b, loc, i64, l.trace.counter);
  Value next = arith::AddIOp::create(b, loc, count, constant(1));
  LLVM::StoreOp::create(b, loc, next, l.trace.counter);
  Value capacity = arith::IndexCastOp::create(b, loc, i64, l.trace.capacity);
  Value fits =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, count, capacity);
  Value stage64 = stage ? Value(arith::IndexCastOp::create(b, loc, i64, stage))
                        : Value(constant(0));
  int64_t late = hold == Hold::StampLate ? rt::kTraceStampedLate : 0;
  Value what = arith::OrIOp::create(
      b, loc, constant(int64_t(kind) | late | pipeline << 24),
      arith::ShLIOp::create(b, loc, stage64, constant(8)));
  Value word = clock ? Value(arith::OrIOp::create(
                           b, loc, what,
                           arith::ShLIOp::create(b, loc, clock, constant(32))))
                     : what;
  Value slot =
      l.add(loc, l.add(loc, l.trace.region, 1),
            arith::IndexCastOp::create(b, loc, b.getIndexType(), count));
  Value writer = wholeWarpgroup ? l.trace.tracedWarpgroup : l.trace.traced;
  Value full = arith::XOrIOp::create(
      b, loc, fits, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  Value stores = arith::AndIOp::create(b, loc, writer, fits);
  if (hold != Hold::No) {
    // Whatever is held already goes out first (nothing, in the kernels
    // klx makes: LLVM folds this away), so no held event is overwritten.
    storeHeldEvent(l, loc, clock);
    LLVM::StoreOp::create(b, loc, word, l.trace.heldWord);
    LLVM::StoreOp::create(b, loc, arith::IndexCastOp::create(b, loc, i64, slot),
                          l.trace.heldSlot);
    LLVM::StoreOp::create(b, loc, stores, l.trace.heldStore);
  } else {
    storeIf(l, loc, stores, word, wordAt(l, loc, slot));
    // A kernel that holds no event folds this away (the flag is a
    // constant false once LLVM promotes the allocas).
    storeHeldEvent(l, loc, clock);
  }
  // Full: the count word says how many this warp recorded.
  storeIf(l, loc, arith::AndIOp::create(b, loc, writer, full), next,
          wordAt(l, loc, l.trace.region));
}

bool klx::nvgpu_lowering::isLastCopyOfStage(CopyOp copy) {
  // Up to the first op that is neither a copy nor free of side effects: a
  // later fill of the same stage (hand-written IR may name it by the same
  // constant index) begins with its acquire's wait, and records its own.
  for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
    auto later = dyn_cast<CopyOp>(op);
    if (later && later.getIndex() == copy.getIndex() &&
        later.getPipeline() == copy.getPipeline())
      return false;
    if (!later && !isMemoryEffectFree(op))
      return true;
  }
  return true;
}
