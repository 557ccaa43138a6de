//===- Target.cpp - Compilation targets and pipeline stages ---------------===//

#include "klx/Pipeline/Target.h"

#include "llvm/ADT/StringSwitch.h"

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

llvm::StringRef klx::emitKindName(EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
    return "mlir";
  case EmitKind::LLVM:
    return "llvm";
  case EmitKind::PTX:
    return "ptx";
  case EmitKind::Cubin:
    return "cubin";
  case EmitKind::SASS:
    return "sass";
  case EmitKind::AMDGCN:
    return "amdgcn";
  }
  return "mlir";
}

std::optional<EmitKind> klx::parseEmitKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<EmitKind>>(name)
      .Case("mlir", EmitKind::MLIR)
      .Case("llvm", EmitKind::LLVM)
      .Case("ptx", EmitKind::PTX)
      .Case("cubin", EmitKind::Cubin)
      .Case("sass", EmitKind::SASS)
      .Case("amdgcn", EmitKind::AMDGCN)
      .Default(std::nullopt);
}

llvm::StringRef klx::emitKindExtension(EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
    return "mlir";
  case EmitKind::LLVM:
    return "ll";
  case EmitKind::PTX:
    return "ptx";
  case EmitKind::Cubin:
    return "cubin";
  case EmitKind::SASS:
    return "sass";
  case EmitKind::AMDGCN:
    return "s";
  }
  return "txt";
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

llvm::StringRef klx::producingStep(EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
    return "";
  case EmitKind::LLVM:
    return step::kLLVMOpt;
  case EmitKind::PTX:
    return step::kPTX;
  case EmitKind::Cubin:
    return step::kCubin;
  case EmitKind::SASS:
    return step::kSASS;
  case EmitKind::AMDGCN:
    return step::kAMDGCN;
  }
  return "";
}
