//===- Target.h - The chips klx compiles for --------------------*- C++ -*-===//
//
// The one list of targets, shared by the dialect (which checks a kernel's
// klx.target), the pipeline, the CLI, the GUI and the tests. It lives in
// Support so that the dialect does not depend on the pipeline layer.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_TARGET_H
#define KLX_SUPPORT_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace klx {

enum class Target { SM90a, GFX942, GFX950 };

llvm::StringRef targetName(Target target);
std::optional<Target> parseTarget(llvm::StringRef name);
llvm::ArrayRef<Target> allTargets();
bool isNvidia(Target target);
bool isAmd(Target target);

} // namespace klx

#endif // KLX_SUPPORT_TARGET_H
