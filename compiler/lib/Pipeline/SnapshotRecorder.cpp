//===- SnapshotRecorder.cpp - Pass instrumentation that records -----------===//

#include "klx/Pipeline/SnapshotRecorder.h"

#include "klx/Analysis/SnapshotFacts.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace klx;

static mlir::Operation *topLevelOp(mlir::Operation *op) {
  while (mlir::Operation *parent = op->getParentOp())
    op = parent;
  return op;
}

uint64_t klx::captureIR(mlir::Operation *op, Snapshot &snapshot, bool verified,
                        const ModelSize &size, const SourceNames *names) {
  mlir::AsmState::LocationMap locations;
  mlir::OpPrintingFlags flags;
  if (verified)
    flags.assumeVerified();
  mlir::AsmState state(op, flags, &locations);
  snapshot.text.clear();
  llvm::raw_string_ostream os(snapshot.text);
  op->print(os, state);
  os.flush();

  snapshot.origins.clear();
  snapshot.origins.reserve(locations.size());
  for (auto &[printedOp, lineCol] : locations) {
    SourceLoc source = toSourceLoc(printedOp->getLoc());
    if (source.isKnown())
      snapshot.origins.push_back({lineCol.first, std::move(source)});
  }
  llvm::sort(snapshot.origins, [](const LineOrigin &a, const LineOrigin &b) {
    return a.line < b.line;
  });
  countOps(op, snapshot);
  auto lineOf = [&](mlir::Operation *printed) {
    auto it = locations.find(printed);
    return it == locations.end() ? 0u : it->second.first;
  };
  // The analyses walk ops they expect to be well formed: after a failed
  // pass only IR that still verifies is analyzed (quietly checked).
  bool wellFormed = verified;
  if (!wellFormed) {
    mlir::ScopedDiagnosticHandler quiet(
        op->getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    wellFormed = mlir::succeeded(mlir::verify(op));
  }
  if (wellFormed)
    snapshot.facts = analyzeSnapshot(op, lineOf, size, names);
  return llvm::xxh3_64bits(snapshot.text);
}

void klx::countOps(mlir::Operation *op, Snapshot &snapshot) {
  snapshot.opCounts.clear();
  unsigned total = 0;
  op->walk([&](mlir::Operation *nested) {
    ++snapshot.opCounts[nested->getName().getStringRef().str()];
    ++total;
  });
  snapshot.opCount = total;
}

std::string klx::describeAnchor(mlir::Operation *op) {
  std::string text = op->getName().getStringRef().str();
  if (auto symName = op->getAttrOfType<mlir::StringAttr>(
          mlir::SymbolTable::getSymbolAttrName()))
    text += " @" + symName.getValue().str();
  return text;
}

SnapshotRecorder::SnapshotRecorder(PipelineRun &run,
                                   std::vector<Diag> &pendingDiags,
                                   DiagnosticCollector &collector,
                                   bool recordIR, mlir::Operation *input,
                                   uint64_t inputTextHash, size_t maxBytes,
                                   const SourceNames *names)
    : run(run), pendingDiags(pendingDiags), collector(collector),
      recordIR(recordIR), lastStructure(input), lastTextHash(inputTextHash),
      lastTextSnapshot(run.snapshots.size() - 1), maxBytes(maxBytes),
      names(names) {
  for (const Snapshot &s : run.snapshots)
    keptBytes += s.text.size();
}

// Adaptors that run nested pass managers have no argument; only real passes
// are steps.
static bool isStep(mlir::Pass *pass) { return !pass->getArgument().empty(); }

void SnapshotRecorder::runBeforePass(mlir::Pass *pass, mlir::Operation *op) {
  if (!isStep(pass))
    return;
  collector.setStep(pass->getArgument());
  passStart = std::chrono::steady_clock::now();
}

void SnapshotRecorder::runAfterPass(mlir::Pass *pass, mlir::Operation *op) {
  if (isStep(pass))
    record(pass, op, /*failed=*/false);
}

void SnapshotRecorder::runAfterPassFailed(mlir::Pass *pass,
                                          mlir::Operation *op) {
  if (isStep(pass))
    record(pass, op, /*failed=*/true);
}

void SnapshotRecorder::record(mlir::Pass *pass, mlir::Operation *op,
                              bool failed) {
  auto end = std::chrono::steady_clock::now();
  Snapshot snapshot;
  snapshot.wallMs =
      std::chrono::duration<double, std::milli>(end - passStart).count();
  snapshot.name = pass->getArgument().str();
  {
    std::string options;
    llvm::raw_string_ostream os(options);
    pass->printAsTextualPipeline(os);
    os.flush();
    // printAsTextualPipeline writes "name{opts}"; keep the braces part.
    size_t brace = options.find('{');
    if (brace != std::string::npos)
      snapshot.arguments = options.substr(brace);
  }
  snapshot.anchor = describeAnchor(op);
  snapshot.kind = EmitKind::MLIR;
  snapshot.failed = failed;
  auto [it, inserted] = occurrences.try_emplace(pass, 0);
  if (inserted)
    it->second = ++occurrencesOfName[snapshot.name];
  snapshot.occurrence = it->second;

  if (recordIR && keptBytes >= maxBytes) {
    std::string limit = maxBytes >= (1u << 20)
                            ? std::to_string(maxBytes >> 20) + " MB"
                            : std::to_string(maxBytes >> 10) + " KB";
    snapshot.skippedReason = llvm::formatv(
        "the IR after this step is not kept: the run's snapshots reached {0}, "
        "the limit that keeps a huge kernel from filling memory",
        limit);
    countOps(topLevelOp(op), snapshot);
  } else if (recordIR) {
    mlir::Operation *top = topLevelOp(op);
    mlir::OperationFingerPrint structure(top);
    if (!failed && structure == lastStructure) {
      const Snapshot &previous = run.snapshots[lastTextSnapshot];
      snapshot.text = previous.text;
      snapshot.origins = previous.origins;
      snapshot.opCounts = previous.opCounts;
      snapshot.opCount = previous.opCount;
      snapshot.facts.roles = previous.facts.roles;
      snapshot.facts.protocols = previous.facts.protocols;
      snapshot.facts.protocolNotes = previous.facts.protocolNotes;
      snapshot.facts.steps = previous.facts.steps;
      snapshot.changed = false;
    } else {
      // A failed pass may leave the IR invalid; the printer then falls back
      // to the generic form, which still shows where conversion stopped.
      uint64_t textHash =
          captureIR(top, snapshot, !failed, run.modelSize, names);
      // The structure can change while the text does not (an op replaced
      // by an identical one); "changed" is what the user would see.
      snapshot.changed = textHash != lastTextHash;
      lastTextHash = textHash;
    }
    lastStructure = structure;
    lastTextSnapshot = run.snapshots.size();
    keptBytes += snapshot.text.size();
  }
  snapshot.diagnostics = std::move(pendingDiags);
  pendingDiags.clear();
  run.snapshots.push_back(std::move(snapshot));
}
