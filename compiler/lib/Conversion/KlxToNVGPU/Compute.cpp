//===- Compute.cpp - The ops that compute on accumulators, to registers ---===//
//
// klx.map, klx.reduce (rows), klx.splat and klx.load_vector work on what
// each consumer thread holds of the output tile. A wgmma accumulator of 64
// rows x N columns leaves each thread of a warpgroup N / 2 f32: for each 8
// columns j and row half h, the pair of columns 8 j + 2 (lane % 4) and the
// next, in row 16 x warp + lane / 4 + 8 h, at elements 4 j + 2 h and the
// next of the fragment (one fragment per 64 rows the consumer holds). So a
// thread holds:
//
//   of a !klx.acc: every fragment's elements (an LLVM struct, as
//     convert-nvgpu-to-nvvm makes of the accumulator);
//   of a !klx.row: the values of its 2 rows per fragment, element 2 f + h;
//   of a !klx.col: the values of its N / 4 columns, element 2 j + k.
//
// A klx.map clones its body once per element the thread holds, with the
// element's row and column as constants past the thread's first; math ops
// become LLVM's intrinsics with approximate functions allowed (tanh.approx,
// ex2.approx), as fused epilogues use them. A row's reduction combines the
// thread's elements of the row, then the four lanes that share it (lane /
// 4 is the row) with two butterfly shuffles.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

/// Where this thread's elements lie in the tile: its first row (the
/// consumer's first row, + 16 warp + lane / 4) and first column (2 (lane %
/// 4)), as index.
struct ThreadElements {
  Value firstRow, firstColumn;
};

