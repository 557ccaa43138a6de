//===- Compiler.h - Run the klx pipeline on a kernel source -----*- C++ -*-===//

#ifndef KLX_PIPELINE_COMPILER_H
#define KLX_PIPELINE_COMPILER_H

#include "klx/Pipeline/LoweringPipelines.h"
#include "klx/Pipeline/PipelineRun.h"
#include "klx/Support/SourceFile.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace klx {

/// How long a compile may take before the CLI (--timeout) and the window
/// stop it (a stated limit: the slowest sample compiles in under a second).
inline constexpr double kDefaultCompileSeconds = 300;

/// Lets another thread stop a compile. The pipeline looks before each
/// step, so a step in progress runs to its end; whoever must not wait for
/// that (the window, past its time limit) stops waiting instead.
class StopRequest {
public:
  /// The first reason given is the one the run reports.
  void request(std::string reason);
  bool requested() const { return flag.load(std::memory_order_acquire); }
  std::string reason() const;

private:
  std::atomic<bool> flag{false};
  mutable std::mutex mutex;
  std::string why;
};

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
  /// The lowering's switches a caller sets: PTX features, the optimisation
  /// level, line info, and the measured timeline (`instrument`, what
  /// `klx export --trace` adds to a bundle, with `traceCtas` checked by
  /// checkTraceCtas). Its target, klxKernels and the module's own switches
  /// are the run's to settle (loweringOptionsFor, PipelineRun::lowering).
  LoweringOptions lowering;
  /// Looked at before each step: once requested, the run ends there with
  /// RunStatus::Stopped and the reason.
  std::shared_ptr<StopRequest> stop;
  /// Called before each step with its place in the plan of this run (from
  /// 0 for parse to count - 1) and its name, for progress displays.
  std::function<void(size_t index, size_t count, llvm::StringRef name)> onStep;
  /// The problem each step's barrier protocol models cover: what
  /// `klx timeline` simulates and `klx verify` explores (--tiles,
  /// --k-steps).
  ModelSize modelSize;
  /// AMD: also emit the kernel's code object (an ELF relocatable, which
  /// `klx export` links into kernel.hsaco).
  bool codeObject = false;
};

/// Parses `source`, runs the target's lowering pass by pass and then the
/// backend steps, and records everything in a PipelineRun. Never throws or
/// exits: every problem becomes a diagnostic and a status.
PipelineRun runPipeline(llvm::StringRef source, llvm::StringRef fileName,
                        const CompileOptions &options);

/// A run that ended in `step` without IR to show: the one failed snapshot
/// (views always have a step to show) carries `message`.
PipelineRun failedRun(llvm::StringRef fileName, RunStatus status,
                      llvm::StringRef step, std::string message);

/// The lowering options a compile with `options` uses for `target`;
/// `klxKernels` when the input has klx kernels.
LoweringOptions loweringOptionsFor(const CompileOptions &options, Target target,
                                   bool klxKernels = false);

/// The steps a run with `lowering` takes: parse, pass names (with #N for
/// repeats), then backend steps. This is what --stop-after accepts.
std::vector<std::string> plannedStepNames(const LoweringOptions &lowering);

/// Why `ctas` is not "all", a count of CTAs from 1 or a list of up to 64
/// block ids ("0,5,131"); empty when it is one of those.
std::string checkTraceCtas(llvm::StringRef ctas);

/// True if the module holds ops of the klx dialect.
bool containsKlxOps(mlir::Operation *module);

/// Creates a context with every klx dialect and translation registered and
/// multithreading off (snapshots print the whole module from nested passes).
std::unique_ptr<mlir::MLIRContext> createContext();

} // namespace klx

#endif // KLX_PIPELINE_COMPILER_H
