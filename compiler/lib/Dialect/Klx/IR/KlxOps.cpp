//===- KlxOps.cpp - Operations of the klx dialect -------------------------===//

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace klx;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  SmallVector<OpAsmParser::Argument> arguments;
  if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, arguments);
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << '(';
  llvm::interleaveComma(getBodyBlock().getArguments(), p,
                        [&](BlockArgument arg) { p.printRegionArgument(arg); });
  p << ')';
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {SymbolTable::getSymbolAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult KernelOp::verify() {
  for (BlockArgument arg : getBodyBlock().getArguments())
    if (!isa<klx::TensorType, IndexType>(arg.getType()))
      return emitOpError("argument #")
             << arg.getArgNumber() << " has type " << arg.getType()
             << "; kernel arguments are !klx.tensor or index";
  return success();
}

//===----------------------------------------------------------------------===//
// ForEachTileOp
//===----------------------------------------------------------------------===//

void ForEachTileOp::build(OpBuilder &builder, OperationState &result,
                          ValueRange extents, ValueRange inits) {
  result.addOperands(extents);
  result.addOperands(inits);
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      builder.getDenseI32ArrayAttr(
                          {int32_t(extents.size()), int32_t(inits.size())}));
  result.addTypes(inits.getTypes());
  Region *body = result.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (size_t i = 0; i < extents.size(); ++i)
    block->addArgument(builder.getIndexType(), result.location);
  for (Value init : inits)
    block->addArgument(init.getType(), result.location);
  if (inits.empty()) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    YieldOp::create(builder, result.location);
  }
}

ParseResult ForEachTileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> ivs;
  SmallVector<OpAsmParser::UnresolvedOperand> extents;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parser.parseOperandList(extents, OpAsmParser::Delimiter::Paren))
    return failure();
  Type index = parser.getBuilder().getIndexType();
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = index;
  if (parser.resolveOperands(extents, index, result.operands))
    return failure();

  SmallVector<OpAsmParser::Argument> iterArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> types;
  if (succeeded(parser.parseOptionalKeyword("iter_args"))) {
    if (parser.parseAssignmentList(iterArgs, inits) ||
        parser.parseArrowTypeList(types))
      return failure();
    if (iterArgs.size() != types.size())
      return parser.emitError(parser.getNameLoc(),
                              "iter_args and result types differ in number");
    for (auto [arg, type] : llvm::zip(iterArgs, types))
      arg.type = type;
    if (parser.resolveOperands(inits, types, parser.getNameLoc(),
                               result.operands))
      return failure();
  }
  result.addTypes(types);
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {int32_t(extents.size()), int32_t(inits.size())}));
  SmallVector<OpAsmParser::Argument> arguments(ivs);
  arguments.append(iterArgs);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, arguments))
    return failure();
  ForEachTileOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return parser.parseOptionalAttrDict(result.attributes);
}

void ForEachTileOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getInductionVars(), p,
                        [&](Value iv) { p.printOperand(iv); });
  p << ") in (" << getExtents() << ')';
  if (!getInits().empty()) {
    p << " iter_args(";
    llvm::interleaveComma(llvm::zip(getRegionIterArgs(), getInits()), p,
                          [&](auto pair) {
                            p.printOperand(std::get<0>(pair));
                            p << " = ";
                            p.printOperand(std::get<1>(pair));
                          });
    p << ") -> (" << getResultTypes() << ')';
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/!getInits().empty());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getOperandSegmentSizesAttrName()});
}

LogicalResult ForEachTileOp::verify() {
  unsigned extents = getExtents().size();
  if (extents != 2 && extents != 3)
    return emitOpError("takes (M, N) or (M, N, K) extents, got ") << extents;
  Block &body = getBodyBlock();
  if (body.getNumArguments() != extents + getInits().size())
    return emitOpError("body takes one index per extent and one value per "
                       "iter_arg");
  for (auto [init, arg, result] :
       llvm::zip(getInits(), getRegionIterArgs(), getResults()))
    if (init.getType() != arg.getType() || arg.getType() != result.getType())
      return emitOpError("iter_arg type ")
             << arg.getType() << " differs from its init " << init.getType()
             << " or result " << result.getType();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError("yields ")
           << yield.getValues().getTypes() << " but the loop carries "
           << getResultTypes();
  return success();
}

//===----------------------------------------------------------------------===//
// Warp roles and the pipeline
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::verify() {
  bool producer = false, consumer = false;
  // Roles may share a warpgroup (two producer warps), not a warp, and
  // must agree on its registers: setmaxnreg is per warpgroup.
  llvm::SmallDenseMap<int64_t, RoleOp> owner;  // warp in the CTA -> role
  llvm::SmallDenseMap<int64_t, RoleOp> budget; // warpgroup -> a role on it
  for (Operation &op : getBody().front()) {
    auto role = dyn_cast<RoleOp>(op);
    if (!role)
      return op.emitOpError("is not a klx.role; klx.warp_specialize holds "
                            "only roles");
    producer |= role.getKind() == RoleKind::Producer;
    consumer |= role.getKind() == RoleKind::Consumer;
    for (int64_t wg : role.getWarpgroups()) {
      auto [other, first] = budget.try_emplace(wg, role);
      if (!first && other->second.getRegs() != role.getRegs())
        return role.emitOpError("warpgroup ")
                   .append(wg, " also runs role '", other->second.getName(),
                           "' with ", other->second.getRegs(),
                           " registers; roles sharing a warpgroup need the "
                           "same regs")
                   .attachNote(other->second.getLoc())
               << "that role is here";
      for (int64_t warp : role.getWarps()) {
        auto [it, inserted] = owner.try_emplace(4 * wg + warp, role);
        if (!inserted)
          return role.emitOpError("warp ")
                     .append(warp, " of warpgroup ", wg, " already runs role '",
                             it->second.getName(), "'")
                     .attachNote(it->second.getLoc())
                 << "that role is here";
      }
    }
  }
  if (!producer || !consumer)
    return emitOpError("needs a producer role and a consumer role");
  return success();
}

