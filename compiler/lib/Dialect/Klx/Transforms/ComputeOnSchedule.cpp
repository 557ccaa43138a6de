//===- ComputeOnSchedule.cpp - Fitting a tile program's compute ops -------===//
//
// klx-materialize-schedule's check of the ops that compute on accumulators
// (docs/dialect.md, Computing on accumulators). The passes after it lower
// klx.map, klx.reduce (along rows), klx.splat and klx.load_vector on the
// schedule's tiles: the accumulators of one output tile (tile_m x tile_n
// f32), a value per row of it (tile_m) and per column (tile_n). A tile,
// accumulator or vector written out with that shape is the schedule's and
// becomes bare here, so that the passes after see one type. Accumulators
// converted to dtype by a klx.map for klx.as_operand keep their written
// type: they feed an MMA from registers, whose k step (tile_k) must then be
// the tile's width (tile_n). Any other shape and a transposed load
// (attention's) get an error at their line before a pass that would not
// know them.
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
  auto isTile = [&](ArrayRef<int64_t> shape) {
    return shape[0] == s.getTileM() && shape[1] == s.getTileN();
  };
  return llvm::TypeSwitch<Type, Type>(type)
      .Case([&](AccType t) -> Type {
        if (!t.isShaped())
          return t;
        if (isTile(t.getShape()) && t.getElementType() == s.getDtype())
          return t; // converted for klx.as_operand
        bool fits = isTile(t.getShape()) && f32(t.getElementType());
        return fits ? AccType::get(t.getContext()) : Type();
      })
      .Case([&](FragType t) -> Type {
        // The A operand of a k step, in registers: tile_m x tile_k.
        if (!t.isShaped())
          return t;
        bool fits = t.getShape()[0] == s.getTileM() &&
                    t.getShape()[1] == s.getTileK() &&
                    t.getElementType() == s.getDtype();
        return fits ? FragType::get(t.getContext()) : Type();
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
      .Case([&](TileType t) -> Type {
        if (!t.isShaped())
          return t;
        // A's k step (tile_m x tile_k) or B's (tile_k x tile_n).
        ArrayRef<int64_t> shape = t.getShape();
        bool fits = t.getElementType() == s.getDtype() &&
                    ((shape[0] == s.getTileM() && shape[1] == s.getTileK()) ||
                     (shape[0] == s.getTileK() && shape[1] == s.getTileN()));
        return fits ? TileType::get(t.getContext()) : Type();
      })
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
/// klx.as_operand as the passes after lower it: of a klx.map's
/// accumulators, into the A of MMAs whose k step is the tile's width.
LogicalResult checkAsOperand(AsOperandOp op, ScheduleAttr s) {
  if (!op.getInput().getDefiningOp<MapOp>())
    return op.emitOpError("takes accumulators a klx.map converts to ")
           << s.getDtype() << " (the schedule's dtype)";
  for (OpOperand &use : op->getUses()) {
    auto mma = dyn_cast<MmaOp>(use.getOwner());
    if (!mma || use.getOperandNumber() != 0)
      return use.getOwner()->emitOpError("uses a klx.as_operand other than "
                                         "as a klx.mma's A operand");
  }
  if (s.getTileN() != s.getTileK())
    return op.emitOpError("makes an A operand of tile_m x tile_n = ")
           << s.getTileM() << " x " << s.getTileN()
           << ", which the MMA it feeds multiplies by a k step of tile_k = "
           << s.getTileK() << " rows of B: needs tile_n = tile_k";
  return success();
}

LogicalResult checkOp(Operation *op, ScheduleAttr s) {
  auto load = dyn_cast<LoadOp>(op);
  if (load && load.getTransposed())
    return op->emitOpError("cannot be lowered yet: a B operand loaded "
                           "transposed is attention's, which klx's passes do "
                           "not lower yet (docs/dialect.md, Computing on "
                           "accumulators)");
  if (auto asOperand = dyn_cast<AsOperandOp>(op))
    if (failed(checkAsOperand(asOperand, s)))
      return failure();
  if (auto reduce = dyn_cast<ReduceOp>(op);
      reduce && reduce.getAxis() == Axis::Cols)
    return op->emitOpError("cannot be lowered yet: klx's passes reduce along "
                           "rows only (a column spans every consumer "
                           "warpgroup's rows)");
  if (auto map = dyn_cast<MapOp>(op);
      map && isa<AccType>(map.getResult().getType())) {
    Type yielded =
        map.getBody().front().getTerminator()->getOperand(0).getType();
    bool intoOperand =
        !map->use_empty() && llvm::all_of(map->getUsers(), [](Operation *user) {
          return isa<AsOperandOp>(user);
        });
    if (intoOperand && yielded != s.getDtype())
      return op->emitOpError("into klx.as_operand yields ")
             << s.getDtype() << " (the schedule's dtype), got " << yielded;
    if (!intoOperand && !yielded.isF32())
      return op->emitOpError("on the schedule's accumulators yields f32; "
                             "klx.store rounds it to out_dtype (16 bits are "
                             "for klx.as_operand)");
  }
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
