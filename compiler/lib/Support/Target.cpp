//===- Target.cpp - The chips klx compiles for ----------------------------===//

#include "klx/Support/Target.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

using namespace klx;

/// Whether LLVM's NVPTX backend knows `chip` as a processor.
static bool isNvptxChip(llvm::StringRef chip) {
  static std::once_flag once;
  static std::unique_ptr<llvm::MCSubtargetInfo> info;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    llvm::Triple triple("nvptx64-nvidia-cuda");
    std::string error;
    if (const llvm::Target *target =
            llvm::TargetRegistry::lookupTarget(triple, error))
      info.reset(target->createMCSubtargetInfo(triple, "", ""));
  });
  return info && info->isCPUStringValid(chip);
}

llvm::StringRef klx::targetName(const Target &target) { return target.chip(); }

std::optional<Target> klx::parseTarget(llvm::StringRef name) {
  bool known = name.starts_with("sm_") ? isNvptxChip(name)
                                       : llvm::AMDGPU::parseArchAMDGCN(name) !=
                                             llvm::AMDGPU::GK_NONE;
  if (!known)
    return std::nullopt;
  return Target(name.str());
}

llvm::ArrayRef<Target> klx::tileDialectTargets() {
  static const Target targets[] = {Target::SM90a, Target::GFX942,
                                   Target::GFX950};
  return targets;
}

bool klx::isTileDialectTarget(const Target &target) {
  return llvm::is_contained(tileDialectTargets(), target);
}

bool klx::isNvidia(const Target &target) {
  return target.chip().starts_with("sm_");
}
bool klx::isAmd(const Target &target) { return !isNvidia(target); }
