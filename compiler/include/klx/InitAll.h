//===- InitAll.h - The one registration point for klx ----------*- C++ -*-===//
//
// klx, klx-opt, the app and the tests all register dialects, passes and
// translations through these two functions, so they accept the same IR.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_INITALL_H
#define KLX_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace klx {

/// Upstream dialects, their extensions and interface models, the
/// translations to LLVM IR, and klx's own dialects.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Upstream passes and klx's passes; safe to call more than once.
void registerAllPasses();

/// Initialises the NVPTX and AMDGPU backends of LLVM; safe to call more than
/// once.
void initializeLLVMTargets();

} // namespace klx

#endif // KLX_INITALL_H
