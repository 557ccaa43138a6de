//===- SweepCommand.cpp - klx sweep ---------------------------------------===//
//
// klx sweep FILE -D NAME=V1,V2,... [-D ...] [--size=MxNxK ...] [-o DIR]
//                [--gpus=all|LIST] [--procs=N] [--repeat=N] [--jobs=N]
//                [--json|--csv=OUT] [--resume]
// klx sweep FILE --ladder="NAME: A=1,B=2" [--ladder=...] [-D A=1 ...] ...
//                (rungs in order, each adding its values to the one before)
//
// Reads as its phases: the plan (every combination of the -D lists),
// where the bundles go, the compiles (on every core), the compile table,
// then the GPU: `klx-run --sweep DIR` runs and ranks the bundles when
// klx-run finds a GPU here; otherwise the sweep says it ran nothing, and
// why, and where the bundles are for a machine that has one.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "workers/RunnerClient.h"

#include "klx/Export/Bundle.h"
#include "klx/Export/Sweep.h"
#include "klx/Runtime/SweepFormat.h"
#include "klx/Support/ExternalTool.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace klx;
using namespace klx::cli;
namespace sweepfile = klx::rt::sweepfile;

namespace {

/// What the command line asks of the sweep.
struct SweepRequest {
  SweepPlan plan;
  std::string outDir; // -o; empty: see bundleFolder
  unsigned jobs = 1;  // compiles at once
  /// Passed on to klx-run --sweep as given: --gpus, --procs, --repeat,
  /// --timeout-ms.
  std::vector<std::string> runnerFlags;
  bool json = false;
  std::string csvPath;
};

/// Whether klx-run finds a GPU here, and if not, why.
struct GpuProbe {
  std::string runner;
  std::string device; // empty: none
  std::string reason;
};

bool readJobs(const Arguments &args, SweepRequest &request) {
  int64_t jobs = std::max(1u, std::thread::hardware_concurrency());
  if (!readPositive(args, "jobs", "sweep", jobs, llvm::errs()))
    return false;
  request.jobs = unsigned(std::min<int64_t>(jobs, 64));
  return true;
}

/// The variants: every combination of the -D lists, or with --ladder the
/// rungs in order (the -D values, one each, under every rung). False
/// after a message.
bool readVariants(const Arguments &args, SweepPlan &plan) {
  std::vector<std::string> rungs;
  for (const auto &[name, value] : args.flags)
    if (name == "ladder")
      rungs.push_back(value);
  if (rungs.empty() && args.defines.empty()) {
    llvm::errs() << "klx sweep: give the values to sweep: -D NAME=V1,V2,... "
                    "(one -D per parameter the sample declares), or the "
                    "rungs of a ladder: --ladder=\"NAME: A=1,B=2\" ...\n";
    return false;
  }
  if (!rungs.empty()) {
    for (const auto &[name, value] : args.defines)
      if (llvm::StringRef(value).contains(',')) {
        llvm::errs() << "klx sweep: -D " << name << "=" << value
                     << ": a ladder takes one value per -D (the rungs say "
                        "what changes)\n";
        return false;
      }
    llvm::Expected<std::vector<SweepRung>> ladder =
        sweepLadder(args.defines, rungs);
    if (!ladder) {
      llvm::errs() << "klx sweep: " << llvm::toString(ladder.takeError())
                   << "\n";
      return false;
    }
    plan.ladder = std::move(*ladder);
    return true;
  }
  llvm::Expected<std::vector<SweepAxis>> axes = sweepAxes(args.defines);
  if (!axes) {
    llvm::errs() << "klx sweep: " << llvm::toString(axes.takeError()) << "\n";
    return false;
  }
  plan.axes = std::move(*axes);
  return true;
}

/// The request, or nullopt after a message (exit 2).
std::optional<SweepRequest> readRequest(const Arguments &args) {
  SweepRequest request;
  if (!readVariants(args, request.plan))
    return std::nullopt;
  for (const auto &[name, value] : args.flags) {
    if (name == "size") {
      if (!parseProblemSize(value)) {
        llvm::errs() << "klx sweep: --size=" << value
                     << " is not MxNxK (a gemm) or N (a gather) with "
                        "positive integers\n";
        return std::nullopt;
      }
      if (!llvm::is_contained(request.plan.sizes, value))
        request.plan.sizes.push_back(value);
    } else if (name == "gpus" || name == "procs" || name == "repeat" ||
               name == "timeout-ms") {
      request.runnerFlags.push_back("--" + name + "=" + value);
    } else if (name == "resume") {
      // The bundles compile again (the same); the runs DIR/runs.jsonl
      // holds do not run again.
      request.runnerFlags.push_back("--resume");
    }
  }
  request.outDir = args.output;
  request.json = args.has("json");
  request.csvPath = args.get("csv").value_or("");
  if (request.json && !request.csvPath.empty()) {
    llvm::errs() << "klx sweep: --json and --csv are one or the other\n";
    return std::nullopt;
  }
  if (!readJobs(args, request))
    return std::nullopt;
  return request;
}

GpuProbe probeGpu() {
  GpuProbe probe;
  probe.runner = app::RunnerClient::defaultPath();
  app::RunnerProbe said = app::RunnerClient(probe.runner).probe();
  probe.device = std::move(said.device);
  probe.reason = std::move(said.reason);
  return probe;
}

/// Where the bundles go: -o DIR, or with a GPU and no -o, a new folder in
/// the system temp folder (said in the output). Empty: none are written.
std::optional<std::string> bundleFolder(const SweepRequest &request,
                                        const GpuProbe &gpu) {
  std::string dir = request.outDir;
  if (dir.empty() && !gpu.device.empty()) {
    llvm::SmallString<128> made;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("klx-sweep", made)) {
      llvm::errs() << "klx sweep: cannot make a folder for the bundles: "
                   << ec.message() << "\n";
      return std::nullopt;
    }
    dir = std::string(made);
  }
  if (!dir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      llvm::errs() << "klx sweep: " << dir << ": " << ec.message() << "\n";
      return std::nullopt;
    }
  return dir;
}

