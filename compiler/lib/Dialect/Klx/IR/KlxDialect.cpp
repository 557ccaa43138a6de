//===- KlxDialect.cpp - The klx dialect -----------------------------------===//

#include "klx/Dialect/Klx/IR/KlxDialect.h"

#include "klx/Dialect/Klx/IR/KlxOps.h"
#include "klx/Support/Target.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "klx/Dialect/Klx/IR/KlxOpsDialect.cpp.inc"

#include "klx/Dialect/Klx/IR/KlxEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "klx/Dialect/Klx/IR/KlxOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "klx/Dialect/Klx/IR/KlxAttrs.cpp.inc"

using namespace klx;

namespace {

/// Short aliases for long literal LLVM struct types. Lowered wgmma
/// accumulators are structs of 64 floats (and structs of those); printed
/// inline on every use they make lowered IR lines thousands of characters
/// long and dominate printing time. Any dialect may offer an alias for any
/// type, so this works while the LLVM dialect owns the types.
class LLVMStructAliases : public mlir::OpAsmDialectInterface {
public:
  using OpAsmDialectInterface::OpAsmDialectInterface;

  static constexpr unsigned kMinElements = 8;

  AliasResult getAlias(mlir::Type type, llvm::raw_ostream &os) const override {
    auto structType = llvm::dyn_cast<mlir::LLVM::LLVMStructType>(type);
    if (!structType || structType.isIdentified())
      return AliasResult::NoAlias;
    llvm::ArrayRef<mlir::Type> body = structType.getBody();
    bool nested = llvm::any_of(body, [](mlir::Type t) {
      return llvm::isa<mlir::LLVM::LLVMStructType>(t);
    });
    if (body.size() < kMinElements && !nested)
      return AliasResult::NoAlias;
    bool uniform = llvm::all_equal(body);
    os << "struct_";
    if (uniform && !body.empty() && body.front().isIntOrFloat())
      os << body.size() << 'x' << body.front();
    else
      os << body.size();
    // Let a dialect with a better name for the type win.
    return AliasResult::OverridableAlias;
  }
};

} // namespace

void KlxDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "klx/Dialect/Klx/IR/KlxOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "klx/Dialect/Klx/IR/KlxAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "klx/Dialect/Klx/IR/KlxOps.cpp.inc"
      >();
  addInterfaces<LLVMStructAliases>();
}

int64_t ScheduleAttr::tileBytes(Operand operand) const {
  int64_t elementBytes = getDtype().getIntOrFloatBitWidth() / 8;
  return operand == Operand::A ? getTileM() * getTileK() * elementBytes
                               : getTileK() * getTileN() * elementBytes;
}

mlir::LogicalResult
KlxDialect::verifyOperationAttribute(mlir::Operation *op,
                                     mlir::NamedAttribute attribute) {
  llvm::StringRef name = attribute.getName().getValue();
  if (name == kTargetAttrName) {
    auto target = llvm::dyn_cast<mlir::StringAttr>(attribute.getValue());
    if (!target)
      return op->emitError() << "'" << kTargetAttrName
                             << "' must be a string such as \"sm_90a\"";
    std::optional<Target> chip = parseTarget(target.getValue());
    if (!chip || !isTileDialectTarget(*chip))
      return op->emitError()
             << "unknown target '" << target.getValue() << "' in '"
             << kTargetAttrName << "' (known: sm_90a, gfx942, gfx950)";
    return mlir::success();
  }
  if (name == kParamsAttrName) {
    auto params = llvm::dyn_cast<mlir::DictionaryAttr>(attribute.getValue());
    if (!params)
      return op->emitError() << "'" << kParamsAttrName
                             << "' must be a dictionary of parameters";
    for (mlir::NamedAttribute entry : params) {
      mlir::Attribute value = entry.getValue();
      if (!llvm::isa<mlir::IntegerAttr, mlir::FloatAttr, mlir::StringAttr>(
              value))
        return op->emitError()
               << "parameter '" << entry.getName().getValue() << "' in '"
               << kParamsAttrName
               << "' must be an integer, boolean, float or string";
    }
    return mlir::success();
  }
  if (name == kLaunchAttrName) {
    if (!llvm::isa<mlir::DictionaryAttr>(attribute.getValue()))
      return op->emitError()
             << "'" << kLaunchAttrName << "' must be a dictionary";
    return mlir::success();
  }
  if (name == kEpilogueAttrName) {
    if (!llvm::isa<mlir::DictionaryAttr>(attribute.getValue()))
      return op->emitError()
             << "'" << kEpilogueAttrName << "' must be a dictionary";
    return mlir::success();
  }
  if (name == kDimsAttrName) {
    auto dims = llvm::dyn_cast<mlir::DictionaryAttr>(attribute.getValue());
    if (!dims || !llvm::all_of(dims, [](mlir::NamedAttribute dim) {
          return llvm::is_contained({"M", "N", "K"}, dim.getName().strref()) &&
                 llvm::isa<mlir::IntegerAttr>(dim.getValue());
        }))
      return op->emitError() << "'" << kDimsAttrName
                             << "' must map M, N and K to argument numbers";
    return mlir::success();
  }
  if (name == kRoleNamesAttrName) {
    auto names = llvm::dyn_cast<mlir::ArrayAttr>(attribute.getValue());
    if (!names || !llvm::all_of(names, llvm::IsaPred<mlir::StringAttr>))
      return op->emitError()
             << "'" << kRoleNamesAttrName << "' must be an array of strings";
    return mlir::success();
  }
  if (name == kBarrierNameAttrName) {
    if (!llvm::isa<mlir::StringAttr>(attribute.getValue()))
      return op->emitError()
             << "'" << kBarrierNameAttrName << "' must be a string";
    return mlir::success();
  }
  if (name == kLdsBasesAttrName) {
    auto bases = llvm::dyn_cast<mlir::DictionaryAttr>(attribute.getValue());
    auto isBase = [](mlir::NamedAttribute base) {
      auto pair = llvm::dyn_cast<mlir::ArrayAttr>(base.getValue());
      if (!pair || pair.size() != 2)
        return false;
      auto offset = llvm::dyn_cast<mlir::IntegerAttr>(pair[0]);
      auto size = llvm::dyn_cast<mlir::IntegerAttr>(pair[1]);
      return offset && size && offset.getInt() >= 0 && size.getInt() > 0;
    };
    if (!bases || !llvm::all_of(bases, isBase))
      return op->emitError() << "'" << kLdsBasesAttrName
                             << "' must map each base's name to [offset, "
                                "size] in bytes, size > 0";
    return mlir::success();
  }
  return op->emitError() << "unknown klx attribute '" << name << "'";
}
