//===- Passes.h - Passes on the klx dialect ---------------------*- C++ -*-===//

#ifndef KLX_DIALECT_KLX_TRANSFORMS_PASSES_H
#define KLX_DIALECT_KLX_TRANSFORMS_PASSES_H

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace klx {

#define GEN_PASS_DECL
#include "klx/Dialect/Klx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "klx/Dialect/Klx/Transforms/Passes.h.inc"

} // namespace klx

#endif // KLX_DIALECT_KLX_TRANSFORMS_PASSES_H