/// Runs `klx-run --sweep DIR`: its progress goes to stderr as it comes,
/// its table to stdout, or with `captured` its JSON into that string.
int runOnGpu(const GpuProbe &gpu, const std::string &dir,
             const SweepRequest &request, std::string *captured) {
  app::SweepRun run;
  run.dir = dir;
  run.flags = request.runnerFlags;
  if (!request.csvPath.empty())
    run.flags.push_back("--csv=" + request.csvPath);
  run.json = captured != nullptr;
  run.passStderr = true;
  llvm::outs().flush();
  app::RunnerExit exit = app::RunnerClient(gpu.runner).runSweep(run);
  if (!exit.failure.empty()) {
    llvm::errs() << "klx sweep: " << exit.failure << "\n";
    return kExitUsageError;
  }
  if (captured)
    *captured = std::move(exit.out);
  return exit.exitCode;
}

/// What the sweep says when nothing ran on a GPU, and where the bundles
/// are for a machine that has one.
std::string notRunReason(const GpuProbe &gpu, const std::string &dir) {
  std::string why = "not run: " + gpu.reason;
  if (dir.empty())
    return why + "; -o DIR writes each variant's bundle and sweep.json for "
                 "`klx-run --sweep DIR` on a machine with a GPU";
  return why + "; on a machine with a GPU: klx-run --sweep " + dir;
}

int printJson(const LoadedInput &input, const SweepRequest &request,
              llvm::ArrayRef<SweepVariant> variants, const GpuProbe &gpu,
              const std::string &dir, const std::string &runJson, bool ran) {
  llvm::json::Value doc = sweepJson(input.fileName, request.plan, variants);
  llvm::json::Object &root = *doc.getAsObject();
  root[sweepfile::kBundles] = dir;
  if (!ran) {
    root[sweepfile::kNotRun] = notRunReason(gpu, dir);
  } else if (llvm::Expected<llvm::json::Value> parsed =
                 llvm::json::parse(runJson)) {
    root[sweepfile::kRuns] = std::move(*parsed);
  } else {
    llvm::consumeError(parsed.takeError());
    root[sweepfile::kRunsError] = "klx-run printed no JSON";
  }
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc)))
               << "\n";
  return kExitSuccess;
}

} // namespace

