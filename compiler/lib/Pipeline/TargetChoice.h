//===- TargetChoice.h - Which chip a run compiles for -----------*- C++ -*-===//

#ifndef KLX_LIB_PIPELINE_TARGETCHOICE_H
#define KLX_LIB_PIPELINE_TARGETCHOICE_H

#include "klx/Support/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace klx {

/// The chip a run compiles `module` for: `requested` (--target) first,
/// then the module's klx.target, then the chip of the first
/// #nvvm.target / #rocdl.target a gpu.module carries (any chip LLVM knows:
/// sm_80 for MLIR's mma.sync tests), else sm_90a. Emits a warning at the
/// gpu.module whose target attribute is overridden or names a chip LLVM
/// does not know, so that no file's own target is replaced without a
/// word; fails with an error where klx tile-dialect ops would be lowered
/// for a chip the dialect does not lower for.
mlir::FailureOr<Target> chooseTarget(mlir::ModuleOp module,
                                     std::optional<Target> requested,
                                     bool hasKlxOps);

} // namespace klx

#endif // KLX_LIB_PIPELINE_TARGETCHOICE_H
