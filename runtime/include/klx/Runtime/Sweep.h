//===- Sweep.h - Run every variant of a sweep and rank them -----*- C++ -*-===//
//
// `klx sweep FILE -D tile_n=128,256 -o DIR` writes one bundle per
// combination of -D values and DIR/sweep.json listing them. `klx-run
// --sweep DIR` runs every compiled variant at every size in a child klx-run
// (one GPU per worker thread, so a hang or fault ends only its child),
// reads each child's --json, and ranks the variants per size.
//
// Everything but runSweepJobs and runSweep is pure: the plan, the job
// order, the summaries, the ranking and the output formats are tested on
// canned child output without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_SWEEP_H
#define KLX_RUNTIME_SWEEP_H

#include "klx/Runtime/ChildProcess.h"
#include "klx/Runtime/RunFormat.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace klx::rt {

/// One combination of -D values, as sweep.json lists it.
struct SweepVariant {
  std::string name;   // "tile_n=128 stages=3"
  std::string bundle; // its bundle folder, relative to DIR; empty if none
  std::vector<std::pair<std::string, std::string>> defines; // by name
  bool compiled = false;
  std::string error; // why it did not compile
  /// Why a variant that compiled has no bundle ("no cubin: ..."), or a
  /// warning about the one it has.
  std::string bundleNote;
  int64_t registers = -1, spillBytes = -1; // ptxas's; -1 when unknown

  /// Compiled into a bundle klx-run can launch.
  bool runnable() const { return compiled && !bundle.empty(); }
};

/// DIR/sweep.json, checked.
struct SweepPlan {
  std::string file;              // the swept source, for the heading
  std::vector<std::string> axes; // the -D names, in the order given
  /// Problem sizes, each valid for parseProblemSize ("MxNxK", a gather's
  /// "N"). Empty: every bundle runs at its manifest's own size.
  std::vector<std::string> sizes;
  std::vector<SweepVariant> variants;
  /// A ladder (sweep.json's "ordered"): the rows keep the variants' order
  /// (each rung adds a technique to the one before); ranks still count.
  bool ordered = false;
};

/// Parses sweep.json's text. On failure returns nullopt and sets `error`
/// to "sweep.json:LINE:COL: ..." (bad JSON), "sweep.json: no 'variants'
/// array" or "sweep.json: FIELD ..." (a missing or mistyped member).
std::optional<SweepPlan> parseSweepPlan(std::string_view text,
                                        std::string &error);

/// One child run: a variant at a size, the process-th time.
struct SweepJob {
  size_t variant = 0; // into SweepPlan::variants
  size_t size = 0;    // into SweepPlan::sizes; 0 when that is empty
  int process = 0;    // 0 .. procs - 1
};

/// Every runnable variant x every size x `procs`, in rounds (process, then
/// size, then variant), so that the processes of one variant are spread
/// over the whole run and see its drift in clocks and temperature alike.
/// Round p starts at the p-th compiled variant: with as many GPUs as
/// variants, the workers would otherwise pair each variant with one GPU.
std::vector<SweepJob> planSweepJobs(const SweepPlan &plan, int procs);

/// What one child reported, read from its --json or from how it ended.
struct SweepProcess {
  SweepJob job;
  int gpu = 0; // the device ordinal it ran on
  /// Report.cpp's spelling ("passed", "wrong_result", "bundle_error",
  /// "no_device", "driver_error", "kernel_fault", "hang"), or "error" when
  /// the child printed no result.
  std::string status;
  std::string message;
  std::string device;
  std::string pci;  // the child's GPU on the PCI bus; "" if unsaid
  std::string size; // the size it ran, as it printed it
  double tflops = 0, cublasTflops = 0, alternatingTflops = 0; // 0: absent
  /// Null in the child's JSON (a non-finite error) reads as infinity.
  std::optional<double> cpuRelativeError, cublasRelativeError;

  bool passed() const { return status == runfile::kPassed; }
  /// klx / cuBLAS, both timed alternating launch by launch; 0 without
  /// cuBLAS.
  double ratio() const;
};

/// Reads the child's stdout as klx-run --json; a child that printed no
/// parsable result is status "error" with how it ended.
SweepProcess readSweepChild(const SweepJob &job, int gpu,
                            const ChildExit &child);

/// A child that ran on another GPU than the one it was given (the PCI
/// address it reports is not `expectedPci`, the parent's view of ordinal
/// p.gpu) fails with both addresses named: its figures are not that
/// GPU's. Nothing changes where either address is unknown.
void checkChildGpu(SweepProcess &p, const std::string &expectedPci);

/// The exit code klx-run gives for a status (Report.cpp's exitCodeFor);
/// "error" counts as 1, like a fault.
int sweepExitCode(std::string_view status);