ThreadElements placeElements(Lowering &l, Location loc) {
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

int64_t fragmentsOf(const Lowering &l) {
  return l.schedule.rowsPerConsumer() / ScheduleAttr::kEpilogueBoxRows;
}

/// One element a thread holds of a map's result: fragment f and element e
/// of it for an accumulator; for a row vector element 2 f + h, for a
/// column vector 2 j + k.
struct Element {
  int64_t fragment = 0, index = 0; // the result's element
  int64_t rowOffset = -1;          // past the thread's first row (-1: none)
  int64_t columnOffset = -1;       // past its first column (-1: none)
  int64_t rowSlot = -1, columnSlot = -1; // in a row and a column vector
};

enum class Kind { Acc, Row, Col, Other };

Kind kindOf(const Lowering &l, Type type) {
  if (isa<nvgpu::WarpgroupAccumulatorType>(type))
    return Kind::Acc;
  return type == l.rowType   ? Kind::Row
         : type == l.colType ? Kind::Col
                             : Kind::Other;
}

/// Element `e` of fragment `f` of an accumulator: columns 8 j + k past
/// the thread's first, row half h.
Element accumulatorElement(int64_t f, int64_t e) {
  int64_t j = e / 4, h = (e / 2) % 2, k = e % 2;
  return {f, e, 64 * f + 8 * h, 8 * j + k, 2 * f + h, 2 * j + k};
}

/// The elements this thread holds of a value of `kind`.
SmallVector<Element> elementsOf(const Lowering &l, Kind kind) {
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

Value constantI64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

/// The element of `value` (of `kind`) at `at`, as f32.
Value elementAt(Lowering &l, Location loc, Kind kind, Value value,
                const Element &at) {
  OpBuilder &b = l.b;
  if (kind == Kind::Acc)
    return LLVM::ExtractValueOp::create(
        b, loc, value, ArrayRef<int64_t>{at.fragment, at.index});
  int64_t slot = kind == Kind::Row ? at.rowSlot : at.columnSlot;
  return LLVM::ExtractElementOp::create(b, loc, value,
                                        constantI64(b, loc, slot));
}

/// `value` as a thread holds it: an accumulator as its LLVM struct.
Value asHeld(Lowering &l, Location loc, Value value) {
  if (kindOf(l, value.getType()) != Kind::Acc)
    return value;
  return UnrealizedConversionCastOp::create(l.b, loc, l.accStruct(), value)
      .getResult(0);
}

/// A math op of a map's body as the approximate form fused epilogues use:
/// LLVM's tanh with approximate functions allowed (tanh.approx.f32), and
/// NVVM's approximate intrinsics where convert-gpu-to-nvvm would otherwise
/// turn LLVM's (exp2, sqrt, fabs) into libdevice calls (ex2.approx.f32,
/// sqrt.approx.f32, rsqrt.approx.f32). Null when klx does not lower it.
Value lowerMathOp(OpBuilder &b, Operation *op, ValueRange operands) {
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  if (!type.isF32())
    return Value();
  auto nvvm = [&](StringRef name, Value x) -> Value {
    return LLVM::CallIntrinsicOp::create(b, loc, type, b.getStringAttr(name),
                                         ValueRange{x})
        .getResult(0);
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](math::TanhOp) {
        auto afn = LLVM::FastmathFlagsAttr::get(b.getContext(),
                                                LLVM::FastmathFlags::afn);
        return LLVM::TanhOp::create(b, loc, type, operands[0], afn);
      })
      .Case([&](math::Exp2Op) {
        return nvvm("llvm.nvvm.ex2.approx", operands[0]);
      })
      .Case([&](math::ExpOp) {
        Value log2e =
            arith::ConstantOp::create(b, loc, b.getFloatAttr(type, M_LOG2E));
        return nvvm("llvm.nvvm.ex2.approx",
                    arith::MulFOp::create(b, loc, operands[0], log2e));
      })
      .Case([&](math::SqrtOp) {
        return nvvm("llvm.nvvm.sqrt.approx.f", operands[0]);
      })
      .Case([&](math::RsqrtOp) {
        return nvvm("llvm.nvvm.rsqrt.approx.f", operands[0]);
      })
      .Case([&](math::AbsFOp) { return nvvm("llvm.nvvm.fabs", operands[0]); })
      .Case([&](math::FmaOp) {
        return LLVM::FMAOp::create(b, loc, type, operands[0], operands[1],
                                   operands[2]);
      })
      .Default([](Operation *) { return Value(); });
}

/// Whether lowerMathOp lowers `op`.
bool isLoweredMathOp(Operation *op) {
  return isa<math::TanhOp, math::Exp2Op, math::ExpOp, math::SqrtOp,
             math::RsqrtOp, math::AbsFOp, math::FmaOp>(op) &&
         op->getResult(0).getType().isF32();
}

bool isLoweredBodyOp(Operation &op) {
  return (isa<arith::ArithDialect>(op.getDialect()) &&
          op.getNumRegions() == 0) ||
         isLoweredMathOp(&op);
}

constexpr const char *kBodyOpsLowered =
    "in a klx.map body is not lowered on Hopper: klx-to-nvgpu lowers arith "
    "ops and math.tanh, exp, exp2, sqrt, rsqrt, absf and fma on f32";

/// Clones `map`'s body once, its arguments mapped to `arguments`; returns
/// what it yields, or null after an error at the op it cannot lower.
Value cloneBody(OpBuilder &b, MapOp map, ArrayRef<Value> arguments) {
  Block &body = map.getBody().front();
  IRMapping mapping;
  for (auto [arg, value] : llvm::zip(body.getArguments(), arguments))
    mapping.map(arg, value);
  for (Operation &op : body.without_terminator()) {
    if (isa<arith::ArithDialect>(op.getDialect()) && op.getNumRegions() == 0) {
      b.clone(op, mapping);
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : op.getOperands())
      operands.push_back(mapping.lookupOrDefault(operand));
    Value lowered =
        isLoweredMathOp(&op) ? lowerMathOp(b, &op, operands) : Value();
    if (!lowered) {
      op.emitOpError(kBodyOpsLowered);
      return Value();
    }
    mapping.map(op.getResult(0), lowered);
  }
  return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
}

/// Where a thread reads its rows or columns of a vector (klx.load_vector):
/// from `start`, each read at an index clamped into the vector and
/// selected to zero past its end.
struct VectorSource {
  Value vector, start, length, last;
  Kind kind;
};

VectorSource placeVectorRead(Lowering &l, LoadVectorOp load, Value vector) {
  OpBuilder &b = l.b;
  Location loc = load.getLoc();
  ScheduleAttr s = l.schedule;
  Kind kind = isa<RowType>(load.getResult().getType()) ||
                      load.getResult().getType() == l.rowType
                  ? Kind::Row
                  : Kind::Col;
  ThreadElements first = placeElements(l, loc);
  int64_t tile = kind == Kind::Row ? s.getTileM() : s.getTileN();
  Value start = l.add(loc, l.mul(loc, load.getIndex(), tile),
                      kind == Kind::Row ? first.firstRow : first.firstColumn);
  Value length = memref::DimOp::create(b, loc, vector, 0);
  Value last = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, length, l.index(loc, 1)),
      l.index(loc, 0));
  return {vector, start, length, last, kind};
}

