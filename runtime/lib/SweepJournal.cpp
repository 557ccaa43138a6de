//===- SweepJournal.cpp - What a sweep finished, one line per run ---------===//

#include "klx/Runtime/SweepJournal.h"

#include "klx/Runtime/Json.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <tuple>

using namespace klx::rt;

namespace {

std::atomic<bool> stopRequested{false};

// The journal's keys.
constexpr char kVariant[] = "variant", kSize[] = "size", kProcess[] = "process",
               kGpu[] = "gpu", kExitCode[] = "exit_code", kSignal[] = "signal",
               kTimedOut[] = "timed_out", kSeconds[] = "seconds",
               kStartError[] = "start_error", kOut[] = "out", kErr[] = "err";

/// The job's size as the plan names it; "" when the plan names none.
std::string sizeName(const SweepPlan &plan, size_t size) {
  return plan.sizes.empty() ? std::string() : plan.sizes.at(size);
}

using JobKey = std::tuple<size_t, size_t, int>;
JobKey keyOf(const SweepJob &job) {
  return {job.variant, job.size, job.process};
}

} // namespace

std::string klx::rt::sweepJournalPath(const std::string &dir) {
  return dir + "/runs.jsonl";
}

std::string klx::rt::sweepJournalLine(const SweepPlan &plan,
                                      const SweepJob &job, int gpu,
                                      const ChildExit &child) {
  Json line;
  line[kVariant] = plan.variants.at(job.variant).name;
  line[kSize] = sizeName(plan, job.size);
  line[kProcess] = job.process;
  line[kGpu] = gpu;
  line[kExitCode] = child.exitCode;
  line[kSignal] = child.signal;
  line[kTimedOut] = child.timedOut;
  line[kSeconds] = child.seconds;
  line[kStartError] = child.startError;
  line[kOut] = child.out;
  line[kErr] = child.err;
  return dumpJson(line) + "\n";
}

std::vector<SweepProcess> klx::rt::readSweepJournal(const SweepPlan &plan,
                                                    std::string_view text,
                                                    int procs, int &skipped) {
  std::vector<SweepProcess> done;
  std::map<JobKey, size_t> seen; // job -> its entry in `done`
  skipped = 0;
  size_t sizes = std::max<size_t>(plan.sizes.size(), 1);
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view lineText = text.substr(0, end);
    text = end == std::string_view::npos ? "" : text.substr(end + 1);
    if (lineText.empty())
      continue;
    JsonError error;
    std::optional<Json> line = parseJson(lineText, error);
    auto field = [&](const char *key) {
      const Json *v = line ? member(*line, key) : nullptr;
      return v && v->is_string() ? v->get<std::string>() : std::string();
    };
    auto number = [&](const char *key, int64_t fallback) {
      const Json *v = line ? member(*line, key) : nullptr;
      return v && v->is_number_integer() ? v->get<int64_t>() : fallback;
    };
    SweepJob job;
    job.process = int(number(kProcess, -1));
    std::string variantName = field(kVariant), sizeText = field(kSize);
    auto variant = std::find_if(
        plan.variants.begin(), plan.variants.end(),
        [&](const SweepVariant &v) { return v.name == variantName; });
    size_t size = 0;
    while (size < sizes && sizeName(plan, size) != sizeText)
      ++size;
    if (!line || !line->is_object() || variant == plan.variants.end() ||
        !variant->runnable() || size == sizes || job.process < 0 ||
        job.process >= procs) {
      ++skipped;
      continue;
    }
    job.variant = size_t(variant - plan.variants.begin());
    job.size = size;
    ChildExit child;
    child.exitCode = int(number(kExitCode, -1));
    child.signal = int(number(kSignal, 0));
    const Json *timedOut = member(*line, kTimedOut);
    child.timedOut =
        timedOut && timedOut->is_boolean() && timedOut->get<bool>();
    const Json *seconds = member(*line, kSeconds);
    child.seconds =
        seconds && seconds->is_number() ? seconds->get<double>() : 0;
    child.startError = field(kStartError);
    child.out = field(kOut);
    child.err = field(kErr);
    SweepProcess process = readSweepChild(job, int(number(kGpu, 0)), child);
    // A run given back by a GPU that left and run again elsewhere: the
    // later line is its result.
    auto [at, fresh] = seen.emplace(keyOf(job), done.size());
    if (fresh)
      done.push_back(std::move(process));
    else
      done[at->second] = std::move(process);
  }
  return done;
}

std::vector<SweepJob> klx::rt::jobsLeft(const std::vector<SweepJob> &jobs,
                                        const std::vector<SweepProcess> &done) {
  std::set<JobKey> finished;
  for (const SweepProcess &p : done)
    finished.insert(keyOf(p.job));
  std::vector<SweepJob> left;
  for (const SweepJob &job : jobs)
    if (!finished.count(keyOf(job)))
      left.push_back(job);
  return left;
}

void klx::rt::requestSweepStop() { stopRequested.store(true); }
bool klx::rt::sweepStopRequested() { return stopRequested.load(); }
void klx::rt::clearSweepStop() { stopRequested.store(false); }
