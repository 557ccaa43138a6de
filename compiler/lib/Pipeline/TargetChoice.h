//===- TargetChoice.h - Which chip a run compiles for -----------*- C++ -*-===//

#ifndef KLX_LIB_PIPELINE_TARGETCHOICE_H
#define KLX_LIB_PIPELINE_TARGETCHOICE_H

#include "klx/Support/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace klx {

/// The chip a run compiles `module` for: `requested` (--target) first,
/// then the module's klx.target, then the chip of the first
/// #nvvm.target / #rocdl.target a gpu.module carries, else sm_90a. Emits a
/// warning at the gpu.module whose target attribute is overridden or names
/// a chip klx does not build, so that no file's own target is replaced
/// without a word.
Target chooseTarget(mlir::ModuleOp module, std::optional<Target> requested);

} // namespace klx

#endif // KLX_LIB_PIPELINE_TARGETCHOICE_H
