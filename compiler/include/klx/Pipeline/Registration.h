//===- Registration.h - What a klx compile registers ------------*- C++ -*-===//
//
// A compile parses any upstream dialect a kernel is written in, runs klx's
// and upstream passes (by name too: transform scripts, klx-opt's
// --pass-pipeline) and translates to LLVM IR: these register all of that.
// klx, klx-opt, the app and the tests reach them through klx/InitAll.h.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_PIPELINE_REGISTRATION_H
#define KLX_PIPELINE_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace klx {

/// Upstream dialects, their extensions and interface models, the
/// translations to LLVM IR, and klx's own dialects.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Upstream passes and klx's passes; safe to call more than once.
void registerAllPasses();

} // namespace klx

#endif // KLX_PIPELINE_REGISTRATION_H
