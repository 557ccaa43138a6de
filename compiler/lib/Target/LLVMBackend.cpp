//===- LLVMBackend.cpp - gpu.module to LLVM IR to PTX or AMDGCN -----------===//

#include "klx/Target/LLVMBackend.h"

#include "klx/Target/LLVMTargets.h"

#include "mlir/IR/Operation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace klx;

static llvm::StringRef tripleFor(Target target) {
  return isNvidia(target) ? "nvptx64-nvidia-cuda" : "amdgcn-amd-amdhsa";
}

static llvm::CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
klx::createTargetMachine(Target target, llvm::StringRef ptxFeatures,
                         unsigned optLevel) {
  initializeLLVMTargets();
  llvm::Triple triple(tripleFor(target));
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "LLVM has no backend for %s: %s",
                                   triple.str().c_str(), error.c_str());
  std::string features = isNvidia(target) ? ptxFeatures.str() : "";
  llvm::TargetOptions options;
  // The AMDGPU backend states VGPRs, occupancy and LDS per kernel only in
  // verbose-assembly comments.
  options.MCOptions.AsmVerbose = isAmd(target);
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, targetName(target), features, options, std::nullopt, std::nullopt,
      codeGenLevel(optLevel)));
  if (!machine)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot create an LLVM target machine for "
                                   "%s",
                                   targetName(target).str().c_str());
  return machine;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
klx::translateGpuModule(mlir::Operation *gpuModule, llvm::LLVMContext &context,
                        Target target, llvm::TargetMachine &machine) {
  llvm::StringRef name = "kernels";
  if (auto sym = gpuModule->getAttrOfType<mlir::StringAttr>("sym_name"))
    name = sym.getValue();
  std::unique_ptr<llvm::Module> module =
      mlir::translateModuleToLLVMIR(gpuModule, context, name);
  if (!module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "translation of gpu.module @%s to LLVM IR "
                                   "failed",
                                   name.str().c_str());
  module->setTargetTriple(machine.getTargetTriple());
  module->setDataLayout(machine.createDataLayout());
  if (isNvidia(target)) {
    // What libdevice's __nvvm_reflect queries; klx links no libdevice, but
    // kernels written against it still fold these.
    module->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                          uint32_t(0));
  } else {
    // Code object v5, what the ROCm 6 runtime loads.
    module->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                          uint32_t(500));
  }
  return module;
}

bool klx::needsLibdevice(const llvm::Module &module) {
  return llvm::any_of(module, [](const llvm::Function &function) {
    return function.isDeclaration() && function.getName().starts_with("__nv_");
  });
}

llvm::Error klx::linkLibdevice(llvm::Module &module, llvm::StringRef path) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> library =
      llvm::parseIRFile(path, error, module.getContext());
  if (!library)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "cannot read libdevice '%s': %s",
        path.str().c_str(), error.getMessage().str().c_str());
  // libdevice declares a generic triple; match the kernel's so the linker
  // has nothing to warn about.
  library->setTargetTriple(module.getTargetTriple());
  library->setDataLayout(module.getDataLayout());
  bool failed = llvm::Linker::linkModules(
      module, std::move(library), llvm::Linker::Flags::LinkOnlyNeeded,
      [](llvm::Module &linked, const llvm::StringSet<> &fromLibrary) {
        llvm::internalizeModule(linked, [&](const llvm::GlobalValue &value) {
          return !value.hasName() || !fromLibrary.count(value.getName());
        });
      });
  if (failed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "linking libdevice '%s' failed",
                                   path.str().c_str());
  return llvm::Error::success();
}

void klx::optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                         unsigned optLevel) {
  if (optLevel == 0)
    return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm = builder.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

static llvm::Expected<std::string> emitFile(llvm::Module &module,
                                            llvm::TargetMachine &machine,
                                            llvm::CodeGenFileType type) {
  std::string bytes;
  {
    llvm::raw_string_ostream stream(bytes);
    llvm::buffer_ostream bufferedStream(stream);
    llvm::legacy::PassManager codegen;
    if (machine.addPassesToEmitFile(codegen, bufferedStream, nullptr, type))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(), "the %s backend cannot emit %s",
          machine.getTargetTriple().str().c_str(),
          type == llvm::CodeGenFileType::AssemblyFile ? "assembly"
                                                      : "an object file");
    codegen.run(module);
  }
  return bytes;
}

llvm::Expected<std::string> klx::emitAssembly(llvm::Module &module,
                                              llvm::TargetMachine &machine) {
  return emitFile(module, machine, llvm::CodeGenFileType::AssemblyFile);
}

llvm::Expected<std::string> klx::emitObject(const llvm::Module &module,
                                            llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
  return emitFile(*copy, machine, llvm::CodeGenFileType::ObjectFile);
}

std::string klx::printModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}
