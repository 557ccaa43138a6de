//===- Passes.h - klx passes on upstream dialects ---------------*- C++ -*-===//

#ifndef KLX_TRANSFORMS_PASSES_H
#define KLX_TRANSFORMS_PASSES_H

#include "klx/Dialect/Klx/IR/KlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace klx {

/// Tags the LDS accesses of `func` that derive from exactly one of the
/// bases it declares in klx.lds_bases (LdsAliasScope.cpp); fails with an
/// error on the function when the declaration is malformed.
mlir::LogicalResult tagLdsAliasScopes(mlir::LLVM::LLVMFuncOp func);

/// Replaces the reads of `array` (a 1-D memref.alloca of integers written
/// once per element with base + i * step, before every read) by that
/// arithmetic and erases the array; false, changing nothing, when it is
/// not such an array (ConstRegTensor.cpp).
bool replaceArithmeticArray(mlir::memref::AllocaOp array);

/// Bridges the values that cross a step boundary of `func` through a
/// workgroup buffer (BridgeSteps.cpp); fails with a warning on the
/// function, changing nothing, when it cannot.
mlir::LogicalResult bridgeSteps(mlir::gpu::GPUFuncOp func);

/// Warns at each op of `root` that lowers silently into something other
/// than what it says, for `chip` (empty: the chip lints are skipped);
/// returns how many warnings it emitted (Lint.cpp).
unsigned lintKernels(mlir::Operation *root, llvm::StringRef chip);

#define GEN_PASS_DECL
#include "klx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "klx/Transforms/Passes.h.inc"

} // namespace klx

#endif // KLX_TRANSFORMS_PASSES_H
