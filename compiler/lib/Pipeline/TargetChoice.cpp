//===- TargetChoice.cpp - Which chip a run compiles for -------------------===//

#include "TargetChoice.h"

#include "klx/Dialect/Klx/IR/KlxDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace klx;

namespace {

/// A chip named by a gpu.module's target attribute, where it was written.
struct FileChip {
  std::string chip;
  std::string attribute; // "#nvvm.target" or "#rocdl.target"
  bool nvidia = true;
  mlir::gpu::GPUModuleOp module;
};

std::optional<FileChip> firstFileChip(mlir::ModuleOp module) {
  std::optional<FileChip> found;
  module.walk([&](mlir::gpu::GPUModuleOp gpuModule) {
    mlir::ArrayAttr targets = gpuModule.getTargetsAttr();
    for (mlir::Attribute attr :
         targets ? targets.getValue() : llvm::ArrayRef<mlir::Attribute>()) {
      if (auto nvvm = llvm::dyn_cast<mlir::NVVM::NVVMTargetAttr>(attr))
        found = FileChip{nvvm.getChip().str(), "#nvvm.target", true, gpuModule};
      else if (auto rocdl = llvm::dyn_cast<mlir::ROCDL::ROCDLTargetAttr>(attr))
        found =
            FileChip{rocdl.getChip().str(), "#rocdl.target", false, gpuModule};
      if (found)
        return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

std::string tileChips() {
  llvm::SmallVector<llvm::StringRef> names;
  for (const Target &target : tileDialectTargets())
    names.push_back(targetName(target));
  return llvm::join(names, ", ");
}

} // namespace

mlir::FailureOr<Target> klx::chooseTarget(mlir::ModuleOp module,
                                          std::optional<Target> requested,
                                          bool hasKlxOps) {
  std::optional<Target> declared;
  if (auto name = module->getAttrOfType<mlir::StringAttr>(kTargetAttrName))
    declared = parseTarget(name.getValue());
  std::optional<FileChip> file = firstFileChip(module);
  std::optional<Target> fileTarget =
      file ? parseTarget(file->chip) : std::nullopt;
  if (fileTarget && isNvidia(*fileTarget) != file->nvidia)
    fileTarget.reset(); // a gfx chip in #nvvm.target, or the other way

  Target chosen = requested               ? *requested
                  : declared              ? *declared
                  : fileTarget            ? *fileTarget
                  : file && !file->nvidia ? Target::GFX942
                                          : Target::SM90a;
  if (hasKlxOps && !isTileDialectTarget(chosen)) {
    mlir::emitError(module.getLoc())
        << "the klx tile dialect lowers for " << tileChips() << ", not "
        << targetName(chosen) << " (--target=CHIP chooses)";
    return mlir::failure();
  }
  if (!file || (fileTarget && *fileTarget == chosen))
    return chosen;
  std::string asked = file->attribute + "<chip = \"" + file->chip + "\">";
  std::string why = requested ? "--target=" + targetName(chosen).str() +
                                    " overrides the file's " + asked
                    : declared
                        ? "klx.target = \"" + targetName(chosen).str() +
                              "\" overrides the file's " + asked
                        : "the file's " + asked + " names a chip LLVM's " +
                              (file->nvidia ? "NVPTX" : "AMDGPU") +
                              " backend does not know";
  mlir::emitWarning(file->module.getLoc())
      << why << "; compiling for " << targetName(chosen)
      << (requested ? "" : " (--target=CHIP chooses)");
  return chosen;
}
