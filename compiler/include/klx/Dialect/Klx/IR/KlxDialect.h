//===- KlxDialect.h - The klx dialect ---------------------------*- C++ -*-===//

#ifndef KLX_DIALECT_KLX_IR_KLXDIALECT_H
#define KLX_DIALECT_KLX_IR_KLXDIALECT_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Dialect.h"

#include "klx/Dialect/Klx/IR/KlxOpsDialect.h.inc"

namespace klx {
/// Module attribute names owned by the dialect.
inline constexpr llvm::StringLiteral kTargetAttrName = "klx.target";
inline constexpr llvm::StringLiteral kParamsAttrName = "klx.params";
} // namespace klx

#endif // KLX_DIALECT_KLX_IR_KLXDIALECT_H