LogicalResult RoleOp::verify() {
  int64_t regs = getRegs();
  if (regs < 24 || regs > 256 || regs % 8 != 0)
    return emitOpError("regs must be a multiple of 8 in [24, 256] "
                       "(setmaxnreg), got ")
           << regs;
  if (getWarpgroups().empty())
    return emitOpError("runs on no warpgroup");
  // 1024 threads per CTA are eight warpgroups.
  for (int64_t group : getWarpgroups())
    if (group < 0 || group > 7)
      return emitOpError("warpgroup ")
             << group << " does not exist: a CTA has warpgroups 0-7";
  for (int64_t warp : getWarps())
    if (warp < 0 || warp > 3)
      return emitOpError("warp ") << warp << " is not one of a warpgroup's 0-3";
  return success();
}

LogicalResult PipelineOp::verify() {
  if (getStages() < 1)
    return emitOpError("needs at least one stage");
  if (getTxBytes() <= 0 || getArrivals() <= 0)
    return emitOpError("tx_bytes and arrivals must be positive");
  if (Value other = getFullOf()) {
    auto owner = other.getDefiningOp<PipelineOp>();
    if (!owner || owner.getFullOf())
      return emitOpError("full_of must name a pipeline with full barriers "
                         "of its own");
    if (owner.getStages() != getStages())
      return emitOpError("shares the full barriers of a pipeline with ")
             << owner.getStages() << " stages, but has " << getStages();
  }
  return success();
}

std::string klx::operandSuffix(Value queue) {
  std::optional<Operand> only;
  auto note = [&](Operand operand) {
    bool same = !only || *only == operand;
    only = operand;
    return same;
  };
  for (Operation *user : queue.getUsers()) {
    if (auto copy = dyn_cast<CopyOp>(user)) {
      if (!note(copy.getOperand()))
        return "";
    } else if (auto push = dyn_cast<PushOp>(user)) {
      for (Value tile : push.getTiles())
        if (auto load = tile.getDefiningOp<LoadOp>();
            load && !note(load.getOperand()))
          return "";
    }
  }
  if (!only)
    return "";
  return *only == Operand::A ? "_a" : "_b";
}

//===----------------------------------------------------------------------===//
// Types a GEMM's tile program leaves out
//===----------------------------------------------------------------------===//

// `klx.zero`, `klx.load` and `klx.store` print no type for the schedule's
// tile (`!klx.acc`, `!klx.tile`), as GEMMs are written; a tile of its own
// shape follows a colon.

template <typename T>
static ParseResult parseOptionalType(OpAsmParser &parser, Type &type) {
  if (succeeded(parser.parseOptionalColon()))
    return parser.parseType(type);
  type = T::get(parser.getContext());
  return success();
}

template <typename T>
static void printOptionalType(OpAsmPrinter &printer, Operation *, Type type) {
  if (cast<T>(type).isShaped())
    printer << " : " << type;
}

static ParseResult parseOptionalTile(OpAsmParser &parser, Type &type) {
  return parseOptionalType<TileType>(parser, type);
}
static void printOptionalTile(OpAsmPrinter &printer, Operation *op, Type type) {
  printOptionalType<TileType>(printer, op, type);
}
static ParseResult parseOptionalAcc(OpAsmParser &parser, Type &type) {
  return parseOptionalType<AccType>(parser, type);
}
static void printOptionalAcc(OpAsmPrinter &printer, Operation *op, Type type) {
  printOptionalType<AccType>(printer, op, type);
}

/// `klx.mma %a, %b, %c` (the schedule's types) or with `: A, B, ACC`; the
/// result has the accumulators' type.
static ParseResult parseMmaTypes(OpAsmParser &parser, Type &a, Type &b,
                                 Type &acc, Type &result) {
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseType(a) || parser.parseComma() || parser.parseType(b) ||
        parser.parseComma() || parser.parseType(acc))
      return failure();
  } else {
    a = TileType::get(parser.getContext());
    b = TileType::get(parser.getContext());
    acc = AccType::get(parser.getContext());
  }
  result = acc;
  return success();
}
static void printMmaTypes(OpAsmPrinter &printer, Operation *, Type a, Type b,
                          Type acc, Type) {
  bool bare = a == TileType::get(a.getContext()) &&
              b == TileType::get(a.getContext()) &&
              acc == AccType::get(a.getContext());
  if (!bare)
    printer << " : " << a << ", " << b << ", " << acc;
}

#define GET_OP_CLASSES
#include "klx/Dialect/Klx/IR/KlxOps.cpp.inc"

PipelineBarrierNames klx::pipelineBarrierNames(ArrayRef<PipelineOp> pipelines,
                                               size_t i) {
  std::string suffix;
  if (pipelines.size() > 1) {
    PipelineOp pipeline = pipelines[i]; // its accessors are not const
    suffix = operandSuffix(pipeline.getPipeline());
    if (suffix.empty())
      suffix = std::to_string(i);
  }
  bool sharedFull =
      llvm::any_of(pipelines, [](PipelineOp p) { return bool(p.getFullOf()); });
  return {sharedFull ? "full" : "full" + suffix, "empty" + suffix};
}
