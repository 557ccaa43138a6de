//===- GpuRunWorker.cpp - Runs kernels on the GPU, off the GUI thread -----===//

#include "GpuRunWorker.h"

#include "klx/Runtime/RunFormat.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace klx;
using namespace klx::app;

namespace {

std::string firstLine(llvm::StringRef text) {
  return text.trim().split('\n').first.str();
}

} // namespace

GpuRunRecord klx::app::parseRunnerJson(const std::string &json, int exitCode,
                                       const std::string &stderrText) {
  GpuRunRecord record;
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  const llvm::json::Object *root = parsed ? parsed->getAsObject() : nullptr;
  if (!root) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    record.status = "error";
    record.message =
        "klx-run exited with " + std::to_string(exitCode) +
        " and printed no result" +
        (stderrText.empty() ? std::string() : ": " + firstLine(stderrText));
    return record;
  }
  namespace rf = rt::runfile;
  auto str = [&](llvm::StringRef key) {
    return root->getString(key).value_or("").str();
  };
  auto num = [&](const llvm::json::Object *o, llvm::StringRef key,
                 double fallback = 0) {
    return o ? o->getNumber(key).value_or(fallback) : fallback;
  };
  record.status = str(rf::kStatus);
  record.message = str(rf::kMessage);
  record.device = str(rf::kDevice);
  if (const llvm::json::Array *grid = root->getArray(rf::kGrid);
      grid && grid->size() == 3)
    record.launch =
        llvm::formatv("grid {0}x{1}x{2}, block {3}, {4} B shared",
                      (*grid)[0].getAsInteger().value_or(0),
                      (*grid)[1].getAsInteger().value_or(0),
                      (*grid)[2].getAsInteger().value_or(0),
                      root->getInteger(rf::kBlock).value_or(0),
                      root->getInteger(rf::kDynamicSharedMemory).value_or(0));
  const llvm::json::Object *time = root->getObject(rf::kTime);
  record.medianMs = num(time, rf::kMedianMs);
  record.minMs = num(time, rf::kMinMs);
  record.maxMs = num(time, rf::kMaxMs);
  record.tflops = num(root, rf::kTflops);
  double peak = num(root, rf::kPeakTflops);
  record.percentOfPeak = peak > 0 ? 100 * record.tflops / peak : 0;
  record.cublasTflops = num(root, rf::kCublasTflops);
  record.vsCublas = num(root, rf::kVsCublas);
  const llvm::json::Object *check = root->getObject(rf::kCublasCheck);
  if (!check)
    check = root->getObject(rf::kCpuCheck);
  record.relativeError = num(check, rf::kRelativeError, -1);
  if (const llvm::json::Object *cpu = root->getObject(rf::kCpuCheck))
    record.relativeError =
        std::max(record.relativeError, num(cpu, rf::kRelativeError, -1));
  return record;
}

GpuRunWorker::GpuRunWorker(std::string runner, std::function<void()> wake)
    : runner(std::move(runner)), wake(std::move(wake)),
      thread([this] { loop(); }) {}

GpuRunWorker::~GpuRunWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wakeWorker.notify_one();
  thread.join();
}

void GpuRunWorker::submit(GpuRunRequest request) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    pending.push_back(std::move(request));
  }
  wakeWorker.notify_one();
}

GpuStatus GpuRunWorker::status() const {
  std::lock_guard<std::mutex> lock(mutex);
  return current;
}

std::vector<GpuRunRecord> GpuRunWorker::poll() {
  std::lock_guard<std::mutex> lock(mutex);
  return std::move(finished);
}

void GpuRunWorker::loop() {
  // First, whether there is anything to run on.
  RunnerProbe said = runner.probe();
  GpuStatus probed;
  probed.availability = said.device.empty()
                            ? GpuStatus::Availability::Unavailable
                            : GpuStatus::Availability::Available;
  probed.device = std::move(said.device);
  probed.reason = std::move(said.reason);
  {
    std::lock_guard<std::mutex> lock(mutex);
    current.availability = probed.availability;
    current.device = probed.device;
    current.reason = probed.reason;
  }
  if (wake)
    wake();

  while (true) {
    GpuRunRequest request;
    {
      std::unique_lock<std::mutex> lock(mutex);
      wakeWorker.wait(lock, [&] { return stopping || !pending.empty(); });
      if (stopping)
        return;
      request = std::move(pending.front());
      pending.pop_front();
      current.running = true;
      current.runningLabel = request.label;
    }
    if (wake)
      wake();
    GpuRunRecord record = run(request);
    {
      std::lock_guard<std::mutex> lock(mutex);
      record.serial = ++serial;
      finished.push_back(std::move(record));
      current.running = !pending.empty();
      current.runningLabel.clear();
    }
    if (wake)
      wake();
  }
}

GpuRunRecord GpuRunWorker::run(const GpuRunRequest &request) {
  GpuRunRecord record;
  record.label = request.label;
  record.variant = request.variant;
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("klx-bundle", dir)) {
    record.status = "error";
    record.message = "cannot create a folder for the bundle: " + ec.message();
    return record;
  }
  llvm::Expected<BundleContents> bundle =
      exportBundle(*request.run, request.bundle, dir);
  if (!bundle) {
    record.status = "error";
    llvm::handleAllErrors(bundle.takeError(), [&](const ExportError &e) {
      record.message = e.kind == ExportError::Kind::Trace
                           ? "the instrumented build failed: " + e.message
                           : e.message;
    });
    return record;
  }
  bool trace = request.bundle.trace;
  llvm::SmallString<128> tracePath(dir);
  llvm::sys::path::append(tracePath, "trace.json");
  BundleRun run;
  run.dir = std::string(dir);
  run.size = bundle->problem.flag();
  run.timeoutMs = request.timeoutMs;
  run.repeat = request.repeat;
  if (trace)
    run.tracePath = std::string(tracePath);
  RunnerExit exit = runner.runBundle(run);
  std::string label = record.label;
  record = parseRunnerJson(exit.out, exit.exitCode,
                           exit.failure.empty() ? exit.err : exit.failure);
  record.label = label;
  record.variant = request.variant;
  if (trace)
    if (auto text = llvm::MemoryBuffer::getFile(tracePath)) {
      std::string why;
      if (std::optional<MeasuredTimeline> t =
              readMeasuredTimeline(std::string_view((*text)->getBufferStart(),
                                                    (*text)->getBufferSize()),
                                   why)) {
        t->label = label;
        if (t->device.empty()) // a trace says its SM count too
          t->device = record.device;
        record.measured = std::make_shared<MeasuredTimeline>(std::move(*t));
      }
    }
  llvm::sys::fs::remove_directories(dir);
  return record;
}
