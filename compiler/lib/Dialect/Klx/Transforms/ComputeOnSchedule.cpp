//===- ComputeOnSchedule.cpp - Fitting a tile program's compute ops -------===//
//
// klx-materialize-schedule's check of the ops that compute on accumulators
// (docs/dialect.md, Computing on accumulators). The passes after it lower
// klx.map, klx.reduce (along rows), klx.splat and klx.load_vector on the
// schedule's tiles: the accumulators of one output tile (tile_m x tile_n
// f32), a value per row of it (tile_m) and per column (tile_n). A tile,
// accumulator or vector written out with that shape is the schedule's and
// becomes bare here, so that the passes after see one type; any other
// shape, a transposed load and an MMA fed from registers (attention's) get
// an error at their line before a pass that would not know them.
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/Transforms/Transforms.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace klx;

namespace {

/// The schedule's own type for `type` when `type` is written with the
/// schedule's shape (f32 elements), `type` itself when it is bare or no
/// klx value type, and a null type when it has a shape of its own.
Type scheduleType(Type type, ScheduleAttr s) {
  auto f32 = [](Type element) { return element && element.isF32(); };
  return llvm::TypeSwitch<Type, Type>(type)
      .Case([&](AccType t) -> Type {
        if (!t.isShaped())
          return t;
        bool fits = t.getShape()[0] == s.getTileM() &&
                    t.getShape()[1] == s.getTileN() && f32(t.getElementType());
        return fits ? AccType::get(t.getContext()) : Type();
      })
      .Case([&](RowType t) -> Type {
        if (!t.isShaped())
          return t;
        bool fits = t.getShape()[0] == s.getTileM() && f32(t.getElementType());
        return fits ? RowType::get(t.getContext()) : Type();
      })
      .Case([&](ColType t) -> Type {
        if (!t.isShaped())
          return t;
        bool fits = t.getShape()[0] == s.getTileN() && f32(t.getElementType());
        return fits ? ColType::get(t.getContext()) : Type();
      })
      .Case([&](TileType t) -> Type { return t.isShaped() ? Type() : t; })
      .Case([&](FragType) -> Type { return Type(); })
      .Default([](Type t) { return t; });
}

/// What the schedule's tiles are, for a message: "tile_m x tile_n = 128 x
/// 256 f32 accumulators, !klx.row<128xf32>, !klx.col<256xf32>".
std::string scheduleShapes(ScheduleAttr s) {
  return "the schedule's tiles are tile_m x tile_n = " +
         std::to_string(s.getTileM()) + " x " + std::to_string(s.getTileN()) +
         " f32 accumulators, !klx.row<" + std::to_string(s.getTileM()) +
         "xf32> and !klx.col<" + std::to_string(s.getTileN()) + "xf32>";
}

/// The first op the passes after klx-materialize-schedule cannot lower,
/// with its error.
LogicalResult checkOp(Operation *op, ScheduleAttr s) {
  auto load = dyn_cast<LoadOp>(op);
  if (isa<AsOperandOp>(op) || (load && load.getTransposed()))
    return op->emitOpError("cannot be lowered yet: an MMA fed from registers "
                           "and a B operand loaded transposed are "
                           "attention's, which klx's passes do not lower "
                           "yet (docs/dialect.md, Computing on accumulators)");
  if (auto reduce = dyn_cast<ReduceOp>(op);
      reduce && reduce.getAxis() == Axis::Cols)
    return op->emitOpError("cannot be lowered yet: klx's passes reduce along "
                           "rows only (a column spans every consumer "
                           "warpgroup's rows)");
  if (auto map = dyn_cast<MapOp>(op);
      map && isa<AccType>(map.getResult().getType()))
    if (!map.getBody().front().getTerminator()->getOperand(0).getType().isF32())
      return op->emitOpError("on the schedule's accumulators yields f32; "
                             "klx.store rounds it to out_dtype");
  for (Type type :
       llvm::concat<const Type>(op->getResultTypes(), op->getOperandTypes()))
    if (!scheduleType(type, s))
      return op->emitOpError("on a ")
             << type << ", a tile of its own shape, cannot be lowered yet: "
             << scheduleShapes(s)
             << " (docs/dialect.md, Computing on accumulators)";
  return success();
}

} // namespace

LogicalResult klx::fitComputeToSchedule(KernelOp kernel,
                                        ScheduleAttr schedule) {
  WalkResult checked = kernel.walk([&](Operation *op) {
    return failed(checkOp(op, schedule)) ? WalkResult::interrupt()
                                         : WalkResult::advance();
  });
  if (checked.wasInterrupted())
    return failure();
  // Written shapes that are the schedule's become bare: results and block
  // arguments (loop-carried vectors included).
  kernel.walk([&](Operation *op) {
    for (Value result : op->getResults())
      result.setType(scheduleType(result.getType(), schedule));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(scheduleType(arg.getType(), schedule));
  });
  return success();
}
