//===- ConstRegTensor.cpp - Register arrays of a sequence, as arithmetic --===//
//
// GPU registers cannot be indexed at run time, so an array read at a
// run-time index lives in local memory: a stack frame in `ptxas -v`,
// STL/LDL in SASS, and a round trip to L1 on every read. A persistent
// kernel that keeps its mbarriers' shared addresses in `bars[stages]` and
// reads `bars[stage]` pays that on every wait, though the addresses are
// `base + 8 * i`: computing them instead keeps everything in registers.
//
//===----------------------------------------------------------------------===//

#include "klx/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"

namespace klx {
#define GEN_PASS_DEF_KLXCONSTREGTENSORPASS
#include "klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

/// `value` as base + offset, looking through adds and subtracts of
/// constants; a constant is a null base plus itself.
std::pair<Value, int64_t> splitOffset(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return {Value(), constant.getSExtValue()};
  if (auto add = value.getDefiningOp<arith::AddIOp>()) {
    if (matchPattern(add.getRhs(), m_ConstantInt(&constant))) {
      auto [base, offset] = splitOffset(add.getLhs());
      return {base, offset + constant.getSExtValue()};
    }
    if (matchPattern(add.getLhs(), m_ConstantInt(&constant))) {
      auto [base, offset] = splitOffset(add.getRhs());
      return {base, offset + constant.getSExtValue()};
    }
  }
  if (auto sub = value.getDefiningOp<arith::SubIOp>())
    if (matchPattern(sub.getRhs(), m_ConstantInt(&constant))) {
      auto [base, offset] = splitOffset(sub.getLhs());
      return {base, offset - constant.getSExtValue()};
    }
  return {value, 0};
}

} // namespace

bool klx::replaceArithmeticArray(memref::AllocaOp array) {
  MemRefType type = array.getType();
  if (type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getElementType().isSignlessInteger() ||
      type.getMemorySpace() != Attribute())
    return false;
  int64_t length = type.getDimSize(0);
  if (length < 2)
    return false;
  SmallVector<memref::StoreOp> stores;
  SmallVector<memref::LoadOp> loads;
  SmallVector<Value> elements(length);
  for (Operation *user : array->getUsers()) {
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      loads.push_back(load);
      continue;
    }
    auto store = dyn_cast<memref::StoreOp>(user);
    APInt index;
    if (!store || store.getMemRef() != array.getResult() ||
        !matchPattern(store.getIndices()[0], m_ConstantInt(&index)))
      return false; // another use, the array stored, or a run-time index
    int64_t i = index.getSExtValue();
    if (i < 0 || i >= length || elements[i])
      return false; // out of range, or written twice
    elements[i] = store.getValue();
    stores.push_back(store);
  }
  if (loads.empty() || llvm::any_of(elements, [](Value v) { return !v; }))
    return false;
  // Every write before every read.
  DominanceInfo dominance(array->getParentOp());
  for (memref::StoreOp store : stores)
    for (memref::LoadOp load : loads)
      if (!dominance.properlyDominates(store.getOperation(),
                                       load.getOperation()))
        return false;
  // base + first + i * step for every element.
  auto [base, first] = splitOffset(elements[0]);
  auto [base1, second] = splitOffset(elements[1]);
  int64_t step = second - first;
  if (base1 != base)
    return false;
  for (int64_t i = 2; i < length; ++i) {
    auto [b, offset] = splitOffset(elements[i]);
    if (b != base || offset != first + i * step)
      return false;
  }
  // The base must be there wherever the array is read.
  for (memref::LoadOp load : loads)
    if (base && !dominance.properlyDominates(base, load.getOperation()))
      return false;

  Type element = type.getElementType();
  for (memref::LoadOp load : loads) {
    OpBuilder b(load);
    Location loc = load.getLoc();
    Value index =
        arith::IndexCastOp::create(b, loc, element, load.getIndices()[0]);
    Value value = arith::MulIOp::create(
        b, loc, index, arith::ConstantIntOp::create(b, loc, element, step));
    value = arith::AddIOp::create(
        b, loc, value, arith::ConstantIntOp::create(b, loc, element, first));
    if (base)
      value = arith::AddIOp::create(b, loc, base, value);
    load.getResult().replaceAllUsesWith(value);
    load.erase();
  }
  for (memref::StoreOp store : stores)
    store.erase();
  array.erase();
  return true;
}

namespace {

struct KlxConstRegTensorPass
    : klx::impl::KlxConstRegTensorPassBase<KlxConstRegTensorPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> arrays;
    getOperation()->walk([&](memref::AllocaOp a) { arrays.push_back(a); });
    for (memref::AllocaOp array : arrays)
      replaceArithmeticArray(array);
  }
};

} // namespace