int cli::runSweepCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {
      "size", "gpus",   "procs", "repeat", "timeout-ms",
      "jobs", "ladder", "json",  "csv",    "resume"};
  std::optional<SweepRequest> request = readRequest(args);
  if (!request)
    return kExitUsageError;
  size_t count = plannedVariants(request->plan).size();
  // The --timeout bounds each variant's compile; a sweep compiles `count`
  // of them, `jobs` at a time.
  double rounds = double((count + request->jobs - 1) / request->jobs);
  Arguments withoutDefines = args;
  withoutDefines.defines.clear();
  InputOrExit input = loadInput(withoutDefines, ownFlags, llvm::errs(), rounds);
  if (!input)
    return input.exitCode;

  GpuProbe gpu = probeGpu();
  std::optional<std::string> dir = bundleFolder(*request, gpu);
  if (!dir)
    return kExitUsageError;
  auto start = std::chrono::steady_clock::now();
  std::vector<SweepVariant> variants =
      compileSweep(input->source, input->fileName, input->options,
                   request->plan, *dir, request->jobs,
                   [](size_t done, size_t total, const SweepVariant &variant) {
                     llvm::errs() << llvm::formatv(
                         "[{0}/{1}] {2}: {3}\n", done, total, variant.name,
                         variant.compiled ? "compiled" : variant.error);
                   });
  disarmCompileTimeout();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  size_t compiled = llvm::count_if(
      variants, [](const SweepVariant &v) { return v.compiled; });
  if (!dir->empty())
    if (llvm::Error error =
            writeSweepFile(*dir, input->fileName, request->plan, variants)) {
      llvm::errs() << "klx sweep: " << llvm::toString(std::move(error)) << "\n";
      return kExitUsageError;
    }

  // Only variants with a bundle run (a compile without ptxas has none).
  bool bundled = llvm::any_of(
      variants, [](const SweepVariant &v) { return !v.folder.empty(); });
  bool canRun = !gpu.device.empty() && !dir->empty() && bundled;
  if (!request->json) {
    llvm::outs() << llvm::formatv(
        "klx sweep: {0}: {1} variant{2}, {3} compiled, in {4:F1} s on {5} "
        "thread{6}\n",
        input->fileName, variants.size(), variants.size() == 1 ? "" : "s",
        compiled, seconds, request->jobs, request->jobs == 1 ? "" : "s");
    printSweepTable(llvm::outs(), variants);
    for (const SweepVariant &v : variants)
      if (!v.bundleNote.empty())
        llvm::outs() << "note: " << v.name << ": " << v.bundleNote << "\n";
    if (!dir->empty())
      llvm::outs() << "bundles and sweep.json: " << *dir << "\n";
    if (!canRun)
      llvm::outs() << (!compiled ? std::string("not run: no variant compiled")
                       : !gpu.device.empty() && !dir->empty()
                           ? std::string("not run: no variant has a bundle")
                           : notRunReason(gpu, *dir))
                   << "\n";
    else
      llvm::outs() << "running on " << gpu.device << "\n";
  }
  if (!canRun && !request->csvPath.empty() &&
      !writeTraceFile(request->csvPath, "sweep", [&](llvm::raw_ostream &os) {
        writeSweepCsv(os, variants);
      }))
    return kExitUsageError;
  int code = compiled ? kExitSuccess : kExitInputError;
  std::string runJson;
  if (canRun)
    code = runOnGpu(gpu, *dir, *request, request->json ? &runJson : nullptr);
  if (request->json)
    printJson(*input, *request, variants, gpu, *dir, runJson, canRun);
  return code;
}
