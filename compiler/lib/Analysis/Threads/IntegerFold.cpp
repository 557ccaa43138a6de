//===- IntegerFold.cpp - One arith op on known integers -------------------===//

#include "Analysis/Threads/IntegerFold.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace klx::threads;

unsigned klx::threads::widthOf(Value value) {
  Type type = value.getType();
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() <= 64 ? integer.getWidth() : 0;
  return 0;
}

uint64_t klx::threads::truncateTo(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
}

namespace {

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

bool klx::threads::isFoldableInteger(Operation *op) {
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
          arith::ExtSIOp, arith::TruncIOp, arith::SelectOp, arith::CmpIOp>(op))
    return true;
  return op->getNumOperands() == 2 && op->getNumResults() == 1 &&
         isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
             arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRUIOp,
             arith::ShRSIOp, arith::MinUIOp, arith::MaxUIOp, arith::MinSIOp,
             arith::MaxSIOp, arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp,
             arith::DivSIOp, arith::RemSIOp>(op);
}

std::optional<uint64_t> klx::threads::foldInteger(Operation *op,
                                                  ArrayRef<uint64_t> operands) {
  if (op->getNumResults() != 1 || operands.size() != op->getNumOperands())
    return std::nullopt;
  unsigned width = widthOf(op->getResult(0));
  if (width == 0 || !isFoldableInteger(op))
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
          arith::ExtSIOp, arith::TruncIOp>(op)) {
    unsigned inWidth = widthOf(op->getOperand(0));
    if (inWidth == 0)
      return std::nullopt;
    // index_cast and extsi extend the sign; the rest zero-extend or cut.
    bool signExtends = isa<arith::ExtSIOp>(op) ||
                       (isa<arith::IndexCastOp>(op) && inWidth < width);
    uint64_t v = operands[0];
    return truncateTo(signExtends ? uint64_t(signExtend(v, inWidth)) : v,
                      width);
  }
  if (isa<arith::SelectOp>(op))
    return (operands[0] & 1) ? operands[1] : operands[2];
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return uint64_t(compare(cmp.getPredicate(), operands[0], operands[1],
                            widthOf(op->getOperand(0))));
  std::optional<uint64_t> r = applyBinary(op, operands[0], operands[1], width);
  if (!r)
    return std::nullopt;
  return truncateTo(*r, width);
}
