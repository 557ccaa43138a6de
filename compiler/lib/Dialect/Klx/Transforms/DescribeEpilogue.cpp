//===- DescribeEpilogue.cpp - What a tile program computes after its MMAs -===//
//
// A runner checks a kernel against a reference it computes itself: for a
// GEMM, A x B. A tile program that computes on its accumulators stores
// something else, so klx-materialize-schedule writes down what, while the
// program still reads as written (tile coordinates and sizes are block
// arguments, not yet block ids): `klx.epilogue` on the kernel, carried to
// klx.launch and the bundle, where klx-run evaluates it on the CPU.
//
//   {values = [v0, v1, ...], output = i}: the value klx.store writes is
//   values[i]; each value is one of
//     {op = "acc"}                         A x B, the k loop's result
//     {op = "vector", axis, argument}      a klx.load_vector of argument #n
//     {op = "map", result, inputs, body, yield}
//     {op = "reduce", kind, axis, input}
//     {op = "splat", axis, body, yield}    a scalar, computed by its body
//   A body is a list of instructions, each naming earlier ones by index:
//     {op = "arg", index}                 the map's input #index (one past
//                                         the inputs: the row, then the
//                                         column in the tile)
//     {op = "const", value}               a number, or "inf", "-inf", "nan"
//     {op = "param", argument}            a size (M, N, K) by argument #
//     {op = "tile", axis}                 the tile's row or column index
//     {op = "arith.addf", args = [...]}   any arith or math op by name
//                                         (cmpf/cmpi with `predicate`)
//   {unknown = "..."} when the program holds something this cannot say.
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/Transforms/Transforms.h"
#include "klx/Runtime/EpilogueOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace klx;

namespace {

StringRef axisName(Type type) {
  return isa<RowType>(type) ? "rows" : isa<ColType>(type) ? "cols" : "acc";
}

class Describer {
public:
  explicit Describer(KernelOp kernel)
      : kernel(kernel), b(kernel.getContext()) {}

  /// The index of `value` in `values`, described first; -1 after setting
  /// `unknown`.
  int64_t describe(Value value);

  SmallVector<Attribute> values;
  std::string unknown;

private:
  int64_t add(ArrayRef<NamedAttribute> fields) {
    values.push_back(b.getDictionaryAttr(fields));
    return int64_t(values.size()) - 1;
  }
  NamedAttribute field(StringRef name, Attribute value) {
    return b.getNamedAttr(name, value);
  }
  int64_t fail(Operation *op, const Twine &why) {
    if (unknown.empty()) {
      unknown = why.str();
      if (auto loc = dyn_cast_or_null<FileLineColLoc>(op ? op->getLoc()
                                                         : kernel.getLoc()))
        unknown += ", at line " + std::to_string(loc.getLine());
    }
    return -1;
  }
  int64_t describeOp(Operation *op, Value value);
  /// Appends the instructions that compute `value` inside a body (`body`
  /// maps what is already there); -1 when it cannot.
  int64_t instruction(Value value, SmallVector<Attribute> &body,
                      DenseMap<Value, int64_t> &placed, Block *block);
  /// A body for `block` (a map's) or for one scalar (a splat's value).
  std::optional<std::pair<ArrayAttr, int64_t>> bodyOf(Block *block,
                                                      Value yielded);

