//===- LoweringPipelines.cpp - The MLIR pass lists per target -------------===//

#include "klx/Pipeline/LoweringPipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace klx;

namespace {
constexpr const char *kGpuModule = "gpu.module";
} // namespace

// Host-side lowering shared by both targets: after it the host module is
// plain LLVM dialect calling the GPU runtime, as upstream leaves it.
static void appendHostSteps(std::vector<PassStep> &steps) {
  steps.push_back({"", "gpu-to-llvm"});
  steps.push_back({"", "convert-math-to-llvm"});
  steps.push_back({"", "canonicalize"});
  steps.push_back({"", "cse"});
  steps.push_back({"", "reconcile-unrealized-casts"});
}

std::vector<PassStep> klx::nvidiaLoweringSteps(const LoweringOptions &opts) {
  std::vector<PassStep> steps = {
      {"", "convert-nvgpu-to-nvvm"},
      {"", "gpu-kernel-outlining"},
      {"", "convert-vector-to-scf"},
      {"", "convert-scf-to-cf"},
      {"", "convert-nvvm-to-llvm"},
      {"", "convert-func-to-llvm"},
      {"", "expand-strided-metadata"},
      {"",
       llvm::formatv("nvvm-attach-target{{chip={0} features={1} O={2}}",
                     targetName(opts.target), opts.ptxFeatures, opts.optLevel)
           .str()},
      {"", "lower-affine"},
      {"", "convert-arith-to-llvm"},
      {"", "convert-index-to-llvm"},
      {"", "canonicalize"},
      {"", "cse"},
      {kGpuModule, "convert-gpu-to-nvvm"},
      {kGpuModule, "canonicalize"},
      {kGpuModule, "cse"},
      {kGpuModule, "reconcile-unrealized-casts"},
  };
  // Directives only: .loc/.file lines in PTX without DWARF sections, which
  // ptxas would reject at -O3 ("Optimized debugging not supported"); the
  // same as clang's -gline-directives-only for CUDA.
  if (opts.lineInfo)
    steps.push_back({"", "ensure-debug-info-scope-on-llvm-func{emission-kind="
                         "DebugDirectivesOnly}"});
  appendHostSteps(steps);
  return steps;
}

std::vector<PassStep> klx::amdLoweringSteps(const LoweringOptions &opts) {
  llvm::StringRef chip = targetName(opts.target);
  std::vector<PassStep> steps = {
      {"", "gpu-kernel-outlining"},
      {"", llvm::formatv("convert-amdgpu-to-rocdl{{chipset={0}}", chip).str()},
      {"", "convert-vector-to-scf"},
      {"", "convert-scf-to-cf"},
      {"", "convert-func-to-llvm"},
      {"", "expand-strided-metadata"},
      {"", llvm::formatv("rocdl-attach-target{{chip={0} O={1}}", chip,
                         opts.optLevel)
               .str()},
      {"", "lower-affine"},
      {"", "convert-arith-to-llvm"},
      {"", "convert-index-to-llvm"},
      {"", "canonicalize"},
      {"", "cse"},
      {kGpuModule,
       llvm::formatv("convert-gpu-to-rocdl{{chipset={0} runtime=HIP}", chip)
           .str()},
      {kGpuModule, "canonicalize"},
      {kGpuModule, "cse"},
      {kGpuModule, "reconcile-unrealized-casts"},
  };
  if (opts.lineInfo)
    steps.push_back({"", "ensure-debug-info-scope-on-llvm-func{emission-kind="
                         "LineTablesOnly}"});
  appendHostSteps(steps);
  return steps;
}

std::vector<PassStep> klx::loweringSteps(const LoweringOptions &options) {
  return isNvidia(options.target) ? nvidiaLoweringSteps(options)
                                  : amdLoweringSteps(options);
}

mlir::LogicalResult klx::addPassSteps(mlir::OpPassManager &pm,
                                      llvm::ArrayRef<PassStep> steps,
                                      std::string &errorMessage) {
  llvm::raw_string_ostream errorStream(errorMessage);
  for (const PassStep &step : steps) {
    mlir::OpPassManager &target =
        step.anchor.empty() ? pm : pm.nest(step.anchor);
    if (mlir::failed(
            mlir::parsePassPipeline(step.pipeline, target, errorStream)))
      return mlir::failure();
  }
  return mlir::success();
}

std::string klx::textualPipeline(llvm::ArrayRef<PassStep> steps) {
  mlir::OpPassManager pm("builtin.module");
  std::string error;
  if (mlir::failed(addPassSteps(pm, steps, error)))
    return "<invalid pipeline: " + error + ">";
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  return text;
}
