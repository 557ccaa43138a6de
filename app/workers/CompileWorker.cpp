//===- CompileWorker.cpp - Compiles off the GUI thread --------------------===//

#include "CompileWorker.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

using namespace klx;
using namespace klx::app;

namespace {
using Clock = std::chrono::steady_clock;

std::atomic<unsigned> leftBehindCount{0};

/// How long closing waits for a compile to reach its next step before
/// leaving it behind.
constexpr std::chrono::seconds kCloseGrace(2);
} // namespace

/// What the worker's threads share. A thread left behind keeps it alive,
/// so it outlives the worker; such a thread knows it was left by its
/// generation, which no longer matches.
struct CompileWorker::Shared : std::enable_shared_from_this<Shared> {
  struct Running {
    uint64_t id = 0;
    /// Shared with the compile, not copied: only a run left behind keeps it.
    std::shared_ptr<const std::string> source;
    std::shared_ptr<StopRequest> stop;
    Clock::time_point started;
    CompileProgress progress;
  };

  std::function<void()> wake;
  std::mutex mutex;
  std::condition_variable requested; // the compile thread waits here
  std::condition_variable watched;   // the watcher waits for a deadline
  std::condition_variable idle;      // closing waits for the compile to end
  std::optional<CompileRequest> pending;
  std::optional<CompileResult> finished;
  std::optional<Running> running;
  unsigned generation = 0;
  bool stopping = false;
  double limitSeconds = kDefaultCompileSeconds;
  std::thread compileThread;

  /// Under the lock: the compile in flight is past its limit. It is asked
  /// to stop, reported stopped now, and its thread left to end on its own.
  void leaveRunningBehind() {
    Running &late = *running;
    std::string reason;
    llvm::raw_string_ostream(reason)
        << "the compile ran past its limit of "
        << llvm::format("%g", limitSeconds) << " s";
    late.stop->request(reason);
    const CompileProgress &at = late.progress;
    // Until parsing ends the plan's length is unknown.
    bool parsing = at.index == 0;
    llvm::StringRef step = parsing ? llvm::StringRef(step::kParse) : at.step;
    std::string where = parsing ? step.str()
                                : llvm::formatv("{0} (step {1} of {2})", step,
                                                at.index + 1, at.count)
                                      .str();
    std::string message =
        llvm::formatv("stopped: {0} in {1}, which has not ended; that step "
                      "is left to finish on its own. Edit the kernel or its "
                      "-D values to compile again (start klx with "
                      "--timeout=SECONDS for another limit)",
                      reason, where)
            .str();
    auto run = std::make_shared<PipelineRun>(
        failedRun(at.file, RunStatus::Stopped, step, message));
    run->source = *late.source;
    run->totalMs =
        std::chrono::duration<double, std::milli>(Clock::now() - late.started)
            .count();
    auto timeline = std::make_shared<TimelineViews>(buildTimelineViews(*run));
    finished = CompileResult{late.id, std::move(run), std::move(timeline)};
    running.reset();
    ++generation;
    ++leftBehindCount;
    compileThread.detach();
    compileThread = std::thread(compileLoop, shared_from_this(), generation);
    if (wake)
      wake();
  }
};

CompileWorker::CompileWorker(std::function<void()> wake, double limitSeconds)
    : shared(std::make_shared<Shared>()) {
  shared->wake = std::move(wake);
  shared->limitSeconds = limitSeconds;
  shared->compileThread = std::thread(compileLoop, shared, 0u);
  watcher = std::thread(watchLoop, shared);
}

CompileWorker::~CompileWorker() {
  {
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->stopping = true;
    shared->pending.reset();
    if (shared->running)
      shared->running->stop->request("the window is closing");
  }
  shared->requested.notify_all();
  shared->watched.notify_all();
  watcher.join();
  std::unique_lock<std::mutex> lock(shared->mutex);
  // The compile in flight ends at its next step; one stuck in a step is
  // left behind rather than holding the window open.
  if (!shared->idle.wait_for(lock, kCloseGrace,
                             [&] { return !shared->running; })) {
    ++shared->generation;
    ++leftBehindCount;
    shared->compileThread.detach();
    return;
  }
  std::thread compileThread = std::move(shared->compileThread);
  lock.unlock();
  compileThread.join();
}

