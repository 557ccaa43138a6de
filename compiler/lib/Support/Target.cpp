//===- Target.cpp - The chips klx compiles for ----------------------------===//

#include "klx/Support/Target.h"

using namespace klx;

llvm::StringRef klx::targetName(Target target) {
  switch (target) {
  case Target::SM90a:
    return "sm_90a";
  case Target::GFX942:
    return "gfx942";
  case Target::GFX950:
    return "gfx950";
  }
  return "sm_90a";
}

std::optional<Target> klx::parseTarget(llvm::StringRef name) {
  for (Target target : allTargets())
    if (targetName(target) == name)
      return target;
  return std::nullopt;
}

llvm::ArrayRef<Target> klx::allTargets() {
  static const Target targets[] = {Target::SM90a, Target::GFX942,
                                   Target::GFX950};
  return targets;
}

bool klx::isNvidia(Target target) { return target == Target::SM90a; }
bool klx::isAmd(Target target) { return !isNvidia(target); }
