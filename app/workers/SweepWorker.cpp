//===- SweepWorker.cpp - A sweep compiled and run off the GUI -------------===//

#include "SweepWorker.h"

#include "RunnerClient.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

using namespace klx;
using namespace klx::app;

namespace {
/// How long closing the window waits for a sweep to reach its next step.
constexpr std::chrono::seconds kCloseGrace(2);
} // namespace

struct SweepWorker::Shared {
  std::function<void()> wake;
  std::mutex mutex;
  std::condition_variable idle;
  SweepProgressState state;
  std::shared_ptr<const SweepResults> finished;
  std::shared_ptr<StopRequest> stop;
  std::thread thread;

  void setPhase(std::string phase, size_t done, size_t total) {
    std::function<void()> wakeNow;
    {
      std::lock_guard<std::mutex> lock(mutex);
      state.phase = std::move(phase);
      state.done = done;
      state.total = total;
      wakeNow = wake; // cleared under the lock when the window closes
    }
    if (wakeNow)
      wakeNow();
  }
};

namespace {

/// The last non-empty line of `text`.
std::string lastLine(llvm::StringRef text) {
  text = text.rtrim();
  size_t start = text.rfind('\n');
  return text.drop_front(start == llvm::StringRef::npos ? 0 : start + 1).str();
}

/// `klx-run --sweep DIR --json`: its ranked runs, or why there are none.
/// A stop request (the window closing) kills the child.
llvm::Expected<SweepResults> runOnGpu(const SweepRequest &request,
                                      llvm::StringRef dir,
                                      const StopRequest &stop) {
  SweepRun run;
  run.dir = dir.str();
  for (const std::string &size : request.plan.sizes)
    run.flags.push_back("--size=" + size);
  run.json = true;
  run.stop = [&] { return stop.requested(); };
  RunnerExit exit = RunnerClient(request.runner).runSweep(run);
  if (exit.stopped)
    return llvm::createStringError("stopped: " + stop.reason());
  if (!exit.failure.empty())
    return llvm::createStringError(exit.failure);
  llvm::Expected<SweepResults> runs = parseSweepResults(exit.out);
  if (runs)
    return runs;
  llvm::consumeError(runs.takeError());
  std::string said = lastLine(exit.err);
  return llvm::createStringError(
      llvm::formatv("klx-run --sweep exited with {0} and printed no result{1}",
                    exit.exitCode, said.empty() ? "" : ": " + said)
          .str());
}

/// Compiles the sweep into `dir`, then runs it where there is a GPU.
SweepResults runSweep(SweepWorker::Shared &shared, SweepRequest request,
                      llvm::StringRef dir) {
  size_t total = plannedVariants(request.plan).size();
  shared.setPhase(llvm::formatv("compiling 0 of {0}", total), 0, total);
  unsigned jobs = request.jobs
                      ? request.jobs
                      : std::max(1u, std::thread::hardware_concurrency());
  std::vector<SweepVariant> variants = compileSweep(
      request.source, request.fileName, request.options, request.plan, dir,
      jobs, [&](size_t done, size_t all, const SweepVariant &) {
        shared.setPhase(llvm::formatv("compiling {0} of {1}", done, all), done,
                        all);
      });
  // Why nothing runs on a GPU, when nothing does; the bundles' folder is
  // said either way, for a machine that has one.
  std::string notRun = request.runner.empty() ? request.notRun : "";
  if (llvm::none_of(variants,
                    [](const SweepVariant &v) { return !v.folder.empty(); }))
    notRun = "not run: no variant has a bundle to run";
  else if (llvm::Error error =
               writeSweepFile(dir, request.fileName, request.plan, variants))
    notRun = "not run: " + llvm::toString(std::move(error));
  else if (request.options.stop && request.options.stop->requested())
    notRun = "not run: " + request.options.stop->reason();
  SweepResults results = sweepResultsFromCompile(
      request.fileName, variants,
      notRun.empty() ? notRun : notRun + "; the bundles: " + dir.str());
  if (!notRun.empty())
    return results;
  shared.setPhase("running on the GPU (klx-run --sweep " + dir.str() + ")",
                  total, total);
  llvm::Expected<SweepResults> runs =
      runOnGpu(request, dir, *request.options.stop);
  if (runs) {
    results.device = runs->device;
    results.sizes = std::move(runs->sizes);
  } else {
    results.notRun =
        llvm::toString(runs.takeError()) + "; the bundles: " + dir.str();
  }
  return results;
}

void runOnThread(std::shared_ptr<SweepWorker::Shared> shared,
                 SweepRequest request) {
  SweepResults results;
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("klx-sweep", dir))
    results.notRun = "cannot make a folder for the bundles: " + ec.message();
  else
    results = runSweep(*shared, std::move(request), dir);
  std::function<void()> wakeNow;
  {
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->finished = std::make_shared<const SweepResults>(std::move(results));
    shared->state = SweepProgressState{};
    wakeNow = shared->wake;
  }
  shared->idle.notify_all();
  if (wakeNow)
    wakeNow();
}

} // namespace

SweepWorker::SweepWorker(std::function<void()> wake)
    : shared(std::make_shared<Shared>()) {
  shared->wake = std::move(wake);
}

SweepWorker::~SweepWorker() {
  std::unique_lock<std::mutex> lock(shared->mutex);
  if (shared->stop)
    shared->stop->request("the window is closing");
  // A sweep ends at its next compile step (its klx-run is killed); one
  // stuck in a step is left behind rather than holding the window open.
  if (!shared->idle.wait_for(lock, kCloseGrace,
                             [&] { return !shared->state.running; })) {
    shared->wake = nullptr;
    shared->thread.detach();
    return;
  }
  std::thread thread = std::move(shared->thread);
  lock.unlock();
  if (thread.joinable())
    thread.join();
}

bool SweepWorker::start(SweepRequest request) {
  std::thread previous;
  {
    std::lock_guard<std::mutex> lock(shared->mutex);
    if (shared->state.running)
      return false;
    shared->state = SweepProgressState{true, "starting", 0, 0};
    previous = std::move(shared->thread);
    shared->stop = std::make_shared<StopRequest>();
    request.options.stop = shared->stop;
  }
  if (previous.joinable())
    previous.join();
  std::thread thread(runOnThread, shared, std::move(request));
  std::lock_guard<std::mutex> lock(shared->mutex);
  shared->thread = std::move(thread);
  return true;
}

SweepProgressState SweepWorker::progress() const {
  std::lock_guard<std::mutex> lock(shared->mutex);
  return shared->state;
}

std::shared_ptr<const SweepResults> SweepWorker::take() {
  std::lock_guard<std::mutex> lock(shared->mutex);
  return std::move(shared->finished);
}
