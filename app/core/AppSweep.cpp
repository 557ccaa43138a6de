//===- AppSweep.cpp - The controller's side of the Sweep pane -------------===//
//
// A sweep asked for in the pane: its -D lists and sizes checked here (the
// pane says what is wrong), then compiled and run by the SweepWorker; or
// a sweep's results, or a recorded trace (the Measured pane), read from a
// file a machine with a GPU wrote.
//
//===----------------------------------------------------------------------===//

#include "AppController.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace klx;
using namespace klx::app;

void AppController::startSweep(const std::string &axesText,
                               const std::string &sizesText) {
  SweepState &sweep = appState.sweep;
  sweep.axes = axesText;
  sweep.sizes = sizesText;
  sweep.error.clear();
  showPanel(Pane::Sweep);
  llvm::Expected<Defines> lists = parseSweepAxesText(axesText);
  // The window's own -D values hold in every variant unless the lists
  // name them.
  if (lists)
    for (const auto &define : appState.defines)
      if (llvm::none_of(*lists,
                        [&](const auto &d) { return d.first == define.first; }))
        lists->push_back(define);
  llvm::Expected<std::vector<SweepAxis>> axes =
      lists ? sweepAxes(*lists)
            : llvm::Expected<std::vector<SweepAxis>>(lists.takeError());
  if (!axes) {
    sweep.error = llvm::toString(axes.takeError());
    return;
  }
  SweepRequest request;
  request.plan.axes = std::move(*axes);
  for (llvm::StringRef word : llvm::split(llvm::StringRef(sizesText), ' ')) {
    word = word.trim(" ,");
    if (word.empty())
      continue;
    if (!parseProblemSize(word)) {
      sweep.error =
          "size \"" + word.str() + "\" is not MxNxK (a gemm) or N (a gather)";
      return;
    }
    if (!llvm::is_contained(request.plan.sizes, word.str()))
      request.plan.sizes.push_back(word.str());
  }
  request.source = appState.source.text;
  request.fileName = appState.source.path.empty() ? std::string("untitled.mlir")
                                                  : appState.source.path;
  // The window's target, tools and limits; the sweep's -D values replace
  // the pane's own.
  request.options = compileOptions({});
  if (appState.gpu.availability == GpuStatus::Availability::Available)
    request.runner = runnerPath();
  else
    request.notRun =
        "not run: " + (appState.gpu.reason.empty() ? std::string("no GPU (yet)")
                                                   : appState.gpu.reason);
  if (!sweepWorker.start(std::move(request)))
    sweep.error = "a sweep is running; this one was not started";
  sweep.progress = sweepWorker.progress();
}

void AppController::openSweepResults(const std::string &path) {
  SweepState &sweep = appState.sweep;
  sweep.error.clear();
  showPanel(Pane::Sweep);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    sweep.error = path + ": " + buffer.getError().message();
    return;
  }
  llvm::Expected<SweepResults> results =
      parseSweepResults((*buffer)->getBuffer());
  if (!results) {
    sweep.error = path + ": " + llvm::toString(results.takeError());
    return;
  }
  sweep.results = std::make_shared<const SweepResults>(std::move(*results));
  sweep.source = path;
  ++sweep.serial;
}

namespace {

/// A trace file as a run of its own; status "error" with the reason when
/// it cannot be read.
GpuRunRecord readTraceRecord(const std::string &path) {
  GpuRunRecord record;
  record.label = "trace " + path;
  record.importedTrace = true;
  record.status = "error";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  std::string error;
  std::optional<MeasuredTimeline> timeline;
  if (!buffer)
    error = buffer.getError().message();
  else
    timeline =
        readMeasuredTimeline(std::string_view((*buffer)->getBufferStart(),
                                              (*buffer)->getBufferSize()),
                             error);
  if (!timeline) {
    record.message = path + ": " + error;
    return record;
  }
  record.status = "imported";
  record.message = "read from " + path;
  record.device = timeline->device;
  timeline->label = record.label;
  record.measured = std::make_shared<MeasuredTimeline>(std::move(*timeline));
  return record;
}

} // namespace

void AppController::openTrace(const std::string &path, int64_t cta) {
  showPanel(Pane::Measured);
  setMessage("reading the trace " + path, /*isError=*/false);
  traceReader.request(++tracesAsked, [path, cta] {
    GpuRunRecord record = readTraceRecord(path);
    record.firstCta = cta;
    return std::make_shared<const GpuRunRecord>(std::move(record));
  });
}

bool AppController::takeTrace() {
  if (tracesTaken == tracesAsked)
    return false;
  std::shared_ptr<const GpuRunRecord> record = traceReader.get();
  if (!record)
    return false;
  tracesTaken = tracesAsked;
  bool failed = record->status == "error";
  setMessage(failed ? record->message : "opened the " + record->label, failed);
  appState.gpuRuns.push_back(*record);
  return true;
}