/// The vector's element `at` of this thread.
Value readVectorElement(Lowering &l, Location loc, const VectorSource &v,
                        const Element &at) {
  OpBuilder &b = l.b;
  Value index =
      l.add(loc, v.start, v.kind == Kind::Row ? at.rowOffset : at.columnOffset);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, v.length);
  Value clamped = arith::MinUIOp::create(b, loc, index, v.last);
  Value value = memref::LoadOp::create(b, loc, v.vector, clamped);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return arith::SelectOp::create(b, loc, inside, value, zero);
}

/// One input of a map as the thread reads it: a value it holds, or a
/// vector klx.load_vector reads where the map uses each element (so that
/// the thread does not hold all of a bias's columns with all of its
/// accumulators: at 128 x 256 that spilled).
struct MapInput {
  Kind kind = Kind::Other;
  Value held;
  std::optional<VectorSource> read;
  DenseMap<int64_t, Value> readSoFar; // slot -> element
};

Value elementOfInput(Lowering &l, Location loc, MapInput &input,
                     const Element &at) {
  if (!input.read)
    return elementAt(l, loc, input.kind, input.held, at);
  int64_t slot = input.kind == Kind::Row ? at.rowSlot : at.columnSlot;
  Value &element = input.readSoFar[slot];
  if (!element)
    element = readVectorElement(l, loc, *input.read, at);
  return element;
}

/// A map's result element by element: its inputs placed once (where the
/// builder is when it is made), then its body cloned for each element
/// asked for, at the builder's insertion point then.
class MapElements {
public:
  MapElements(Lowering &l, MapOp map, const DenseMap<Value, Value> &tensors)
      : l(l), map(map), first(placeElements(l, map.getLoc())) {
    for (Value input : map.getInputs()) {
      MapInput in;
      in.kind = kindOf(l, input.getType());
      if (auto load = input.getDefiningOp<LoadVectorOp>())
        in.read = placeVectorRead(l, load, tensors.lookup(load.getTensor()));
      else
        in.held = asHeld(l, map.getLoc(), input);
      inputs.push_back(std::move(in));
    }
    wantsPlace = map.getBody().getNumArguments() > inputs.size();
  }

  /// Reads the vectors' values `element` needs now, for at() to use later.
  void prefetch(const Element &element) {
    for (MapInput &input : inputs)
      if (input.read)
        elementOfInput(l, map.getLoc(), input, element);
  }

  /// The element, or null after an error on the map or its body.
  Value at(const Element &element) {
    Location loc = map.getLoc();
    SmallVector<Value> arguments;
    for (MapInput &input : inputs)
      arguments.push_back(elementOfInput(l, loc, input, element));
    if (wantsPlace) {
      if (element.rowOffset < 0 || element.columnOffset < 0) {
        map.emitOpError("over vectors has no ")
            << (element.rowOffset < 0 ? "row" : "column")
            << " to give its body: only a map to accumulators takes both";
        return Value();
      }
      arguments.push_back(l.add(loc, first.firstRow, element.rowOffset));
      arguments.push_back(l.add(loc, first.firstColumn, element.columnOffset));
    }
    return cloneBody(l.b, map, arguments);
  }

private:
  Lowering &l;
  MapOp map;
  ThreadElements first;
  SmallVector<MapInput> inputs;
  bool wantsPlace = false;
};

