//===- KlxComputeOps.cpp - The verifiers of the ops that compute ----------===//
//
// Loads, MMAs and the ops on accumulators and vectors check that the
// shapes they are written with agree: an MMA's M x K by K x N into M x N,
// a vector as long as the rows or columns it is broadcast along, one
// element of the right type per input in a klx.map's body. Tiles and
// vectors left to the schedule (`!klx.acc`, `!klx.col`) are checked when
// the schedule is known (klx-materialize-schedule).
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace klx;

namespace {

/// A klx value type's shape and element type, where written.
struct Shape {
  ArrayRef<int64_t> dims;
  Type element;
  bool known() const { return !dims.empty(); }
};

Shape shapeOf(Type type) {
  return llvm::TypeSwitch<Type, Shape>(type)
      .Case<TileType, AccType, RowType, ColType, FragType>(
          [](auto t) { return Shape{t.getShape(), t.getElementType()}; })
      .Default([](Type) { return Shape{}; });
}

/// The element a body sees of an input: the written one, or f32 for the
/// schedule's accumulators.
Type elementOf(Type type) {
  Shape shape = shapeOf(type);
  return shape.known() ? shape.element : Float32Type::get(type.getContext());
}

bool isSixteenBit(Type type) { return type.isF16() || type.isBF16(); }

} // namespace

LogicalResult LoadOp::verify() {
  if (getTransposed() && getOperand() != Operand::B)
    return emitOpError("only a B operand is loaded transposed");
  Shape tile = shapeOf(getTile().getType());
  if (tile.known() && !isSixteenBit(tile.element))
    return emitOpError("operand tiles hold f16 or bf16, not ") << tile.element;
  return success();
}

LogicalResult MmaOp::verify() {
  if (getResult().getType() != getAcc().getType())
    return emitOpError("the result has the accumulators' type");
  Shape a = shapeOf(getA().getType()), b = shapeOf(getB().getType()),
        acc = shapeOf(getAcc().getType());
  if (!a.known() && !b.known() && !acc.known())
    return success(); // the schedule's tiles
  if (!a.known() || !b.known() || !acc.known())
    return emitOpError("write the shapes of a, b and the accumulators, or of "
                       "none (the schedule's tiles)");
  if (a.dims[1] != b.dims[0])
    return emitOpError("a is ")
           << a.dims[0] << " x " << a.dims[1] << " (M x K) but b is "
           << b.dims[0] << " x " << b.dims[1] << " (K x N): K differs";
  if (acc.dims[0] != a.dims[0] || acc.dims[1] != b.dims[1])
    return emitOpError("the accumulators are ")
           << acc.dims[0] << " x " << acc.dims[1] << " but a * b is "
           << a.dims[0] << " x " << b.dims[1];
  if (a.element != b.element || !isSixteenBit(a.element))
    return emitOpError("a and b hold one element type, f16 or bf16; got ")
           << a.element << " and " << b.element;
  if (!acc.element.isF32())
    return emitOpError("the accumulators are f32, not ") << acc.element;
  return success();
}

LogicalResult SplatOp::verify() {
  Type type = getResult().getType();
  if (elementOf(type) != getValue().getType())
    return emitOpError("splats a ")
           << getValue().getType() << " into elements of " << elementOf(type);
  return success();
}

LogicalResult MapOp::verify() {
  Type result = getResult().getType();
  Shape out = shapeOf(result);
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    Type type = input.getType();
    Shape in = shapeOf(type);
    bool vectorResult = isa<RowType, ColType>(result);
    if (vectorResult && type.getTypeID() != result.getTypeID())
      return emitOpError("a ")
             << result << " result takes vectors of its kind only; input #" << i
             << " is " << type;
    if (!in.known() || !out.known())
      continue;
    // The dimension the input is broadcast along, in the result's shape.
    int64_t want =
        isa<ColType>(type) && !vectorResult ? out.dims[1] : out.dims[0];
    if (isa<AccType>(type) ? in.dims != out.dims : in.dims[0] != want)
      return emitOpError("input #")
             << i << " is " << type << ", which does not fit a " << result
             << " result";
  }
  return success();
}

LogicalResult MapOp::verifyRegions() {
  Block &body = getBody().front();
  size_t inputs = getInputs().size();
  if (body.getNumArguments() != inputs && body.getNumArguments() != inputs + 2)
    return emitOpError("the body takes one element per input (")
           << inputs << "), then optionally the row and the column; it takes "
           << body.getNumArguments();
  for (auto [i, input] : llvm::enumerate(getInputs()))
    if (body.getArgument(i).getType() != elementOf(input.getType()))
      return emitOpError("the body's argument #")
             << i << " is " << body.getArgument(i).getType() << ", but input #"
             << i << " holds " << elementOf(input.getType());
  for (unsigned i = inputs; i < body.getNumArguments(); ++i)
    if (!body.getArgument(i).getType().isIndex())
      return emitOpError("the row and the column are index, not ")
             << body.getArgument(i).getType();
  auto yield = dyn_cast<MapYieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("the body ends in klx.map_yield");
  if (yield.getValue().getType() != elementOf(getResult().getType()))
    return yield.emitOpError("yields a ")
           << yield.getValue().getType() << ", but the result holds "
           << elementOf(getResult().getType());
  return success();
}

LogicalResult ReduceOp::verify() {
  Type result = getResult().getType();
  bool rows = getAxis() == Axis::Rows;
  if (rows != isa<RowType>(result))
    return emitOpError("reducing ")
           << (rows ? "rows yields a !klx.row" : "cols yields a !klx.col")
           << ", not " << result;
  Shape in = shapeOf(getInput().getType()), out = shapeOf(result);
  if (in.known() && out.known() && out.dims[0] != in.dims[rows ? 0 : 1])
    return emitOpError("the accumulators have ")
           << in.dims[rows ? 0 : 1] << (rows ? " rows" : " columns")
           << " but the result is " << out.dims[0] << " long";
  if (elementOf(getInput().getType()) != elementOf(result))
    return emitOpError("the result holds ")
           << elementOf(result) << " but the accumulators "
           << elementOf(getInput().getType());
  return success();
}

LogicalResult LoadVectorOp::verify() {
  if (!elementOf(getResult().getType()).isF32())
    return emitOpError("loads f32 vectors, not ")
           << elementOf(getResult().getType());
  return success();
}

LogicalResult AsOperandOp::verify() {
  Shape in = shapeOf(getInput().getType()),
        out = shapeOf(getResult().getType());
  if (!in.known() || !isSixteenBit(in.element))
    return emitOpError("an MMA operand is f16 or bf16: convert the "
                       "accumulators with klx.map first (they are ")
           << elementOf(getInput().getType()) << ")";
  if (!out.known())
    return success(); // the schedule's (klx-materialize-schedule checks)
  if (out.dims != in.dims || out.element != in.element)
    return emitOpError("the operand has the accumulators' shape and type, ")
           << "a " << FragType::get(getContext(), in.dims, in.element);
  return success();
}
