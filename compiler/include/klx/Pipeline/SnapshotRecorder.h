//===- SnapshotRecorder.h - Pass instrumentation that records ---*- C++ -*-===//
//
// Records one Snapshot per pass per anchor op, in execution order: wall
// time, the IR of the whole module after the pass (so a nested pass on one
// gpu.module still shows the module around it), which source position each
// printed op came from, whether the text changed, op counts and the
// diagnostics the pass reported. Requires a context with multithreading
// disabled, as printing the enclosing module from a nested pass does.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_PIPELINE_SNAPSHOTRECORDER_H
#define KLX_PIPELINE_SNAPSHOTRECORDER_H

#include "klx/Pipeline/PipelineRun.h"

#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <cstdint>

namespace klx {

/// Fills a snapshot's text, origins and op counts from `op` and returns a
/// fingerprint of the text. `verified` skips the printer's own verification
/// (the pass manager has verified the IR after each successful pass).
uint64_t captureIR(mlir::Operation *op, Snapshot &snapshot, bool verified);

/// Counts ops by name under (and including) `op`.
void countOps(mlir::Operation *op, Snapshot &snapshot);

/// Renders "gpu.module @kernels" for an anchor op.
std::string describeAnchor(mlir::Operation *op);

class SnapshotRecorder : public mlir::PassInstrumentation {
public:
  /// `pendingDiags` is where the diagnostic collector puts messages; the
  /// recorder moves them into the snapshot of the pass that reported them.
  SnapshotRecorder(PipelineRun &run, std::vector<Diag> &pendingDiags,
                   DiagnosticCollector &collector, bool recordIR,
                   uint64_t inputFingerprint);

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override;

private:
  void record(mlir::Pass *pass, mlir::Operation *op, bool failed);

  PipelineRun &run;
  std::vector<Diag> &pendingDiags;
  DiagnosticCollector &collector;
  bool recordIR;
  uint64_t lastFingerprint;
  /// Occurrence numbers by pass instance: a nested pass run on several
  /// anchors is one occurrence recorded once per anchor.
  llvm::DenseMap<mlir::Pass *, unsigned> occurrences;
  llvm::StringMap<unsigned> occurrencesOfName;
  std::chrono::steady_clock::time_point passStart;
};

} // namespace klx

#endif // KLX_PIPELINE_SNAPSHOTRECORDER_H
