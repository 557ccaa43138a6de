//===- LoweringPipelines.cpp - The MLIR pass lists per target -------------===//

#include "klx/Pipeline/LoweringPipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

namespace {
/// klx-to-nvgpu recording the CTAs `ctas` names ("all", "N" or a list).
std::string instrumentedLowering(llvm::StringRef ctas) {
  if (ctas == "all" || ctas.empty())
    return "klx-to-nvgpu{instrument=true}";
  if (ctas.contains(','))
    return ("klx-to-nvgpu{instrument=true trace-cta-list=" + ctas + "}").str();
  return ("klx-to-nvgpu{instrument=true trace-ctas=" + ctas + "}").str();
}
} // namespace

using namespace klx;

namespace {
constexpr const char *kGpuModule = "gpu.module";
} // namespace

std::vector<PassStep> klx::loweringSteps(const LoweringOptions &opts) {
  bool nvidia = isNvidia(opts.target);
  llvm::StringRef chip = targetName(opts.target);
  std::vector<PassStep> steps;
  auto add = [&](llvm::StringRef anchor, std::string pipeline) {
    steps.push_back({anchor.str(), std::move(pipeline)});
  };
  // What lowers silently into something else is said before anything
  // lowers it, at the lines the user wrote.
  add("", llvm::formatv("klx-lint{{chip={0}}", chip));
  // Register arrays of a sequence become arithmetic before anything can
  // lower them to local memory.
  if (opts.constRegTensor)
    add("", "klx-const-reg-tensor");
  if (opts.bridgeSteps)
    add("", "klx-bridge-steps");
  // Tile programs become nvgpu kernels first, a pass per lesson; on AMD
  // the tile program goes straight to MFMA and LDS-DMA.
  if (!nvidia && opts.klxKernels) {
    add("", "klx-materialize-schedule");
    add("", "klx-persistent{grid-stride=false}");
    add("", llvm::formatv("klx-to-amdgpu{{chipset={0}}", chip));
  }
  if (nvidia && opts.klxKernels)
    for (const char *pass :
         {"klx-materialize-schedule", "klx-warp-specialize",
          "klx-circular-buffer", "klx-persistent", "klx-to-nvgpu"})
      add("", opts.instrument && llvm::StringRef(pass) == "klx-to-nvgpu"
                  ? instrumentedLowering(opts.traceCtas)
                  : std::string(pass));
  // Vendor ops next; outlining before or after them changes nothing.
  if (nvidia) {
    add("", "convert-nvgpu-to-nvvm");
    add("", "gpu-kernel-outlining");
  } else {
    add("", "gpu-kernel-outlining");
    add("", llvm::formatv("convert-amdgpu-to-rocdl{{chipset={0}}", chip));
  }
  add("", "convert-vector-to-scf");
  add("", "convert-scf-to-cf");
  if (nvidia)
    add("", "convert-nvvm-to-llvm");
  add("", "convert-func-to-llvm");
  add("", "expand-strided-metadata");
  add("", nvidia ? llvm::formatv("nvvm-attach-target{{chip={0} features={1} "
                                 "O={2}}",
                                 chip, opts.ptxFeatures, opts.optLevel)
                       .str()
                 : llvm::formatv("rocdl-attach-target{{chip={0} O={1}}", chip,
                                 opts.optLevel)
                       .str());
  for (const char *pass : {"lower-affine", "convert-arith-to-llvm",
                           "convert-index-to-llvm", "canonicalize", "cse"})
    add("", pass);
  add(kGpuModule,
      nvidia ? std::string("convert-gpu-to-nvvm")
             : llvm::formatv("convert-gpu-to-rocdl{{chipset={0} runtime=HIP}",
                             chip)
                   .str());
  for (const char *pass : {"canonicalize", "cse", "reconcile-unrealized-casts"})
    add(kGpuModule, pass);
  // Named LDS bases get their alias scopes once LDS accesses are LLVM ops.
  if (!nvidia && opts.ldsAliasScopes)
    add(kGpuModule, "klx-lds-alias-scope");
  // Line info for correlation. On NVIDIA directives only: .loc/.file lines
  // in PTX without DWARF sections, which ptxas rejects at -O3 ("Optimized
  // debugging not supported"), as clang's -gline-directives-only does.
  if (opts.lineInfo)
    add("", nvidia ? "ensure-debug-info-scope-on-llvm-func{emission-kind="
                     "DebugDirectivesOnly}"
                   : "ensure-debug-info-scope-on-llvm-func{emission-kind="
                     "LineTablesOnly}");
  // Host code ends as plain LLVM dialect calling the GPU runtime, as
  // upstream leaves it.
  for (const char *pass : {"gpu-to-llvm", "convert-math-to-llvm",
                           "canonicalize", "cse", "reconcile-unrealized-casts"})
    add("", pass);
  return steps;
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
