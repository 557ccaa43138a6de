//===- ThreadElements.cpp - What a consumer thread holds of a tile --------===//
//
// A wgmma accumulator of 64 rows x N columns leaves each thread of a
// warpgroup N / 2 f32: for each 8 columns j and row half h, the pair of
// columns 8 j + 2 (lane % 4) and the next, in row 16 x warp + lane / 4 +
// 8 h, at elements 4 j + 2 h and the next of the fragment (one fragment
// per 64 rows the consumer holds). So a thread holds, of a !klx.acc, every
// fragment's elements (an LLVM struct, as convert-nvgpu-to-nvvm makes of
// the accumulator); of a !klx.row, the values of its 2 rows per fragment,
// element 2 f + h; of a !klx.col, the values of its N / 4 columns,
// element 2 j + k.
//
//===----------------------------------------------------------------------===//

#include "ThreadElements.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

ThreadElements nvgpu_lowering::placeElements(Lowering &l, Location loc) {
  OpBuilder &b = l.b;
  ScheduleAttr s = l.schedule;
  Value inGroup = arith::RemUIOp::create(b, loc, l.threadId, l.index(loc, 128));
  Value lane = arith::RemUIOp::create(b, loc, inGroup, l.index(loc, 32));
  Value warp = arith::DivUIOp::create(b, loc, inGroup, l.index(loc, 32));
  Value row = l.add(loc, l.mul(loc, warp, 16),
                    arith::DivUIOp::create(b, loc, lane, l.index(loc, 4)));
  // Consumer c (warpgroup c) holds rows c x rowsPerConsumer on; a ping-pong
  // consumer holds a whole tile of its own.
  if (!s.getPingpong())
    row = l.add(loc, row, l.mul(loc, l.warpgroup, s.rowsPerConsumer()));
  Value column =
      l.mul(loc, arith::RemUIOp::create(b, loc, lane, l.index(loc, 4)), 2);
  return {row, column};
}

int64_t nvgpu_lowering::fragmentsOf(const Lowering &l) {
  return l.schedule.rowsPerConsumer() / ScheduleAttr::kEpilogueBoxRows;
}

Kind nvgpu_lowering::kindOf(const Lowering &l, Type type) {
  if (isa<nvgpu::WarpgroupAccumulatorType>(type))
    return Kind::Acc;
  return type == l.rowType   ? Kind::Row
         : type == l.colType ? Kind::Col
                             : Kind::Other;
}

Element nvgpu_lowering::accumulatorElement(int64_t f, int64_t e) {
  int64_t j = e / 4, h = (e / 2) % 2, k = e % 2;
  return {f, e, 64 * f + 8 * h, 8 * j + k, 2 * f + h, 2 * j + k};
}

SmallVector<Element> nvgpu_lowering::elementsOf(const Lowering &l, Kind kind) {
  SmallVector<Element> elements;
  int64_t columns = l.schedule.getTileN();
  if (kind == Kind::Acc) {
    for (int64_t f = 0; f < fragmentsOf(l); ++f)
      for (int64_t e = 0; e < columns / 2; ++e)
        elements.push_back(accumulatorElement(f, e));
  } else if (kind == Kind::Row) {
    for (int64_t i = 0; i < 2 * fragmentsOf(l); ++i)
      elements.push_back({0, i, 64 * (i / 2) + 8 * (i % 2), -1, i, -1});
  } else {
    for (int64_t i = 0; i < columns / 4; ++i)
      elements.push_back({0, i, -1, 8 * (i / 2) + i % 2, -1, i});
  }
  return elements;
}

Value nvgpu_lowering::constantI64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value nvgpu_lowering::elementAt(Lowering &l, Location loc, Kind kind,
                                Value value, const Element &at) {
  OpBuilder &b = l.b;
  if (kind == Kind::Acc)
    return LLVM::ExtractValueOp::create(
        b, loc, value, ArrayRef<int64_t>{at.fragment, at.index});
  int64_t slot = kind == Kind::Row ? at.rowSlot : at.columnSlot;
  return LLVM::ExtractElementOp::create(b, loc, value,
                                        constantI64(b, loc, slot));
}

Value nvgpu_lowering::asHeld(Lowering &l, Location loc, Value value) {
  if (kindOf(l, value.getType()) != Kind::Acc)
    return value;
  return UnrealizedConversionCastOp::create(l.b, loc, l.accStruct(), value)
      .getResult(0);
}

