//===- Passes.h - klx passes on upstream dialects ---------------*- C++ -*-===//

#ifndef KLX_TRANSFORMS_PASSES_H
#define KLX_TRANSFORMS_PASSES_H

#include "klx/Dialect/Klx/IR/KlxDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace klx {

/// Tags the LDS accesses of `func` that derive from exactly one of the
/// bases it declares in klx.lds_bases (LdsAliasScope.cpp); fails with an
/// error on the function when the declaration is malformed.
mlir::LogicalResult tagLdsAliasScopes(mlir::LLVM::LLVMFuncOp func);

#define GEN_PASS_DECL
#include "klx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "klx/Transforms/Passes.h.inc"

} // namespace klx

#endif // KLX_TRANSFORMS_PASSES_H
