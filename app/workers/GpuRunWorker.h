//===- GpuRunWorker.h - Kernels run on the GPU, off the GUI -----*- C++ -*-===//
//
// The GUI never launches a kernel itself: it writes a Bundle and runs
// klx-run as a child process, so a kernel that hangs or faults costs a
// child, never the window. One background thread; a run requested while
// another is under way waits for it.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WORKERS_GPURUNWORKER_H
#define KLX_APP_WORKERS_GPURUNWORKER_H

#include "views/MeasuredTimeline.h"
#include "workers/RunnerClient.h"

#include "klx/Export/Export.h"
#include "klx/Pipeline/Compiler.h"
#include "klx/Runtime/RunFormat.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace klx::app {

/// One finished run, as the Run pane lists it.
struct GpuRunRecord {
  uint64_t serial = 0;
  std::string label; // "gemm_pingpong.mlir -D stages=3, 2048x2048x1024"
  /// Which variant ran: its -D values ("stages=3"), a file, or "" for the
  /// file as given; Compare mode finds each side's runs by it.
  std::string variant;
  std::string status; // klx-run's: passed, wrong_result, hang, ...
  std::string message;
  std::string device;
  std::string launch; // "grid 132x1x1, block 384, 133120 B shared"
  double medianMs = 0, minMs = 0, maxMs = 0;
  double tflops = 0, percentOfPeak = 0;
  double cublasTflops = 0;   // 0: not timed
  double vsCublas = 0;       // klx / cuBLAS, timed alternately
  double relativeError = -1; // -1: not checked
  /// With "record timeline": the first traced CTA, read back.
  std::shared_ptr<const MeasuredTimeline> measured;
  /// A trace file opened in the window (File > Open trace), not a run.
  bool importedTrace = false;
  /// The CTA whose warps the Measured pane shows first (klx --measured-cta;
  /// -1: the one that ended last).
  int64_t firstCta = -1;
  bool passed() const { return status == rt::runfile::kPassed; }
};

/// What klx-run printed (its --json) turned into a record; a record with
/// status "error" when the text is not klx-run's JSON.
GpuRunRecord parseRunnerJson(const std::string &json, int exitCode,
                             const std::string &stderrText);

struct GpuRunRequest {
  std::string label;
  std::string variant;
  /// The compile to run and the bundle to make of it (exportBundle, on the
  /// worker: with `bundle.trace`, the instrumented build is compiled off
  /// the GUI thread and klx-run records a measured timeline).
  std::shared_ptr<const PipelineRun> run;
  BundleRequest bundle;
  int timeoutMs = 10000;
  int repeat = 20;
};

struct GpuStatus {
  enum class Availability { Probing, Available, Unavailable };
  Availability availability = Availability::Probing;
  std::string device; // when available
  std::string reason; // when not: "no CUDA device", "klx-run not found"
  bool running = false;
  std::string runningLabel;
};

class GpuRunWorker {
public:
  /// `runner` is the klx-run binary (RunnerClient::defaultPath()); `wake`
  /// is called from the worker thread when something changed.
  GpuRunWorker(std::string runner, std::function<void()> wake = {});
  ~GpuRunWorker();
  GpuRunWorker(const GpuRunWorker &) = delete;
  GpuRunWorker &operator=(const GpuRunWorker &) = delete;

  void submit(GpuRunRequest request);
  GpuStatus status() const;
  /// Records finished since the last call.
  std::vector<GpuRunRecord> poll();

private:
  void loop();
  GpuRunRecord run(const GpuRunRequest &request);

  RunnerClient runner;
  std::function<void()> wake;
  mutable std::mutex mutex;
  std::condition_variable wakeWorker;
  std::deque<GpuRunRequest> pending;
  std::vector<GpuRunRecord> finished;
  GpuStatus current;
  uint64_t serial = 0;
  bool stopping = false;
  std::thread thread;
};

} // namespace klx::app

#endif // KLX_APP_WORKERS_GPURUNWORKER_H
