//===- ThreadValues.cpp - Integer values as functions of the thread -------===//

#include "Analysis/Threads/ThreadValues.h"

#include "Analysis/Threads/IntegerFold.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace klx::threads;

namespace {

constexpr unsigned kLanesPerWarp = 32;

} // namespace

ThreadValues::ThreadValues(std::array<unsigned, 3> blockSize, Value tidX,
                           Value tidY, Value tidZ)
    : block(blockSize), tids{tidX, tidY, tidZ} {
  count = block[0] * block[1] * block[2];
}

const ThreadValues::Lanes *ThreadValues::eval(Value value) {
  const void *key = value.getAsOpaquePointer();
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second.get();
  std::optional<Lanes> lanes = compute(value);
  std::unique_ptr<Lanes> &slot = cache[key];
  if (lanes)
    slot = std::make_unique<Lanes>(std::move(*lanes));
  return slot.get();
}

ThreadValues::Lanes ThreadValues::threadIndex(unsigned dim) const {
  Lanes lanes(count);
  for (unsigned t = 0; t < count; ++t) {
    unsigned x = t % block[0], y = (t / block[0]) % block[1],
             z = t / (block[0] * block[1]);
    lanes[t] = dim == 0 ? x : dim == 1 ? y : z;
  }
  return lanes;
}

std::optional<ThreadValues::Lanes> ThreadValues::compute(Value value) {
  unsigned width = widthOf(value);
  if (width == 0)
    return std::nullopt;
  for (unsigned dim = 0; dim < 3; ++dim)
    if (tids[dim] && value == tids[dim])
      return threadIndex(dim);
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return threadIndex(unsigned(id.getDimension()));
  if (isa<NVVM::ThreadIdXOp>(op))
    return threadIndex(0);
  if (isa<NVVM::ThreadIdYOp>(op))
    return threadIndex(1);
  if (isa<NVVM::ThreadIdZOp>(op))
    return threadIndex(2);
  if (isa<gpu::LaneIdOp, NVVM::LaneIdOp>(op)) {
    Lanes lanes(count);
    for (unsigned t = 0; t < count; ++t)
      lanes[t] = t % kLanesPerWarp;
    return lanes;
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return Lanes(count, truncateTo(constant.getZExtValue(), width));

  if (!isFoldableInteger(op))
    return std::nullopt;
  SmallVector<const Lanes *, 3> in;
  for (Value operand : op->getOperands()) {
    in.push_back(eval(operand));
    if (!in.back())
      return std::nullopt;
  }
  Lanes lanes(count);
  SmallVector<uint64_t, 3> scalars(in.size());
  for (unsigned t = 0; t < count; ++t) {
    for (size_t i = 0; i < in.size(); ++i)
      scalars[i] = (*in[i])[t];
    std::optional<uint64_t> r = foldInteger(op, scalars);
    if (!r)
      return std::nullopt;
    lanes[t] = *r;
  }
  return lanes;
}