LogicalResult lowerMap(Lowering &l, MapOp map,
                       const DenseMap<Value, Value> &tensors) {
  OpBuilder &b = l.b;
  Location loc = map.getLoc();
  Kind resultKind = kindOf(l, map.getResult().getType());
  MapElements elements(l, map, tensors);
  Type resultType =
      resultKind == Kind::Acc ? Type(l.accStruct()) : map.getResult().getType();
  Value result = LLVM::PoisonOp::create(b, loc, resultType);
  for (const Element &at : elementsOf(l, resultKind)) {
    Value value = elements.at(at);
    if (!value)
      return failure();
    if (resultKind == Kind::Acc)
      result = LLVM::InsertValueOp::create(
          b, loc, result, value, ArrayRef<int64_t>{at.fragment, at.index});
    else
      result = LLVM::InsertElementOp::create(b, loc, result, value,
                                             constantI64(b, loc, at.index));
  }
  if (resultKind == Kind::Acc)
    result = UnrealizedConversionCastOp::create(b, loc, l.accType, result)
                 .getResult(0);
  map.replaceAllUsesWith(result);
  map.erase();
  return success();
}

/// Combines two values as `kind` does.
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x, Value y) {
  switch (kind) {
  case ReduceKind::Max:
    return arith::MaxNumFOp::create(b, loc, x, y);
  case ReduceKind::Min:
    return arith::MinNumFOp::create(b, loc, x, y);
  case ReduceKind::Sum:
    return arith::AddFOp::create(b, loc, x, y);
  }
  llvm_unreachable("every reduction kind is handled");
}

/// Each row's reduction: the thread's elements of the row, then across the
/// four lanes that share it (lanes 4 r to 4 r + 3), by butterfly shuffles
/// over lane bits 0 and 1.
void lowerReduceRows(Lowering &l, ReduceOp reduce) {
  OpBuilder &b = l.b;
  Location loc = reduce.getLoc();
  Value acc = asHeld(l, loc, reduce.getInput());
  SmallVector<Value> rows(2 * fragmentsOf(l));
  for (const Element &at : elementsOf(l, Kind::Acc)) {
    Value x = elementAt(l, loc, Kind::Acc, acc, at);
    Value &row = rows[at.rowSlot];
    row = row ? combine(b, loc, reduce.getKind(), row, x) : x;
  }
  Type i32 = b.getI32Type();
  Value everyLane = arith::ConstantIntOp::create(b, loc, i32, -1);
  Value clamp = arith::ConstantIntOp::create(b, loc, i32, 0x1f);
  Value result = LLVM::PoisonOp::create(b, loc, l.rowType);
  for (auto [slot, row] : llvm::enumerate(rows)) {
    for (int64_t distance : {1, 2}) {
      Value offset = arith::ConstantIntOp::create(b, loc, i32, distance);
      Value other =
          NVVM::ShflOp::create(b, loc, row.getType(), everyLane, row, offset,
                               clamp, NVVM::ShflKind::bfly, UnitAttr());
      row = combine(b, loc, reduce.getKind(), row, other);
    }
    result = LLVM::InsertElementOp::create(b, loc, result, row,
                                           constantI64(b, loc, slot));
  }
  reduce.replaceAllUsesWith(result);
  reduce.erase();
}

void lowerSplat(Lowering &l, SplatOp splat) {
  OpBuilder &b = l.b;
  Location loc = splat.getLoc();
  Type type = splat.getResult().getType();
  Kind kind = kindOf(l, type);
  Value result;
  if (kind == Kind::Acc) {
    result = LLVM::PoisonOp::create(b, loc, l.accStruct());
    for (const Element &at : elementsOf(l, kind))
      result =
          LLVM::InsertValueOp::create(b, loc, result, splat.getValue(),
                                      ArrayRef<int64_t>{at.fragment, at.index});
    result = UnrealizedConversionCastOp::create(b, loc, l.accType, result)
                 .getResult(0);
  } else {
    result = LLVM::PoisonOp::create(b, loc, type);
    for (const Element &at : elementsOf(l, kind))
      result = LLVM::InsertElementOp::create(b, loc, result, splat.getValue(),
                                             constantI64(b, loc, at.index));
  }
  splat.replaceAllUsesWith(result);
  splat.erase();
}

