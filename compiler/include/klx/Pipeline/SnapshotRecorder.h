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

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <chrono>
#include <cstdint>

namespace klx {

/// Fills a snapshot's text, origins and op counts from `op` and returns a
/// fingerprint of the text. `verified` skips the printer's own verification
/// (the pass manager has verified the IR after each successful pass);
/// `size` is the problem the protocol models cover; `names`, when given,
/// how the input text names values.
uint64_t captureIR(mlir::Operation *op, Snapshot &snapshot, bool verified,
                   const ModelSize &size = {},
                   const SourceNames *names = nullptr);

/// Counts ops by name under (and including) `op`.
void countOps(mlir::Operation *op, Snapshot &snapshot);

/// Renders "gpu.module @kernels" for an anchor op.
std::string describeAnchor(mlir::Operation *op);

class SnapshotRecorder : public mlir::PassInstrumentation {
public:
  /// `pendingDiags` is where the diagnostic collector puts messages; the
  /// recorder moves them into the snapshot of the pass that reported them.
  /// `input` is the module as parsed, whose text is the last snapshot of
  /// `run` and hashes to `inputTextHash`. Once the snapshots' texts pass
  /// `maxBytes`, later steps keep no text and say so.
  SnapshotRecorder(PipelineRun &run, std::vector<Diag> &pendingDiags,
                   DiagnosticCollector &collector, bool recordIR,
                   mlir::Operation *input, uint64_t inputTextHash,
                   size_t maxBytes, const SourceNames *names = nullptr);

  /// Before the passes of another pass manager: those of the last one are
  /// gone, and a new pass may reuse one's address.
  void forgetPassInstances() { occurrences.clear(); }

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override;
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override;

private:
  void record(mlir::Pass *pass, mlir::Operation *op, bool failed);

  PipelineRun &run;
  std::vector<Diag> &pendingDiags;
  DiagnosticCollector &collector;
  bool recordIR;
  // Printing dominates what snapshots cost, so a pass that left the IR
  // untouched (same structural fingerprint) reuses the last text.
  mlir::OperationFingerPrint lastStructure;
  uint64_t lastTextHash;
  size_t lastTextSnapshot;
  size_t keptBytes = 0, maxBytes;
  const SourceNames *names;
  /// Occurrence numbers by pass instance: a nested pass run on several
  /// anchors is one occurrence recorded once per anchor.
  llvm::DenseMap<mlir::Pass *, unsigned> occurrences;
  llvm::StringMap<unsigned> occurrencesOfName;
  std::chrono::steady_clock::time_point passStart;
};

/// Hands a pass manager's events to an instrumentation it does not own, so
/// that one recorder follows a run made of one pass manager per step.
class ForwardingInstrumentation : public mlir::PassInstrumentation {
public:
  explicit ForwardingInstrumentation(mlir::PassInstrumentation &target)
      : target(target) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    target.runBeforePass(pass, op);
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    target.runAfterPass(pass, op);
  }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override {
    target.runAfterPassFailed(pass, op);
  }

private:
  mlir::PassInstrumentation &target;
};

} // namespace klx

#endif // KLX_PIPELINE_SNAPSHOTRECORDER_H
