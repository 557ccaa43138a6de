//===- LLVMBackend.h - gpu.module to LLVM IR to PTX or AMDGCN ---*- C++ -*-===//

#ifndef KLX_TARGET_LLVMBACKEND_H
#define KLX_TARGET_LLVMBACKEND_H

#include "klx/Support/Stages.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mlir {
class Operation;
} // namespace mlir

namespace klx {

/// The LLVM target machine for a klx target: nvptx64-nvidia-cuda with the
/// chip and PTX feature, or amdgcn-amd-amdhsa with the gfx chip.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(Target target, llvm::StringRef ptxFeatures,
                    unsigned optLevel);

/// Translates a gpu.module whose body is in the LLVM/NVVM/ROCDL dialects to
/// an LLVM module with the target's triple and data layout. Translation
/// errors are reported on the op's context as MLIR diagnostics.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateGpuModule(mlir::Operation *gpuModule, llvm::LLVMContext &context,
                   Target target, llvm::TargetMachine &machine);

/// True if the module calls libdevice (__nv_* functions), as math ops
/// lowered by convert-gpu-to-nvvm do.
bool needsLibdevice(const llvm::Module &module);

/// Links the functions the module uses from a libdevice bitcode file and
/// internalises them so the optimiser can inline and drop the rest.
llvm::Error linkLibdevice(llvm::Module &module, llvm::StringRef path);

/// Runs LLVM's default optimisation pipeline at `optLevel` (0-3).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned optLevel);

/// Emits textual assembly (PTX or AMDGCN) for the module.
llvm::Expected<std::string> emitAssembly(llvm::Module &module,
                                         llvm::TargetMachine &machine);

/// Emits a relocatable object file (AMDGPU: what ld.lld links into an
/// .hsaco) for a copy of the module; the module itself is not touched,
/// since code generation rewrites it (the AMDGPU backend lowers LDS).
llvm::Expected<std::string> emitObject(const llvm::Module &module,
                                       llvm::TargetMachine &machine);

/// Prints an LLVM module as text.
std::string printModule(const llvm::Module &module);

} // namespace klx

#endif // KLX_TARGET_LLVMBACKEND_H
