//===- TransformSteps.h - A transform script as visible steps ---*- C++ -*-===//
//
// A module that carries `transform.named_sequence @__transform_main` (how
// MLIR's own GPU tests and tutorials schedule linalg: tile, map to threads,
// rewrite to mma.sync) is lowered the way upstream does it, the transform
// interpreter and then the schedule erased, but one top-level transform op
// at a time so that each one is a step with its IR.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_PIPELINE_TRANSFORMSTEPS_H
#define KLX_LIB_PIPELINE_TRANSFORMSTEPS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace klx {

/// The names of the entry point's top-level ops, in order (its terminator
/// left out): one step each. Empty when the module has no entry point.
std::vector<std::string> transformStepNames(mlir::ModuleOp module);

/// Warns at the first top-level transform op when the module has no entry
/// point (a legacy transform.sequence, a named sequence by another name):
/// such a script is not run, and the payload fails later for no visible
/// reason.
void warnUnrunSchedules(mlir::ModuleOp module);

/// A copy of `input` with the entry point's first `count` top-level ops
/// applied to it and every transform schedule erased; null when applying
/// failed (the interpreter has reported why, at the script's lines).
mlir::OwningOpRef<mlir::ModuleOp> applyTransformPrefix(mlir::ModuleOp input,
                                                       size_t count);

} // namespace klx

#endif // KLX_LIB_PIPELINE_TRANSFORMSTEPS_H
