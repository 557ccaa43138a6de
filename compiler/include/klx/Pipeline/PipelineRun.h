//===- PipelineRun.h - One recorded run of the klx pipeline -----*- C++ -*-===//
//
// A PipelineRun is recorded once, by pass instrumentation and by the backend
// steps, and then only read: views never re-run passes to display.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_PIPELINE_PIPELINERUN_H
#define KLX_PIPELINE_PIPELINERUN_H

#include "klx/Analysis/KernelLaunch.h"
#include "klx/Analysis/SnapshotFacts.h"
#include "klx/Pipeline/LoweringPipelines.h"
#include "klx/Support/Diagnostics.h"
#include "klx/Support/Stages.h"
#include "klx/Target/AmdgcnMetadata.h"
#include "klx/Target/InstructionClasses.h"
#include "klx/Target/PtxasReport.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace klx {

/// Ties a line of a snapshot's text to the source position its op came from.
struct LineOrigin {
  unsigned line = 0; // 1-based line in Snapshot::text
  SourceLoc source;
};

/// The state after one step: an MLIR pass on one anchor, or a backend step.
struct Snapshot {
  std::string name;      // pass argument or backend step name
  std::string arguments; // pass options, "{index-bitwidth=64 ...}"
  std::string anchor;    // "builtin.module", "gpu.module @kernels", ...
  EmitKind kind = EmitKind::MLIR;
  /// Which occurrence of `name` this is (1-based), so a pipeline that runs
  /// canonicalize four times can still name each one: "canonicalize#3".
  unsigned occurrence = 1;
  std::string text; // IR or assembly after the step; empty if not recorded
  std::vector<LineOrigin> origins;
  double wallMs = 0;
  bool changed = false;
  unsigned opCount = 0; // MLIR: operations; backend: instructions or lines
  std::map<std::string, unsigned> opCounts; // by op name (MLIR steps)
  std::vector<Diag> diagnostics;
  /// What klx's analyses read from the IR (MLIR steps): roles, barrier
  /// protocols, ordered steps (analyzeSnapshot).
  SnapshotFacts facts;
  bool failed = false;
  /// Set when the step could not run here for a reason that is not an
  /// error of the input, e.g. "nvdisasm is not on PATH"; text is empty.
  std::string skippedReason;

  /// "canonicalize" for the first occurrence, "canonicalize#3" later.
  std::string displayName() const;
  /// The gpu.module the step ran on ("kernels" for an anchor of
  /// "gpu.module @kernels"); empty for steps on the whole module.
  llvm::StringRef moduleName() const;
  /// What a list of steps calls it: displayName(), and where the run has
  /// several gpu.modules and the step ran on one, " @module" after it
  /// ("convert-gpu-to-nvvm @square_kernels", "ptx @square_kernels").
  std::string label(bool severalModules) const;
  /// MLIR or LLVM IR (not PTX, a cubin or assembly).
  bool isIR() const { return kind == EmitKind::MLIR || kind == EmitKind::LLVM; }
};

/// A snapshot's printed text by line, and the source line each line's op
/// came from: what the views print next to an op's line number.
class SnapshotLines {
public:
  explicit SnapshotLines(const Snapshot &snapshot);
  /// The line (1-based), trimmed; empty past the end.
  llvm::StringRef text(unsigned line) const;
  /// The source line the op printed on `line` came from, 0 when unknown.
  unsigned sourceLine(unsigned line) const;

private:
  const Snapshot &snapshot;
  std::vector<llvm::StringRef> lines;
};

/// What the backend made of one gpu.module.
struct DeviceArtifacts {
  std::string moduleName;
  std::string llvmIR;          // straight from translation
  std::string optimizedLLVMIR; // after the LLVM optimization pipeline
  std::string ptx;
  std::string cubin; // bytes
  std::string ptxasLog;
  std::optional<PtxasReport> ptxas;
  std::string sass;
  std::string sassMissingReason; // why there is no SASS, when there is none
  std::string amdgcn;
  std::string amdgcnObject; // relocatable ELF, with CompileOptions::codeObject
  std::optional<AmdgcnMetadata> amdgcnMetadata;
  std::map<EmitKind, InstructionCounts> counts;
};

enum class RunStatus {
  Success,
  InputError,       // the kernel is wrong: parse, verify or pass failure
  EnvironmentError, // a tool is missing or failed to start
  Stopped,          // stopped between two steps (CompileOptions::stop)
};

struct PipelineRun {
  std::string fileName;
  std::string source;
  /// The -D values it was compiled with (CompileOptions::defines).
  std::vector<std::pair<std::string, std::string>> defines;
  Target target = Target::SM90a;
  /// What the MLIR passes were built from (known once the input parsed).
  LoweringOptions lowering;
  /// The problem the snapshots' protocol models cover (tiles, k steps).
  ModelSize modelSize;
  std::vector<Snapshot> snapshots;
  std::vector<DeviceArtifacts> artifacts;
  /// Launch facts of the lowered klx kernels, read once the MLIR passes
  /// have all run (empty for hand-written kernels and shorter runs).
  std::vector<KernelLaunch> launches;
  /// Diagnostics not tied to one step (file, options); each snapshot keeps
  /// its own too.
  std::vector<Diag> diagnostics;
  RunStatus status = RunStatus::Success;
  double totalMs = 0;

  bool succeeded() const { return status == RunStatus::Success; }
  /// Every diagnostic, run-level first, then in step order.
  std::vector<Diag> allDiagnostics() const;
  /// Finds a step by display name ("canonicalize#2") or by plain name
  /// (first occurrence).
  const Snapshot *findSnapshot(llvm::StringRef name) const;
  /// Finds a step by its label: "NAME" or "NAME @MODULE", NAME a display
  /// name or a plain one (first occurrence). A step that runs on each
  /// gpu.module is found on MODULE; with no module named, on `preferred`
  /// where it ran there, else on the first. -1 when none.
  int findStep(llvm::StringRef label, llvm::StringRef preferred = "") const;
  /// Whether steps ran on more than one gpu.module (their labels say
  /// which).
  bool severalModules() const;
  /// The step whose protocol models the timeline shows: the last with
  /// models read from klx pipelines (the schedule as written), else the
  /// last with models read from nvgpu ops; -1 when no step has one.
  int timelineStep() const;
  /// The step whose kernels `klx steps` and the Steps pane show by
  /// default: the last before scf, arith or the kernels are lowered to
  /// cf and LLVM, where the body reads as written (for a kernel written
  /// inside gpu.launch, the input as it stands, after its transform
  /// script when it has one); -1 when no step has steps.
  int stepsStep() const;
  /// The step whose role trees `klx roles` reads by default: the last
  /// before convert-nvgpu-to-nvvm with trees (barriers still have names),
  /// else the last with trees; -1 when none.
  int rolesStep() const;
  /// The step that made the IR `step` shows: `step` itself, or for an
  /// MLIR step that changed nothing, the first of the steps before it with
  /// the same IR.
  int madeBy(int step) const;
};

} // namespace klx

#endif // KLX_PIPELINE_PIPELINERUN_H
