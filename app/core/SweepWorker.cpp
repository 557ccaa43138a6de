//===- SweepWorker.cpp - A sweep compiled and run off the GUI -------------===//

#include "SweepWorker.h"

#include "klx/Support/ExternalTool.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"

using namespace klx;
using namespace klx::app;

SweepWorker::SweepWorker(std::function<void()> wake) : wake(std::move(wake)) {}

SweepWorker::~SweepWorker() {
  if (stop)
    stop->request("the window closed");
  if (thread.joinable())
    thread.join();
}

bool SweepWorker::start(SweepRequest request) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (state.running)
      return false;
    state = SweepProgressState{true, "starting", 0, 0};
  }
  if (thread.joinable())
    thread.join();
  stop = std::make_shared<StopRequest>();
  request.options.stop = stop;
  thread = std::thread([this, request = std::move(request)]() mutable {
    run(std::move(request));
  });
  return true;
}

SweepProgressState SweepWorker::progress() const {
  std::lock_guard<std::mutex> lock(mutex);
  return state;
}

std::shared_ptr<const SweepResults> SweepWorker::take() {
  std::lock_guard<std::mutex> lock(mutex);
  return std::move(finished);
}

void SweepWorker::setPhase(std::string phase, size_t done, size_t total) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    state.phase = std::move(phase);
    state.done = done;
    state.total = total;
  }
  if (wake)
    wake();
}

namespace {

/// `klx-run --sweep DIR --json`: its ranked runs, or why there are none.
llvm::Expected<SweepResults> runOnGpu(const SweepRequest &request,
                                      llvm::StringRef dir) {
  llvm::Expected<TempFile> out = TempFile::create("klx-sweep", "json");
  if (!out)
    return out.takeError();
  std::vector<std::string> args = {request.runner, "--sweep", dir.str(),
                                   "--json"};
  for (const std::string &size : request.plan.sizes)
    args.push_back("--size=" + size);
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(out->path()), llvm::StringRef("")};
  std::string failure;
  int code = llvm::sys::ExecuteAndWait(request.runner, argv, std::nullopt,
                                       redirects, 0, 0, &failure);
  if (code < 0)
    return llvm::createStringError(request.runner + ": " + failure);
  llvm::Expected<std::string> text = out->read();
  if (!text)
    return text.takeError();
  llvm::Expected<SweepResults> runs = parseSweepResults(*text);
  if (!runs)
    return llvm::createStringError(
        llvm::formatv("klx-run --sweep exited with {0} and printed no "
                      "result ({1})",
                      code, llvm::toString(runs.takeError()))
            .str());
  return runs;
}

} // namespace

void SweepWorker::run(SweepRequest request) {
  SweepResults results;
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("klx-sweep", dir)) {
    results.notRun = "cannot make a folder for the bundles: " + ec.message();
  } else {
    size_t total = plannedVariants(request.plan).size();
    setPhase(llvm::formatv("compiling 0 of {0}", total), 0, total);
    unsigned jobs = request.jobs
                        ? request.jobs
                        : std::max(1u, std::thread::hardware_concurrency());
    std::vector<SweepVariant> variants = compileSweep(
        request.source, request.fileName, request.options, request.plan, dir,
        jobs, [&](size_t done, size_t all, const SweepVariant &) {
          setPhase(llvm::formatv("compiling {0} of {1}", done, all), done, all);
        });
    bool anyCompiled = llvm::any_of(
        variants, [](const SweepVariant &v) { return !v.folder.empty(); });
    std::string notRun = request.notRun;
    if (!anyCompiled)
      notRun = "no variant has a bundle to run";
    else if (llvm::Error error =
                 writeSweepFile(dir, request.fileName, request.plan, variants))
      notRun = llvm::toString(std::move(error));
    if (request.runner.empty() || !notRun.empty() || !request.notRun.empty())
      notRun += (notRun.empty() ? "" : "; ") + std::string("the bundles: ") +
                std::string(dir);
    results = sweepResultsFromCompile(request.fileName, variants,
                                      request.runner.empty() ? notRun : "");
    if (!request.runner.empty() && anyCompiled) {
      setPhase("running on the GPU (klx-run --sweep " + std::string(dir) + ")",
               total, total);
      llvm::Expected<SweepResults> runs = runOnGpu(request, dir);
      if (runs) {
        results.device = runs->device;
        results.sizes = std::move(runs->sizes);
      } else {
        results.notRun = llvm::toString(runs.takeError());
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    finished = std::make_shared<const SweepResults>(std::move(results));
    state = SweepProgressState{};
  }
  if (wake)
    wake();
}
