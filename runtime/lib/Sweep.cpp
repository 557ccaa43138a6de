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
#include "klx/Runtime/SweepRotation.h"

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
                      const SweepRecorder &record,
                      std::vector<std::string> *notes) {
  std::vector<SweepProcess> results(jobs.size());
  std::vector<size_t> variantOf;
  for (const SweepJob &job : jobs)
    variantOf.push_back(job.variant);
  SweepRotation rotation(variantOf, gpus);
  std::mutex mutex; // guards the rotation, `done` and the progress lines
  size_t done = 0;
  const char *parentDevices = std::getenv("CUDA_VISIBLE_DEVICES");
  std::string inherited = parentDevices ? parentDevices : "";
  int64_t backstop = sweepBackstopMs(options);
  auto say = [&](const std::string &line) {
    if (progress)
      progress(line);
  };
  auto worker = [&](int gpu) {
    std::string visible =
        childVisibleDevices(parentDevices ? inherited.c_str() : nullptr, gpu);
    std::string expectedPci = gpuPciAddress(gpu);
    // The probe: klx-run --device on this GPU, first and after a streak
    // of different variants failing here.
    auto probe = [&](const char *when) -> std::string {
      ChildExit p = runChild({options.runner, "--device"},
                             {{"CUDA_VISIBLE_DEVICES", visible}}, 60000);
      if (p.exitCode == 0)
        return "";
      std::string why = firstLine(p.err);
      return std::string("its probe (klx-run --device) failed ") + when + ": " +
             (why.empty() ? "exit " + std::to_string(p.exitCode) : why);
    };
    if (std::string why = probe("at the start"); !why.empty()) {
      std::lock_guard<std::mutex> lock(mutex);
      rotation.probed(gpu, false, why);
      say(rotation.notes().back());
      return;
    }
    while (!sweepStopRequested()) {
      std::optional<size_t> taken;
      {
        std::lock_guard<std::mutex> lock(mutex);
        taken = rotation.take(gpu);
      }
      if (!taken)
        break;
      size_t i = *taken;
      ChildExit child = runChild(childArguments(plan, jobs[i], options),
                                 {{"CUDA_VISIBLE_DEVICES", visible}}, backstop);
      // Ctrl+C reaches the children too: one it ended did not finish.
      if (sweepStopRequested() && child.signal)
        break;
      SweepProcess process = readSweepChild(jobs[i], gpu, child);
      checkChildGpu(process, expectedPci);
      bool failed = !process.passed();
      std::unique_lock<std::mutex> lock(mutex);
      if (record)
        record(jobs[i], gpu, child);
      bool first = results[i].status.empty();
      results[i] = std::move(process);
      done += first ? 1 : 0;
      say(formatSweepProgress(done, jobs.size(), plan, results[i]));
      if (rotation.finish(gpu, i, failed) != SweepRotation::After::Probe)
        continue;
      lock.unlock();
      std::string why =
          probe("after several different variants failed on it in a row");
      lock.lock();
      std::vector<size_t> again = rotation.probed(gpu, why.empty(), why);
      if (!why.empty())
        say(rotation.notes().back() + "; " + std::to_string(again.size()) +
            " of its runs go to the other GPUs");
    }
  };
  std::vector<std::thread> workers;
  for (int gpu : gpus)
    workers.emplace_back(worker, gpu);
  for (std::thread &t : workers)
    t.join();
  if (notes)
    *notes = rotation.notes();
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
  std::vector<std::string> notes;
  for (SweepProcess &p : runSweepJobs(
           *plan, jobs, *gpus, options, progress,
           [&](const SweepJob &job, int gpu, const ChildExit &child) {
             std::string line = sweepJournalLine(*plan, job, gpu, child);
             std::fwrite(line.data(), 1, line.size(), journal);
             std::fflush(journal);
           },
           &notes))
    if (!p.status.empty()) // finished: not stopped before or by Ctrl+C
      processes.push_back(std::move(p));
  std::fclose(journal);
  SweepSummary summary = summarizeSweep(*plan, processes);
  summary.notes = notes;
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