/// One variant at one size, over its processes.
struct SweepRow {
  size_t variant = 0; // into SweepPlan::variants
  int rank = 0;       // 1 for the fastest passing; 0 when not passing
  /// "passed" when every process passed; otherwise the worst status of
  /// its processes (hang, then exit-1 ones, then exit-2 ones);
  /// "not_compiled", or "no_bundle" for one that compiled but has no
  /// bundle to run.
  std::string status;
  int processes = 0, passed = 0;
  /// Medians over the passing processes; 0 when none passed.
  double tflops = 0, cublasTflops = 0;
  /// Median, min and max of klx / cuBLAS over the passing processes
  /// that timed cuBLAS; 0 when none did.
  double ratio = 0, ratioMin = 0, ratioMax = 0;
  /// The worst over every process that checked.
  std::optional<double> cpuRelativeError, cublasRelativeError;
  /// Each distinct failure as "STATUS: MESSAGE", joined by "; ", the
  /// compiler's error when not compiled, or why there is no bundle.
  std::string message;
  std::vector<int> gpus; // the ordinals its processes ran on, ascending
  std::string runSize;   // what the children ran (the manifest's size
                         // when the sweep names none)
};

struct SweepTable {
  std::string size; // as in SweepPlan::sizes; empty: each bundle's own
  std::vector<SweepRow> rows; // ranked: passing by TFLOP/s, failed, not
                              // run (not compiled, no bundle)
};

struct SweepSummary {
  std::string device; // the children's GPU name(s)
  /// "GPU 1 left the sweep: ..." (runSweepJobs' notes).
  std::vector<std::string> notes;
  std::vector<SweepTable> tables; // one per size, in the plan's order
  int exitCode = 0; // 0, or the worst: 3 any hang, 1 a failure, 2 driver
};

SweepSummary summarizeSweep(const SweepPlan &plan,
                            const std::vector<SweepProcess> &processes);

/// A markdown table per size under a heading naming the device, then a
/// line naming the best variant of each size.
std::string formatSweepText(const SweepPlan &plan, const SweepSummary &s);
/// {"klx_sweep_result": 1, "device": ..., "sizes": [{"size", "rows"}]}
std::string formatSweepJson(const SweepPlan &plan, const SweepSummary &s);
/// A header line, then one line per (size, variant), one column per axis.
std::string formatSweepCsv(const SweepPlan &plan, const SweepSummary &s);
/// "[3/12] tile_n=256 8192x8192x8192 on GPU 0: 612.3 TFLOP/s, 0.85x
/// cuBLAS", or ": hang: MESSAGE".
std::string formatSweepProgress(size_t done, size_t total,
                                const SweepPlan &plan,
                                const SweepProcess &process);

/// The ordinals `spec` names: "all" (0 .. count - 1) or "0,2". Nullopt
/// and `error` for a malformed list, a repeated ordinal or one past
/// `count`.
std::optional<std::vector<int>> parseGpuList(std::string_view spec, int count,
                                             std::string &error);

/// CUDA_VISIBLE_DEVICES for a child on this process's device `ordinal`:
/// the ordinal itself, or the ordinal-th entry of `parentValue` (this
/// process's own CUDA_VISIBLE_DEVICES, may be null), whose devices the
/// ordinals count.
std::string childVisibleDevices(const char *parentValue, int ordinal);

struct SweepOptions {
  std::string dir;
  std::vector<std::string> sizes;     // --size: replace sweep.json's
  std::string gpus = "all";           // --gpus
  int procs = 1;                      // processes per variant and size
  int repeat = 20, timeoutMs = 10000; // passed on to each child
  bool baseline = true;               // false: children get --no-baseline
  bool json = false;
  std::string csvPath; // also write the CSV here
  /// Keep DIR/runs.jsonl and run only what it does not hold (else it
  /// starts empty).
  bool resume = false;
  /// The klx-run each job runs (klx-run itself: /proc/self/exe).
  std::string runner = "/proc/self/exe";
};

/// Kills a child past this: far beyond what klx-run's own per-launch
/// timeout allows, so only a runner that is itself stuck meets it.
int64_t sweepBackstopMs(const SweepOptions &options);

using SweepProgress = std::function<void(const std::string &line)>;

/// Called with each finished child, one at a time (the journal's line).
using SweepRecorder =
    std::function<void(const SweepJob &, int gpu, const ChildExit &)>;

/// Runs `jobs` with one worker thread per entry of `gpus`, each starting
/// `options.runner` per job with CUDA_VISIBLE_DEVICES naming its GPU.
/// Returns one SweepProcess per job, in the jobs' order; `progress` gets
/// one line per finished job, one at a time, after `record` has it. Once
/// a stop is requested (requestSweepStop) no new child starts; a job not
/// started, or whose child the stop ended (a signal), has an empty status.
/// A GPU whose probe fails leaves the rotation (SweepRotation.h), its
/// failed runs going to the others; `notes` says which left and why.
std::vector<SweepProcess>
runSweepJobs(const SweepPlan &plan, const std::vector<SweepJob> &jobs,
             const std::vector<int> &gpus, const SweepOptions &options,
             const SweepProgress &progress, const SweepRecorder &record = {},
             std::vector<std::string> *notes = nullptr);

struct SweepResult {
  int exitCode = 0;
  std::string error;  // why it stopped or what failed, for stderr
  std::string output; // the text table or the JSON, for stdout
};

/// Reads DIR/sweep.json (exit 1 when it is wrong), finds the GPUs (exit 2
/// with "no CUDA device: ..." when none), runs every job, and formats the
/// ranking.
SweepResult runSweep(const SweepOptions &options,
                     const SweepProgress &progress);

} // namespace klx::rt

#endif // KLX_RUNTIME_SWEEP_H
