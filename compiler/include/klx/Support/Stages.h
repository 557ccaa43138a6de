//===- Stages.h - What each step of the pipeline produces -------*- C++ -*-===//
//
// The one list of emit kinds and backend step names, shared by the CLI, the
// GUI and the tests (the way Toy's -emit= is one enum). The targets are in
// klx/Support/Target.h.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_STAGES_H
#define KLX_SUPPORT_STAGES_H

#include "klx/Support/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace klx {

/// What a step of the pipeline produces.
enum class EmitKind { MLIR, LLVM, PTX, Cubin, SASS, AMDGCN };

llvm::StringRef emitKindName(EmitKind kind);
std::optional<EmitKind> parseEmitKind(llvm::StringRef name);
/// The file extension used by --dump-dir and export for this kind.
llvm::StringRef emitKindExtension(EmitKind kind);
/// Whether a target's pipeline produces this kind at all.
bool targetProduces(Target target, EmitKind kind);

/// Names of the steps that follow the MLIR passes. They are named like
/// passes so --pass, --stop-after and the pass list treat them alike.
namespace step {
inline constexpr llvm::StringLiteral kParse = "parse";
inline constexpr llvm::StringLiteral kLLVMIR = "llvm-ir";
inline constexpr llvm::StringLiteral kLLVMOpt = "llvm-opt";
inline constexpr llvm::StringLiteral kPTX = "ptx";
inline constexpr llvm::StringLiteral kCubin = "cubin";
inline constexpr llvm::StringLiteral kSASS = "sass";
inline constexpr llvm::StringLiteral kAMDGCN = "amdgcn";
} // namespace step

/// The backend step whose output is `kind` (llvm-opt for LLVM); empty for
/// MLIR, which the last MLIR pass produces.
llvm::StringRef producingStep(EmitKind kind);

/// The backend steps of a target, in order.
llvm::ArrayRef<llvm::StringLiteral> backendSteps(Target target);

} // namespace klx

#endif // KLX_SUPPORT_STAGES_H
