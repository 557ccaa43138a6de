//===- Compiler.h - Run the klx pipeline on a kernel source -----*- C++ -*-===//

#ifndef KLX_PIPELINE_COMPILER_H
#define KLX_PIPELINE_COMPILER_H

#include "klx/Pipeline/LoweringPipelines.h"
#include "klx/Pipeline/PipelineRun.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace klx {

/// The largest source klx compiles (a stated limit: the biggest sample is
/// 8 KB; a kernel hundreds of times that is not a kernel to step through).
inline constexpr size_t kMaxSourceBytes = 16u << 20;

/// Why `bytes` of source are too many to compile, or "".
std::string sourceSizeProblem(uint64_t bytes);

struct CompileOptions {
  /// Empty: the module's `klx.target` attribute, else sm_90a.
  std::optional<Target> target;
  /// Stop after this step: a pass or backend step name, optionally with
  /// "#N" for its N-th occurrence. Empty runs everything.
  std::string stopAfter;
  /// Also stop once this kind is produced (the last MLIR pass for MLIR,
  /// llvm-opt for LLVM): what `klx compile --emit=KIND` needs and no more.
  std::optional<EmitKind> emitGoal;
  /// -D NAME=VALUE overrides of the module's `klx.params` entries.
  std::vector<std::pair<std::string, std::string>> defines;
  /// False records timing only (no IR text, origins or op counts): the
  /// baseline that measures what snapshots cost.
  bool recordSnapshots = true;
  /// The IR text a run keeps over all its steps (a stated limit): past it,
  /// later steps say their IR was not kept instead of filling memory.
  size_t maxSnapshotBytes = size_t(768) << 20;
  std::string ptxasPath;     // empty: search
  std::string nvdisasmPath;  // empty: search
  std::string libdevicePath; // empty: search
  std::string ptxFeatures = "+ptx88";
  unsigned optLevel = 3;
  bool lineInfo = true;
  /// klx kernels record a measured timeline into an extra parameter
  /// (what `klx export --trace` adds to a bundle).
  bool instrument = false;
  /// AMD: also emit the kernel's code object (an ELF relocatable, which
  /// `klx export` links into kernel.hsaco).
  bool codeObject = false;
};

/// Parses `source`, runs the target's lowering pass by pass and then the
/// backend steps, and records everything in a PipelineRun. Never throws or
/// exits: every problem becomes a diagnostic and a status.
PipelineRun runPipeline(llvm::StringRef source, llvm::StringRef fileName,
                        const CompileOptions &options);

/// The lowering options a compile with `options` uses for `target`;
/// `klxKernels` when the input has klx kernels.
LoweringOptions loweringOptionsFor(const CompileOptions &options, Target target,
                                   bool klxKernels = false);

/// The steps a run with `lowering` takes: parse, pass names (with #N for
/// repeats), then backend steps. This is what --stop-after accepts.
std::vector<std::string> plannedStepNames(const LoweringOptions &lowering);

/// True if the module holds ops of the klx dialect.
bool containsKlxOps(mlir::Operation *module);

/// Creates a context with every klx dialect and translation registered and
/// multithreading off (snapshots print the whole module from nested passes).
std::unique_ptr<mlir::MLIRContext> createContext();

} // namespace klx

#endif // KLX_PIPELINE_COMPILER_H
