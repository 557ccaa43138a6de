//===- Sweep.cpp - klx-run --sweep: children per GPU, then a ranking ------===//
//
// The impure half of the sweep: reading DIR/sweep.json, asking the driver
// for its GPUs, and one worker thread per GPU that runs a child klx-run
// per job. The parent never creates a CUDA context: each child owns its
// GPU (CUDA_VISIBLE_DEVICES) for the length of one bundle, and a hung or
// faulting kernel ends with its child.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/Sweep.h"

#include "CudaSession.h"

#include "klx/Runtime/CudaDriver.h"
#include "klx/Runtime/Runner.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

using namespace klx::rt;

namespace {

/// DIR/sweep.json, parsed; errors name the file as DIR/sweep.json.
std::optional<SweepPlan> loadPlan(const std::string &dir, std::string &error) {
  std::string text;
  if (!readFile(dir + "/sweep.json", text)) {
    error = dir + "/sweep.json: cannot read it (is " + dir +
            " a folder written by klx sweep?)";
    return std::nullopt;
  }
  std::optional<SweepPlan> plan = parseSweepPlan(text, error);
  if (!plan)
    error = dir + "/" + error;
  return plan;
}

/// How many GPUs the driver sees; 0 with `error` ("no CUDA device: ...",
/// probeDevice's reason) when none.
int deviceCount(std::string &error) {
  if (probeDevice(error).empty())
    return 0;
  const cu::Driver *driver = cu::loadDriver(error);
  int count = 0;
  if (!driver || driver->deviceGetCount(&count) != cu::kSuccess || !count) {
    error = "no CUDA device: cuDeviceGetCount found none";
    return 0;
  }
  return count;
}

/// The PCI address of the parent's GPU `ordinal`, or "" (no context is
/// made: attributes need only cuInit).
std::string gpuPciAddress(int ordinal) {
  std::string error;
  const cu::Driver *driver = cu::loadDriver(error);
  cu::Device device = 0;
  if (!driver || driver->deviceGet(&device, ordinal) != cu::kSuccess)
    return "";
  return driver->pciAddress(device);
}

std::vector<std::string> childArguments(const SweepPlan &plan,
                                        const SweepJob &job,
                                        const SweepOptions &options) {
  std::vector<std::string> args = {
      options.runner, options.dir + "/" + plan.variants[job.variant].bundle,
      "--json", "--repeat=" + std::to_string(options.repeat),
      "--timeout-ms=" + std::to_string(options.timeoutMs)};
  if (!plan.sizes.empty())
    args.push_back("--size=" + plan.sizes[job.size]);
  if (!options.baseline)
    args.push_back("--no-baseline");
  return args;
}

} // namespace

int64_t klx::rt::sweepBackstopMs(const SweepOptions &options) {
  // Each launch is bounded by timeoutMs, and a run has repeat timed
  // launches of klx and cuBLAS plus warmup and checks: ten times that.
  int64_t bound = 10 * int64_t(options.timeoutMs) * (options.repeat + 10);
  return std::max<int64_t>(bound, 120 * 1000);
}

std::vector<SweepProcess>
klx::rt::runSweepJobs(const SweepPlan &plan, const std::vector<SweepJob> &jobs,
                      const std::vector<int> &gpus, const SweepOptions &options,
                      const SweepProgress &progress) {
  std::vector<SweepProcess> results(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex mutex; // guards `done` and the progress lines
  size_t done = 0;
  const char *parentDevices = std::getenv("CUDA_VISIBLE_DEVICES");
  std::string inherited = parentDevices ? parentDevices : "";
  int64_t backstop = sweepBackstopMs(options);
  auto worker = [&](int gpu) {
    std::string visible =
        childVisibleDevices(parentDevices ? inherited.c_str() : nullptr, gpu);
    std::string expectedPci = gpuPciAddress(gpu);
    for (size_t i = next++; i < jobs.size(); i = next++) {
      ChildExit child = runChild(childArguments(plan, jobs[i], options),
                                 {{"CUDA_VISIBLE_DEVICES", visible}}, backstop);
      SweepProcess process = readSweepChild(jobs[i], gpu, child);
      checkChildGpu(process, expectedPci);
      std::lock_guard<std::mutex> lock(mutex);
      results[i] = std::move(process);
      ++done;
      if (progress)
        progress(formatSweepProgress(done, jobs.size(), plan, results[i]));
    }
  };
  std::vector<std::thread> workers;
  for (int gpu : gpus)
    workers.emplace_back(worker, gpu);
  for (std::thread &t : workers)
    t.join();
  return results;
}

SweepResult klx::rt::runSweep(const SweepOptions &options,
                              const SweepProgress &progress) {
  SweepResult result;
  std::optional<SweepPlan> plan = loadPlan(options.dir, result.error);
  if (!plan) {
    result.exitCode = 1;
    return result;
  }
  if (!options.sizes.empty())
    plan->sizes = options.sizes;
  std::vector<SweepJob> jobs = planSweepJobs(*plan, options.procs);
  if (jobs.empty()) {
    // Nothing to run, so no GPU needed: the table (or JSON) still says why.
    SweepSummary summary = summarizeSweep(*plan, {});
    result.output = options.json ? formatSweepJson(*plan, summary)
                                 : formatSweepText(*plan, summary);
    result.error =
        options.dir + "/sweep.json: no variant compiled into a bundle";
    result.exitCode = 1;
    return result;
  }
  int count = deviceCount(result.error);
  std::optional<std::vector<int>> gpus =
      count ? parseGpuList(options.gpus, count, result.error) : std::nullopt;
  if (!gpus) {
    result.exitCode = 2;
    return result;
  }
  // Opened before the run, so that a wrong path costs no GPU time.
  std::FILE *csv = nullptr;
  if (!options.csvPath.empty() &&
      !(csv = std::fopen(options.csvPath.c_str(), "w"))) {
    result.error = options.csvPath + ": cannot write it";
    result.exitCode = 1;
    return result;
  }
  std::vector<SweepProcess> processes =
      runSweepJobs(*plan, jobs, *gpus, options, progress);
  SweepSummary summary = summarizeSweep(*plan, processes);
  result.output = options.json ? formatSweepJson(*plan, summary)
                               : formatSweepText(*plan, summary);
  if (csv) {
    std::string text = formatSweepCsv(*plan, summary);
    bool written = std::fwrite(text.data(), 1, text.size(), csv) == text.size();
    if (std::fclose(csv) != 0 || !written)
      result.error = options.csvPath + ": writing it failed";
  }
  result.exitCode = summary.exitCode;
  if (result.exitCode == 0 && !result.error.empty())
    result.exitCode = 1;
  return result;
}