  KernelOp kernel;
  Builder b;
  DenseMap<Value, int64_t> described;
};

int64_t Describer::describe(Value value) {
  auto known = described.find(value);
  if (known != described.end())
    return known->second;
  Operation *op = value.getDefiningOp();
  int64_t index = describeOp(op, value);
  described[value] = index;
  return index;
}

int64_t Describer::describeOp(Operation *op, Value value) {
  if (isa_and_nonnull<scf::ForOp, MmaOp>(op) && isa<AccType>(value.getType()))
    return add({field("op", b.getStringAttr("acc"))});
  if (auto load = dyn_cast_or_null<LoadVectorOp>(op)) {
    auto arg = dyn_cast<BlockArgument>(load.getTensor());
    return add({field("op", b.getStringAttr("vector")),
                field("axis", b.getStringAttr(axisName(value.getType()))),
                field("argument", b.getI64IntegerAttr(arg.getArgNumber()))});
  }
  if (auto reduce = dyn_cast_or_null<ReduceOp>(op)) {
    int64_t input = describe(reduce.getInput());
    if (input < 0)
      return -1;
    return add(
        {field("op", b.getStringAttr("reduce")),
         field("kind", b.getStringAttr(stringifyReduceKind(reduce.getKind()))),
         field("axis", b.getStringAttr(stringifyAxis(reduce.getAxis()))),
         field("input", b.getI64IntegerAttr(input))});
  }
  if (auto splat = dyn_cast_or_null<SplatOp>(op)) {
    auto body = bodyOf(nullptr, splat.getValue());
    if (!body)
      return -1;
    return add({field("op", b.getStringAttr("splat")),
                field("axis", b.getStringAttr(axisName(value.getType()))),
                field("body", body->first),
                field("yield", b.getI64IntegerAttr(body->second))});
  }
  if (auto map = dyn_cast_or_null<MapOp>(op)) {
    SmallVector<int64_t> inputs;
    for (Value input : map.getInputs()) {
      inputs.push_back(describe(input));
      if (inputs.back() < 0)
        return -1;
    }
    Block *block = &map.getBody().front();
    auto body = bodyOf(block, block->getTerminator()->getOperand(0));
    if (!body)
      return -1;
    return add({field("op", b.getStringAttr("map")),
                field("result", b.getStringAttr(axisName(value.getType()))),
                field("inputs", b.getDenseI64ArrayAttr(inputs)),
                field("body", body->first),
                field("yield", b.getI64IntegerAttr(body->second))});
  }
  return fail(op, "the stored value comes from " +
                      (op ? op->getName().getStringRef().str()
                          : std::string("a block argument")) +
                      ", which klx does not describe to a runner");
}

std::optional<std::pair<ArrayAttr, int64_t>> Describer::bodyOf(Block *block,
                                                               Value yielded) {
  SmallVector<Attribute> body;
  DenseMap<Value, int64_t> placed;
  int64_t result = instruction(yielded, body, placed, block);
  if (result < 0)
    return std::nullopt;
  return std::pair{b.getArrayAttr(body), result};
}

int64_t Describer::instruction(Value value, SmallVector<Attribute> &body,
                               DenseMap<Value, int64_t> &placed, Block *block) {
  if (auto found = placed.find(value); found != placed.end())
    return found->second;
  auto push = [&](ArrayRef<NamedAttribute> fields) {
    body.push_back(b.getDictionaryAttr(fields));
    return placed[value] = int64_t(body.size()) - 1;
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (arg.getOwner() == block)
      return push({field("op", b.getStringAttr("arg")),
                   field("index", b.getI64IntegerAttr(arg.getArgNumber()))});
    if (isa<ForEachTileOp>(owner) && arg.getArgNumber() < 2)
      return push(
          {field("op", b.getStringAttr("tile")),
           field("axis",
                 b.getStringAttr(arg.getArgNumber() == 0 ? "rows" : "cols"))});
    if (owner == kernel.getOperation() && arg.getType().isIndex())
      return push({field("op", b.getStringAttr("param")),
                   field("argument", b.getI64IntegerAttr(arg.getArgNumber()))});
    return fail(owner, "a map uses a block argument of " +
                           owner->getName().getStringRef().str());
  }
  Operation *op = value.getDefiningOp();
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    double number = 0;
    if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
      number = f.getValueAsDouble();
    else if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
      number = double(i.getType().isInteger(1) ? i.getValue().getZExtValue()
                                               : i.getInt());
    else
      return fail(op, "a map uses a constant that is not a number");
    // JSON has no infinities: they are said in words ("-inf").
    Attribute said = std::isfinite(number)
                         ? Attribute(b.getF64FloatAttr(number))
                         : b.getStringAttr(std::isnan(number) ? "nan"
                                           : number < 0       ? "-inf"
                                                              : "inf");
    return push({field("op", b.getStringAttr("const")), field("value", said)});
  }
  StringRef name = op->getName().getStringRef();
  bool known = isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
               op->getNumRegions() == 0 && op->getNumResults() == 1;
  if (!known)
    return fail(op, "a map uses " + name.str() +
                        ", which klx does not describe to a runner");
  // The runner's CPU reference is what checks the kernel: an op it cannot
  // evaluate is said here, at its line.
  if (!rt::evaluatesEpilogueOp(std::string_view(name.data(), name.size())))
    return fail(op, "a map uses " + name.str() +
                        ", which klx-run's CPU reference does not evaluate "
                        "(it evaluates " +
                        rt::evaluatedEpilogueOps() + ")");
  SmallVector<int64_t> args;
  for (Value operand : op->getOperands()) {
    args.push_back(instruction(operand, body, placed, block));
    if (args.back() < 0)
      return -1;
  }
  SmallVector<NamedAttribute> fields = {
      field("op", b.getStringAttr(op->getName().getStringRef())),
      field("args", b.getDenseI64ArrayAttr(args))};
  if (auto predicate = op->getAttrOfType<IntegerAttr>("predicate"))
    fields.push_back(field("predicate", predicate));
  return push(fields);
}

} // namespace

void klx::recordEpilogue(KernelOp kernel) {
  StoreOp computed;
  kernel.walk([&](StoreOp store) {
    if (!computed && isa_and_nonnull<MapOp>(store.getAcc().getDefiningOp()))
      computed = store;
  });
  if (!computed)
    return;
  Describer describer(kernel);
  int64_t output = describer.describe(computed.getAcc());
  Builder b(kernel.getContext());
  kernel->setAttr(
      kEpilogueAttrName,
      output < 0
          ? b.getDictionaryAttr(
                b.getNamedAttr("unknown", b.getStringAttr(describer.unknown)))
          : b.getDictionaryAttr(
                {b.getNamedAttr("values", b.getArrayAttr(describer.values)),
                 b.getNamedAttr("output", b.getI64IntegerAttr(output))}));
}