void CompileWorker::submit(CompileRequest request) {
  {
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->pending = std::move(request);
    if (shared->running)
      shared->running->stop->request("a newer edit replaced it");
  }
  shared->requested.notify_all();
}

std::optional<CompileResult> CompileWorker::poll() {
  std::lock_guard<std::mutex> lock(shared->mutex);
  std::optional<CompileResult> result = std::move(shared->finished);
  shared->finished.reset();
  return result;
}

bool CompileWorker::busy() const {
  std::lock_guard<std::mutex> lock(shared->mutex);
  return shared->pending.has_value() || shared->running.has_value();
}

CompileProgress CompileWorker::progress() const {
  std::lock_guard<std::mutex> lock(shared->mutex);
  return shared->running ? shared->running->progress : CompileProgress();
}

void CompileWorker::setLimit(double seconds) {
  {
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->limitSeconds = seconds;
  }
  shared->watched.notify_all();
}

unsigned CompileWorker::leftBehind() { return leftBehindCount.load(); }

void CompileWorker::compileLoop(std::shared_ptr<Shared> shared,
                                unsigned generation) {
  while (true) {
    CompileRequest request;
    std::shared_ptr<const std::string> source;
    auto stop = std::make_shared<StopRequest>();
    {
      std::unique_lock<std::mutex> lock(shared->mutex);
      shared->requested.wait(lock, [&] {
        return shared->stopping || shared->generation != generation ||
               shared->pending.has_value();
      });
      if (shared->stopping || shared->generation != generation)
        return;
      request = std::move(*shared->pending);
      shared->pending.reset();
      source = std::make_shared<const std::string>(std::move(request.source));
      Shared::Running running;
      running.id = request.id;
      running.source = source;
      running.stop = stop;
      running.started = Clock::now();
      running.progress.file =
          request.fileName.empty() ? "untitled" : request.fileName;
      shared->running = std::move(running);
    }
    shared->watched.notify_all();

    request.options.stop = stop;
    request.options.onStep =
        [shared, generation, chained = std::move(request.options.onStep)](
            size_t index, size_t count, llvm::StringRef name) {
          {
            std::lock_guard<std::mutex> lock(shared->mutex);
            if (shared->generation == generation && shared->running) {
              shared->running->progress.step = name.str();
              shared->running->progress.index = index;
              shared->running->progress.count = count;
            }
          }
          if (chained)
            chained(index, count, name);
        };
    auto run = std::make_shared<PipelineRun>(
        runPipeline(*source, request.fileName, request.options));
    auto timeline = std::make_shared<TimelineViews>(buildTimelineViews(*run));

    std::lock_guard<std::mutex> lock(shared->mutex);
    if (shared->generation != generation) {
      --leftBehindCount; // reported stopped long ago; nobody's result
      return;
    }
    shared->running.reset();
    // A run stopped for a newer request, or for closing, is nobody's to see.
    bool replaced = run->status == RunStatus::Stopped &&
                    (shared->pending || shared->stopping);
    if (!replaced) {
      shared->finished =
          CompileResult{request.id, std::move(run), std::move(timeline)};
      // Under the lock: once closing has left this thread behind, the
      // window that `wake` reaches may be gone.
      if (shared->wake)
        shared->wake();
    }
    shared->idle.notify_all();
  }
}

void CompileWorker::watchLoop(std::shared_ptr<Shared> shared) {
  std::unique_lock<std::mutex> lock(shared->mutex);
  while (!shared->stopping) {
    if (!shared->running || shared->limitSeconds <= 0) {
      shared->watched.wait(lock);
      continue;
    }
    auto deadline = shared->running->started +
                    std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(shared->limitSeconds));
    if (Clock::now() < deadline) {
      // Woken early by a new compile, a new limit or closing: look again.
      shared->watched.wait_until(lock, deadline);
      continue;
    }
    shared->leaveRunningBehind();
  }
}
