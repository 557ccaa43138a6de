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
#include "klx/Runtime/SweepJournal.h"

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

/// DIR/runs.jsonl, for appending what finishes: with --resume, what it
/// holds already goes to `done` and out of `jobs`; else it starts empty.
/// Null with `result` set when it cannot be read or written.
std::FILE *openJournal(const SweepOptions &options, const SweepPlan &plan,
                       std::vector<SweepJob> &jobs,
                       std::vector<SweepProcess> &done, SweepResult &result) {
  std::string path = sweepJournalPath(options.dir);
  if (options.resume) {
    std::string text;
    if (readFile(path, text)) { // none yet: nothing finished
      int skipped = 0;
      done = readSweepJournal(plan, text, options.procs, skipped);
      jobs = jobsLeft(jobs, done);
    }
  }
  std::FILE *journal = std::fopen(path.c_str(), options.resume ? "a" : "w");
  if (!journal) {
    result.error = path + ": cannot write it (it records each run as it "
                          "finishes)";
    result.exitCode = 1;
  }
  return journal;
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
                      const SweepProgress &progress,
                      const SweepRecorder &record) {
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
    for (size_t i = next++; i < jobs.size() && !sweepStopRequested();
         i = next++) {
      ChildExit child = runChild(childArguments(plan, jobs[i], options),
                                 {{"CUDA_VISIBLE_DEVICES", visible}}, backstop);
      // Ctrl+C reaches the children too: one it ended did not finish.
      if (sweepStopRequested() && child.signal)
        break;
      SweepProcess process = readSweepChild(jobs[i], gpu, child);
      checkChildGpu(process, expectedPci);
      std::lock_guard<std::mutex> lock(mutex);
      if (record)
        record(jobs[i], gpu, child);
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
  std::vector<SweepProcess> processes;
  std::FILE *journal = openJournal(options, *plan, jobs, processes, result);
  if (!journal) {
    if (csv)
      std::fclose(csv);
    return result;
  }
  size_t earlier = processes.size(), toRun = jobs.size();
  for (SweepProcess &p :
       runSweepJobs(*plan, jobs, *gpus, options, progress,
                    [&](const SweepJob &job, int gpu, const ChildExit &child) {
                      std::string line =
                          sweepJournalLine(*plan, job, gpu, child);
                      std::fwrite(line.data(), 1, line.size(), journal);
                      std::fflush(journal);
                    }))
    if (!p.status.empty()) // finished: not stopped before or by Ctrl+C
      processes.push_back(std::move(p));
  std::fclose(journal);
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
  size_t ran = processes.size() - earlier;
  if (ran < toRun) {
    result.error =
        "interrupted: " + std::to_string(ran) + " of " + std::to_string(toRun) +
        " runs finished" +
        (earlier ? " (and " + std::to_string(earlier) + " before, from " +
                       sweepJournalPath(options.dir) + ")"
                 : "") +
        "; they are in " + sweepJournalPath(options.dir) +
        ", and klx-run --sweep " + options.dir + " --resume runs the rest";
    result.exitCode = 130;
  }
  return result;
}
