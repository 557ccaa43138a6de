//===- Compute.cpp - The ops that compute on accumulators, to registers ---===//
//
// klx.map, klx.reduce (rows), klx.splat and klx.load_vector work on what
// each consumer thread holds of the output tile (ThreadElements.cpp says
// what that is).
//
// A klx.map clones its body once per element the thread holds, with the
// element's row and column as constants past the thread's first; math ops
// become LLVM's intrinsics with approximate functions allowed (tanh.approx,
// ex2.approx), as fused epilogues use them. A row's reduction combines the
// thread's elements of the row, then the four lanes that share it (lane /
// 4 is the row) with two butterfly shuffles. A klx.map into klx.as_operand
// packs each pair of its 16-bit elements into the 32-bit registers wgmma
// reads A from (Mma.cpp issues that wgmma).
//
//===----------------------------------------------------------------------===//

#include "ThreadElements.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

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
    element = readVectorElements(l, loc, *input.read, {at}).front();
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

  /// Reads the vectors' values `elements` need now, in one read per
  /// vector (readVectorElements), for at() to use later.
  void prefetch(ArrayRef<Element> elements) {
    for (MapInput &input : inputs) {
      if (!input.read)
        continue;
      SmallVector<Element> missing;
      SmallVector<int64_t> slots;
      for (const Element &element : elements) {
        int64_t slot =
            input.kind == Kind::Row ? element.rowSlot : element.columnSlot;
        if (!input.readSoFar.count(slot) && !llvm::is_contained(slots, slot)) {
          slots.push_back(slot);
          missing.push_back(element);
        }
      }
      if (missing.empty())
        continue;
      SmallVector<Value> values =
          readVectorElements(l, map.getLoc(), *input.read, missing);
      for (auto [slot, value] : llvm::zip(slots, values))
        input.readSoFar[slot] = value;
    }
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
  Location loc = map.getLoc();
  Kind resultKind = kindOf(l, map.getResult().getType());
  MapElements elements(l, map, tensors);
  SmallVector<Element> at = elementsOf(l, resultKind);
  SmallVector<Value> values;
  for (const Element &element : at) {
    values.push_back(elements.at(element));
    if (!values.back())
      return failure();
  }
  Value result = assembleHeld(l, loc, resultKind, at, values);
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
  // Each row's elements combined pairwise, as a tree: a chain of tile_n
  // / 4 dependent ops becomes log2 of that many levels.
  SmallVector<SmallVector<Value>> elements(2 * fragmentsOf(l));
  for (const Element &at : elementsOf(l, Kind::Acc))
    elements[at.rowSlot].push_back(elementAt(l, loc, Kind::Acc, acc, at));
  SmallVector<Value> rows;
  for (SmallVector<Value> &level : elements) {
    while (level.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < level.size(); i += 2)
        next.push_back(
            combine(b, loc, reduce.getKind(), level[i], level[i + 1]));
      if (level.size() % 2)
        next.push_back(level.back());
      level = std::move(next);
    }
    rows.push_back(level.front());
  }
  Type i32 = b.getI32Type();
  Value everyLane = arith::ConstantIntOp::create(b, loc, i32, -1);
  Value clamp = arith::ConstantIntOp::create(b, loc, i32, 0x1f);
  for (Value &row : rows) {
    for (int64_t distance : {1, 2}) {
      Value offset = arith::ConstantIntOp::create(b, loc, i32, distance);
      Value other =
          NVVM::ShflOp::create(b, loc, row.getType(), everyLane, row, offset,
                               clamp, NVVM::ShflKind::bfly, UnitAttr());
      row = combine(b, loc, reduce.getKind(), row, other);
    }
  }
  // Row vector element i is row slot i.
  reduce.replaceAllUsesWith(
      assembleHeld(l, loc, Kind::Row, elementsOf(l, Kind::Row), rows));
  reduce.erase();
}

void lowerSplat(Lowering &l, SplatOp splat) {
  Location loc = splat.getLoc();
  Kind kind = kindOf(l, splat.getResult().getType());
  SmallVector<Element> at = elementsOf(l, kind);
  SmallVector<Value> values(at.size(), splat.getValue());
  Value result = assembleHeld(l, loc, kind, at, values);
  splat.replaceAllUsesWith(result);
  splat.erase();
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
  return isa<MapOp, ReduceOp, SplatOp, LoadVectorOp, AsOperandOp>(op);
}

namespace {

/// A map whose one user is klx.as_operand: computed there, into registers.
bool isMapIntoOperand(Operation *op) {
  return isa<MapOp>(op) && op->hasOneUse() &&
         isa<AsOperandOp>(*op->user_begin());
}

/// The map's elements, as the thread holds an accumulator's (fragment by
/// fragment, 4 j + 2 h + k), in pairs: the two columns 8 j + 2 (lane % 4)
/// and the next of one row are one 32-bit register, the lower column in
/// the lower half, which is how wgmma's A operand is laid out. Pair 4 s + r
/// of a fragment is register r of its k step s (16 columns), so the
/// accumulators of one MMA are the A operand of the next as they lie.
LogicalResult lowerAsOperand(Lowering &l, AsOperandOp op,
                             const DenseMap<Value, Value> &tensors) {
  auto map = op.getInput().getDefiningOp<MapOp>();
  if (!map)
    return op.emitOpError("klx-to-nvgpu takes an A operand in registers from "
                          "a klx.map that converts accumulators to 16 bits");
  OpBuilder &b = l.b;
  Location loc = op.getLoc();
  Type half = cast<FragType>(op.getResult().getType()).getElementType();
  if (!half)
    half = l.schedule.getDtype();
  MapElements elements(l, map, tensors);
  SmallVector<Element> at = elementsOf(l, Kind::Acc);
  auto pairType = VectorType::get({2}, half);
  Value registers = LLVM::PoisonOp::create(
      b, loc, VectorType::get({int64_t(at.size() / 2)}, b.getI32Type()));
  for (size_t i = 0; i + 1 < at.size(); i += 2) {
    Value pair = LLVM::PoisonOp::create(b, loc, pairType);
    for (int64_t k = 0; k < 2; ++k) {
      Value value = elements.at(at[i + k]);
      if (!value)
        return failure();
      if (value.getType() != half)
        return map.emitOpError("yields ")
               << value.getType() << " where its A operand holds " << half;
      pair = LLVM::InsertElementOp::create(b, loc, pair, value,
                                           constantI64(b, loc, k));
    }
    Value packed = LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair);
    registers = LLVM::InsertElementOp::create(
        b, loc, registers, packed, constantI64(b, loc, int64_t(i / 2)));
  }
  op.replaceAllUsesWith(registers);
  op.erase();
  map.erase();
  return success();
}

} // namespace

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
  auto prefetch = [&](int64_t f, ArrayRef<int64_t> at) {
    SmallVector<Element> box;
    for (int64_t e : at)
      box.push_back(accumulatorElement(f, e));
    elements.prefetch(box);
  };
  lowerStoreThroughTma(l, store, element, prefetch);
  map.erase();
  return failure(failed);
}

LogicalResult
nvgpu_lowering::lowerComputeOp(Lowering &l, Operation *op,
                               const DenseMap<Value, Value> &tensors) {
  l.b.setInsertionPoint(op);
  if (isMapIntoStore(l, op) || isMapIntoOperand(op))
    return success(); // with its store or its klx.as_operand
  if (auto asOperand = dyn_cast<AsOperandOp>(op))
    return lowerAsOperand(l, asOperand, tensors);
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
