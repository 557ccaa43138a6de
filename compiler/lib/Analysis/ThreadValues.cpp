//===- ThreadValues.cpp - Integer values as functions of the thread -------===//

#include "ThreadValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace klx::roletree;

namespace {

constexpr unsigned kLanesPerWarp = 32;

/// Bits of an integer or index value; 0 for anything else.
unsigned widthOf(Value value) {
  Type type = value.getType();
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() <= 64 ? integer.getWidth() : 0;
  return 0;
}

uint64_t truncate(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
}

int64_t signExtend(uint64_t v, unsigned width) {
  if (width >= 64)
    return int64_t(v);
  uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t((v ^ sign) - sign);
}

bool compare(arith::CmpIPredicate predicate, uint64_t x, uint64_t y,
             unsigned width) {
  int64_t sx = signExtend(x, width), sy = signExtend(y, width);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return x == y;
  case arith::CmpIPredicate::ne:
    return x != y;
  case arith::CmpIPredicate::slt:
    return sx < sy;
  case arith::CmpIPredicate::sle:
    return sx <= sy;
  case arith::CmpIPredicate::sgt:
    return sx > sy;
  case arith::CmpIPredicate::sge:
    return sx >= sy;
  case arith::CmpIPredicate::ult:
    return x < y;
  case arith::CmpIPredicate::ule:
    return x <= y;
  case arith::CmpIPredicate::ugt:
    return x > y;
  case arith::CmpIPredicate::uge:
    return x >= y;
  }
  return false;
}

/// `op` applied to one lane, at `width` bits; nullopt where it is undefined
/// or not an op klx evaluates.
std::optional<uint64_t> applyBinary(Operation *op, uint64_t x, uint64_t y,
                                    unsigned width) {
  int64_t sx = signExtend(x, width), sy = signExtend(y, width);
  int64_t minSigned = signExtend(uint64_t(1) << (width - 1), width);
  bool signedOverflow = sy == -1 && sx == minSigned;
  if (isa<arith::AddIOp>(op))
    return x + y;
  if (isa<arith::SubIOp>(op))
    return x - y;
  if (isa<arith::MulIOp>(op))
    return x * y;
  if (isa<arith::AndIOp>(op))
    return x & y;
  if (isa<arith::OrIOp>(op))
    return x | y;
  if (isa<arith::XOrIOp>(op))
    return x ^ y;
  if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
    if (y >= width)
      return std::nullopt; // poison
    if (isa<arith::ShLIOp>(op))
      return x << y;
    if (isa<arith::ShRUIOp>(op))
      return x >> y;
    return uint64_t(sx >> y);
  }
  if (isa<arith::MinUIOp>(op))
    return std::min(x, y);
  if (isa<arith::MaxUIOp>(op))
    return std::max(x, y);
  if (isa<arith::MinSIOp>(op))
    return uint64_t(std::min(sx, sy));
  if (isa<arith::MaxSIOp>(op))
    return uint64_t(std::max(sx, sy));
  if (y == 0)
    return std::nullopt; // division by zero
  if (isa<arith::DivUIOp>(op))
    return x / y;
  if (isa<arith::RemUIOp>(op))
    return x % y;
  if (isa<arith::CeilDivUIOp>(op))
    return x / y + (x % y != 0);
  if (signedOverflow)
    return std::nullopt;
  if (isa<arith::DivSIOp>(op))
    return uint64_t(sx / sy);
  if (isa<arith::RemSIOp>(op))
    return uint64_t(sx % sy);
  return std::nullopt;
}

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
    return Lanes(count, truncate(constant.getZExtValue(), width));

  Operation::operand_range operands = op->getOperands();
  auto operandLanes = [&](unsigned i) -> const Lanes * {
    return i < operands.size() ? eval(operands[i]) : nullptr;
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
          arith::ExtSIOp, arith::TruncIOp>(op)) {
    const Lanes *in = operandLanes(0);
    if (!in)
      return std::nullopt;
    unsigned inWidth = widthOf(operands[0]);
    // index_cast and extsi extend the sign; the rest zero-extend or cut.
    bool signExtends = isa<arith::ExtSIOp>(op) ||
                       (isa<arith::IndexCastOp>(op) && inWidth < width);
    Lanes lanes(*in);
    for (uint64_t &v : lanes)
      v = truncate(signExtends ? uint64_t(signExtend(v, inWidth)) : v, width);
    return lanes;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    const Lanes *c = operandLanes(0);
    const Lanes *a = c ? operandLanes(1) : nullptr;
    const Lanes *b = a ? operandLanes(2) : nullptr;
    if (!b)
      return std::nullopt;
    Lanes lanes(count);
    for (unsigned t = 0; t < count; ++t)
      lanes[t] = ((*c)[t] & 1) ? (*a)[t] : (*b)[t];
    return lanes;
  }
  if (operands.size() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  const Lanes *a = operandLanes(0);
  const Lanes *b = a ? operandLanes(1) : nullptr;
  if (!b)
    return std::nullopt;
  auto cmp = dyn_cast<arith::CmpIOp>(op);
  unsigned operandWidth = widthOf(operands[0]);
  Lanes lanes(count);
  for (unsigned t = 0; t < count; ++t) {
    if (cmp) {
      lanes[t] = compare(cmp.getPredicate(), (*a)[t], (*b)[t], operandWidth);
      continue;
    }
    std::optional<uint64_t> r = applyBinary(op, (*a)[t], (*b)[t], width);
    if (!r)
      return std::nullopt;
    lanes[t] = truncate(*r, width);
  }
  return lanes;
}
