//===- Trace.cpp - Recording a measured timeline --------------------------===//
//
// With `instrument`, the lowered kernel takes one more parameter, a buffer
// of i64 in global memory, and the first `ctas` CTAs write an event into
// it at each barrier wait (before and after), arrive, copy issue and MMA
// issue: the SM's clock64 and what happened. Each warp of a traced CTA has
// a region of 1 + 2 x `events` words: a count, then (clock, what) pairs;
// events past the region's end are counted but not written. Ops a whole
// warpgroup runs are recorded by its first thread, ops one elected thread
// runs by that thread, so each region has one writer and the count is a
// plain load and store, not an atomic.
//
// what = kind | stage << 8 (TraceEventKind in KernelLaunch.h).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

void klx::nvgpu_lowering::setUpTrace(Lowering &l, Location loc, Value buffer,
                                     const TraceOptions &options) {
  OpBuilder &b = l.b;
  l.trace.buffer = buffer;
  l.trace.options = options;
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value gx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value cta = l.add(loc, bx, arith::MulIOp::create(b, loc, by, gx));
  l.trace.traced = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, cta,
                                         l.index(loc, options.ctas));
  Value warp = arith::DivUIOp::create(b, loc, l.threadId, l.index(loc, 32));
  int64_t warps = l.schedule.threads() / 32;
  Value slot = l.add(loc, warp, l.mul(loc, cta, warps));
  l.trace.region = l.mul(loc, slot, 1 + 2 * int64_t(options.events));
  Value lane0 = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, l.threadId, l.index(loc, 128)),
      l.index(loc, 0));
  l.trace.tracedWarpgroup =
      arith::AndIOp::create(b, loc, l.trace.traced, lane0);
}

void klx::nvgpu_lowering::recordEvent(Lowering &l, Location loc,
                                      TraceEventKind kind, Value stage,
                                      bool wholeWarpgroup) {
  if (!l.trace.buffer)
    return;
  OpBuilder &b = l.b;
  Value when = wholeWarpgroup ? l.trace.tracedWarpgroup : l.trace.traced;
  auto inTrace = scf::IfOp::create(b, loc, when, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(inTrace.thenBlock()->getTerminator());
  Type i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto at = [&](Value index) {
    Value offset = arith::IndexCastOp::create(b, loc, i64, index);
    return LLVM::GEPOp::create(b, loc, ptr, i64, l.trace.buffer,
                               ValueRange{offset});
  };
  Value clock = NVVM::Clock64Op::create(b, loc, i64);
  Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
  Value countPtr = at(l.trace.region);
  Value count = LLVM::LoadOp::create(b, loc, i64, countPtr);
  LLVM::StoreOp::create(b, loc, arith::AddIOp::create(b, loc, count, one),
                        countPtr);
  Value fits = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult, count,
      arith::ConstantIntOp::create(b, loc, i64, l.trace.options.events));
  auto store = scf::IfOp::create(b, loc, fits, /*withElse=*/false);
  b.setInsertionPoint(store.thenBlock()->getTerminator());
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
  Value word = l.add(loc, l.add(loc, l.trace.region, l.index(loc, 1)),
                     l.mul(loc, index, 2));
  Value stage64 = stage ? Value(arith::IndexCastOp::create(b, loc, i64, stage))
                        : Value(arith::ConstantIntOp::create(b, loc, i64, 0));
  Value what = arith::OrIOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, i64, int64_t(kind)),
      arith::ShLIOp::create(b, loc, stage64,
                            arith::ConstantIntOp::create(b, loc, i64, 8)));
  LLVM::StoreOp::create(b, loc, clock, at(word));
  LLVM::StoreOp::create(b, loc, what, at(l.add(loc, word, l.index(loc, 1))));
}