Value nvgpu_lowering::assembleHeld(Lowering &l, Location loc, Kind kind,
                                   ArrayRef<Element> at,
                                   ArrayRef<Value> values) {
  OpBuilder &b = l.b;
  Type type = kind == Kind::Acc   ? Type(l.accStruct())
              : kind == Kind::Row ? Type(l.rowType)
                                  : Type(l.colType);
  Value result = LLVM::PoisonOp::create(b, loc, type);
  for (auto [element, value] : llvm::zip(at, values))
    result =
        kind == Kind::Acc
            ? Value(LLVM::InsertValueOp::create(
                  b, loc, result, value,
                  ArrayRef<int64_t>{element.fragment, element.index}))
            : Value(LLVM::InsertElementOp::create(
                  b, loc, result, value, constantI64(b, loc, element.index)));
  if (kind != Kind::Acc)
    return result;
  return UnrealizedConversionCastOp::create(b, loc, l.accType, result)
      .getResult(0);
}

VectorSource nvgpu_lowering::placeVectorRead(Lowering &l, LoadVectorOp load,
                                             Value vector) {
  OpBuilder &b = l.b;
  Location loc = load.getLoc();
  ScheduleAttr s = l.schedule;
  // Vectors are retyped to what a thread holds before any op is lowered.
  Kind kind = kindOf(l, load.getResult().getType());
  ThreadElements first = placeElements(l, loc);
  int64_t tile = kind == Kind::Row ? s.getTileM() : s.getTileN();
  Value tileStart = l.mul(loc, load.getIndex(), tile);
  Value start = l.add(loc, tileStart,
                      kind == Kind::Row ? first.firstRow : first.firstColumn);
  Value length = memref::DimOp::create(b, loc, vector, 0);
  Value last = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, length, l.index(loc, 1)),
      l.index(loc, 0));
  Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                      l.add(loc, tileStart, tile), length);
  return {vector, start, length, last, whole, kind};
}

namespace {

int64_t offsetOf(const VectorSource &v, const Element &at) {
  return v.kind == Kind::Row ? at.rowOffset : at.columnOffset;
}

/// The elements, each read at an index clamped into the vector, then
/// selected to zero past it (the reads first, together, then the selects).
SmallVector<Value> readClamped(Lowering &l, Location loc, const VectorSource &v,
                               ArrayRef<Element> at) {
  OpBuilder &b = l.b;
  SmallVector<Value> inside, values;
  for (const Element &element : at) {
    Value index = l.add(loc, v.start, offsetOf(v, element));
    inside.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           index, v.length));
    Value clamped = arith::MinUIOp::create(b, loc, index, v.last);
    values.push_back(memref::LoadOp::create(b, loc, v.vector, clamped));
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  for (auto [value, in] : llvm::zip(values, inside))
    value = arith::SelectOp::create(b, loc, in, value, zero);
  return values;
}

} // namespace

SmallVector<Value> nvgpu_lowering::readVectorElements(Lowering &l, Location loc,
                                                      const VectorSource &v,
                                                      ArrayRef<Element> at) {
  OpBuilder &b = l.b;
  SmallVector<Type> types(at.size(), b.getF32Type());
  auto branch = scf::IfOp::create(b, loc, types, v.whole, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  SmallVector<Value> inside;
  for (const Element &element : at)
    inside.push_back(memref::LoadOp::create(
        b, loc, v.vector, l.add(loc, v.start, offsetOf(v, element))));
  scf::YieldOp::create(b, loc, inside);
  b.setInsertionPointToStart(branch.elseBlock());
  scf::YieldOp::create(b, loc, readClamped(l, loc, v, at));
  return SmallVector<Value>(branch.getResults());
}

void nvgpu_lowering::lowerLoadVector(Lowering &l, LoadVectorOp load,
                                     Value vector) {
  Location loc = load.getLoc();
  VectorSource source = placeVectorRead(l, load, vector);
  SmallVector<Element> elements = elementsOf(l, source.kind);
  SmallVector<Value> values = readVectorElements(l, loc, source, elements);
  load.replaceAllUsesWith(assembleHeld(l, loc, source.kind, elements, values));
  load.erase();
}