/// The whole of this thread's share of the vector, as a value: for a
/// vector that is carried or used by other than klx.map.
void lowerLoadVector(Lowering &l, LoadVectorOp load, Value vector) {
  OpBuilder &b = l.b;
  Location loc = load.getLoc();
  VectorSource source = placeVectorRead(l, load, vector);
  Value result = LLVM::PoisonOp::create(b, loc, load.getResult().getType());
  for (const Element &at : elementsOf(l, source.kind))
    result = LLVM::InsertElementOp::create(
        b, loc, result, readVectorElement(l, loc, source, at),
        constantI64(b, loc, at.index));
  load.replaceAllUsesWith(result);
  load.erase();
}

} // namespace

LLVM::LLVMStructType Lowering::accStruct() const {
  return accumulatorStruct(b.getContext(), schedule.rowsPerConsumer(),
                           schedule.getTileN());
}

void nvgpu_lowering::retypeVectors(Lowering &l, gpu::GPUFuncOp func) {
  auto retype = [&](Value value) {
    if (isa<RowType>(value.getType()))
      value.setType(l.rowType);
    else if (isa<ColType>(value.getType()))
      value.setType(l.colType);
  };
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      retype(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          retype(arg);
  });
}

LogicalResult nvgpu_lowering::checkMapBodies(KernelOp kernel) {
  WalkResult walked = kernel.walk([](MapOp map) {
    Block &body = map.getBody().front();
    for (Operation &op : body.without_terminator())
      if (!isLoweredBodyOp(op)) {
        op.emitOpError(kBodyOpsLowered);
        return WalkResult::interrupt();
      }
    bool vectors = !isa<AccType>(map.getResult().getType());
    if (vectors && body.getNumArguments() > map.getInputs().size()) {
      map.emitOpError("over vectors has no row and column to give its "
                      "body: only a map to accumulators takes them");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walked.wasInterrupted());
}

bool nvgpu_lowering::isComputeOp(Operation *op) {
  return isa<MapOp, ReduceOp, SplatOp, LoadVectorOp>(op);
}

bool nvgpu_lowering::isMapIntoStore(const Lowering &l, Operation *op) {
  auto map = dyn_cast<MapOp>(op);
  return map && l.schedule.getTmaStore() && map->hasOneUse() &&
         isa<StoreOp>(*map->user_begin()) &&
         kindOf(l, map.getResult().getType()) == Kind::Acc;
}

LogicalResult
nvgpu_lowering::lowerMapIntoStore(Lowering &l, StoreOp store,
                                  const DenseMap<Value, Value> &tensors) {
  auto map = store.getAcc().getDefiningOp<MapOp>();
  l.b.setInsertionPoint(store);
  MapElements elements(l, map, tensors);
  bool failed = false;
  auto element = [&](int64_t f, int64_t at) -> Value {
    Value value = failed ? Value() : elements.at(accumulatorElement(f, at));
    failed |= !value;
    return value ? value
                 : LLVM::PoisonOp::create(l.b, map.getLoc(), l.b.getF32Type());
  };
  auto prefetch = [&](int64_t f, int64_t at) {
    elements.prefetch(accumulatorElement(f, at));
  };
  lowerStoreThroughTma(l, store, element, prefetch);
  map.erase();
  return failure(failed);
}

LogicalResult
nvgpu_lowering::lowerComputeOp(Lowering &l, Operation *op,
                               const DenseMap<Value, Value> &tensors) {
  l.b.setInsertionPoint(op);
  if (isMapIntoStore(l, op))
    return success(); // with its store
  if (auto map = dyn_cast<MapOp>(op))
    return lowerMap(l, map, tensors);
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    if (reduce.getAxis() != Axis::Rows)
      return reduce.emitOpError("klx-to-nvgpu reduces along rows only");
    lowerReduceRows(l, reduce);
  } else if (auto splat = dyn_cast<SplatOp>(op)) {
    lowerSplat(l, splat);
  } else if (auto load = dyn_cast<LoadVectorOp>(op)) {
    // A vector only maps read is read there, element by element (lowerMap);
    // the op goes once they are lowered.
    if (!llvm::all_of(load->getUsers(),
                      [](Operation *user) { return isa<MapOp>(user); }))
      lowerLoadVector(l, load, tensors.lookup(load.getTensor()));
  }
  return success();
}
