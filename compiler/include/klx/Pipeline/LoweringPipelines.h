//===- LoweringPipelines.h - The MLIR pass lists per target -----*- C++ -*-===//
//
// The NVIDIA list is upstream's gpu-lower-to-nvvm-pipeline laid out pass by
// pass so that each one is a visible step, minus gpu-module-to-binary: klx
// runs translation, LLVM optimisation, PTX emission and ptxas itself so
// that each of those is a step too.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_PIPELINE_LOWERINGPIPELINES_H
#define KLX_PIPELINE_LOWERINGPIPELINES_H

#include "klx/Support/Stages.h"

#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace klx {

/// One pass of a pipeline, as the textual pipeline element that runs it
/// under an anchor op ("" for the top-level module).
struct PassStep {
  std::string anchor;   // "" or "gpu.module"
  std::string pipeline; // "convert-gpu-to-nvvm{index-bitwidth=64}"
};

struct LoweringOptions {
  Target target = Target::SM90a;
  /// PTX ISA feature for NVPTX. ptxas from CUDA 13.0 accepts up to 9.0;
  /// 8.8 has every sm_90a instruction klx emits (wgmma, setmaxnreg, TMA).
  std::string ptxFeatures = "+ptx88";
  unsigned optLevel = 3;
  /// Emit line tables so PTX .loc and AMDGCN line info point to the source.
  bool lineInfo = true;
  /// The input has klx kernels: the klx passes come first.
  bool klxKernels = false;
  /// klx kernels record a measured timeline (klx-to-nvgpu{instrument}).
  bool instrument = false;
  /// Which CTAs record: "all", the first N ("4"), or a list ("0,5,131").
  std::string traceCtas = "all";
  /// AMD: klx-lds-alias-scope tags the accesses of each named LDS base a
  /// kernel declares; off when the module's klx.params say
  /// `alias_scopes = false` (`-D alias_scopes=0`).
  bool ldsAliasScopes = true;
  /// klx-const-reg-tensor first, when the module's klx.params say
  /// `const_reg_tensor = true` (`-D const_reg_tensor=1`).
  bool constRegTensor = false;
  /// Values that cross from one step of a kernel to a later one go
  /// through shared memory: `bridge_steps = true` (`-D bridge_steps=1`).
  bool bridgeSteps = false;
  /// The top-level ops of the module's transform script
  /// (@__transform_main), each a step after parse, before the passes.
  std::vector<std::string> transformSteps;
};

/// The MLIR passes for `options.target`, in order.
std::vector<PassStep> loweringSteps(const LoweringOptions &options);

/// Adds the steps to `pm`, nesting each under its anchor. Fails with a
/// message in `errorMessage` if a step does not parse.
mlir::LogicalResult addPassSteps(mlir::OpPassManager &pm,
                                 llvm::ArrayRef<PassStep> steps,
                                 std::string &errorMessage);

/// The whole list as one textual pipeline that
/// `klx-opt --pass-pipeline=...` runs.
std::string textualPipeline(llvm::ArrayRef<PassStep> steps);

} // namespace klx

#endif // KLX_PIPELINE_LOWERINGPIPELINES_H
