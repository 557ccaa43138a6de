//===- Stages.cpp - What each step of the pipeline produces ---------------===//

#include "klx/Support/Stages.h"

using namespace klx;

namespace {
/// Everything klx says about an emit kind, in one row.
struct EmitKindInfo {
  EmitKind kind;
  llvm::StringLiteral name;
  llvm::StringLiteral extension;
  llvm::StringLiteral producingStep;
};

constexpr EmitKindInfo kEmitKinds[] = {
    {EmitKind::MLIR, "mlir", "mlir", ""},
    {EmitKind::LLVM, "llvm", "ll", step::kLLVMOpt},
    {EmitKind::PTX, "ptx", "ptx", step::kPTX},
    {EmitKind::Cubin, "cubin", "cubin", step::kCubin},
    {EmitKind::SASS, "sass", "sass", step::kSASS},
    {EmitKind::AMDGCN, "amdgcn", "s", step::kAMDGCN},
};

const EmitKindInfo &infoOf(EmitKind kind) {
  for (const EmitKindInfo &info : kEmitKinds)
    if (info.kind == kind)
      return info;
  return kEmitKinds[0];
}
} // namespace

llvm::StringRef klx::emitKindName(EmitKind kind) { return infoOf(kind).name; }

std::optional<EmitKind> klx::parseEmitKind(llvm::StringRef name) {
  for (const EmitKindInfo &info : kEmitKinds)
    if (info.name == name)
      return info.kind;
  return std::nullopt;
}

llvm::StringRef klx::emitKindExtension(EmitKind kind) {
  return infoOf(kind).extension;
}

llvm::StringRef klx::producingStep(EmitKind kind) {
  return infoOf(kind).producingStep;
}

bool klx::targetProduces(Target target, EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
  case EmitKind::LLVM:
    return true;
  case EmitKind::PTX:
  case EmitKind::Cubin:
  case EmitKind::SASS:
    return isNvidia(target);
  case EmitKind::AMDGCN:
    return isAmd(target);
  }
  return false;
}

llvm::ArrayRef<llvm::StringLiteral> klx::backendSteps(Target target) {
  static const llvm::StringLiteral nvidia[] = {
      step::kLLVMIR, step::kLLVMOpt, step::kPTX, step::kCubin, step::kSASS};
  static const llvm::StringLiteral amd[] = {step::kLLVMIR, step::kLLVMOpt,
                                            step::kAMDGCN};
  if (isNvidia(target))
    return nvidia;
  return amd;
}
