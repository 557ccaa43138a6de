//===- klx-run.cpp - Launch a Bundle, or every bundle of a sweep ----------===//
//
// klx-run DIR [--json] [--timeout-ms=N] [--repeat=N] [--size=MxNxK|N]
//             [--no-baseline] [--trace=OUT.json [--trace-events=N]]
// klx-run --sweep DIR [--size=MxNxK ...] [--gpus=all|0,1,...] [--procs=N]
//             [--repeat=N] [--timeout-ms=N] [--no-baseline] [--json]
//             [--csv=OUT.csv]
//   runs every variant `klx sweep` wrote into DIR, each in a child klx-run
//   on one GPU, and ranks them per size (klx/Runtime/Sweep.h).
// klx-run --device
// Exit codes: 0 passed, 1 wrong result, kernel fault or bad bundle (or bad
// sweep.json), 2 usage, no GPU or a driver error, 3 the kernel hung. A
// sweep exits with the worst of its runs.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/Runner.h"
#include "klx/Runtime/Sweep.h"
#include "klx/Runtime/SweepJournal.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>

using namespace klx::rt;

static const char kUsage[] =
    "usage: klx-run DIR [--json] [--timeout-ms=N] [--repeat=N] "
    "[--size=MxNxK|N] [--no-baseline]\n"
    "               [--trace=OUT.json [--trace-events=N]]\n"
    "       klx-run --sweep DIR [--size=MxNxK ...] [--gpus=all|0,1,...] "
    "[--procs=N]\n"
    "               [--repeat=N] [--timeout-ms=N] [--no-baseline] [--json] "
    "[--csv=OUT.csv] [--resume]\n"
    "       klx-run --device       the GPU klx-run would use, or why none\n"
    "  DIR is a bundle written by `klx export FILE -o DIR`, or with --sweep\n"
    "  a folder written by `klx sweep FILE -D NAME=V1,V2 -o DIR`: each\n"
    "  variant runs in a child klx-run per GPU, --procs times per size, and\n"
    "  the variants are ranked by TFLOP/s per size\n";

namespace {

struct Arguments {
  RunOptions run;
  SweepOptions sweep;
  std::string dir;
  bool json = false;
  bool device = false;
  bool sweepMode = false;
  bool sweepOnly = false; // a flag only --sweep reads was given
};

bool readInt(const char *text, int min, int max, int &out) {
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (!*text || *end || value < min || value > max)
    return false;
  out = int(value);
  return true;
}

int usageError(const std::string &message) {
  std::fprintf(stderr, "klx-run: %s\n", message.c_str());
  return 2;
}

/// Reads one option into `a`; 0 when read, else the exit code (2, after
/// saying why).
int readOption(const std::string &arg, Arguments &a) {
  auto value = [&](const char *flag) -> const char * {
    size_t n = std::strlen(flag);
    return arg.compare(0, n, flag) == 0 ? arg.c_str() + n : nullptr;
  };
  if (arg == "--json") {
    a.json = true;
  } else if (arg == "--device") {
    a.device = true;
  } else if (arg == "--sweep") {
    a.sweepMode = true;
  } else if (arg == "--no-baseline") {
    a.run.baseline = false;
  } else if (const char *v = value("--timeout-ms=")) {
    if (!readInt(v, 1, 3600 * 1000, a.run.timeoutMs))
      return usageError("--timeout-ms needs 1 to 3600000");
  } else if (const char *v = value("--repeat=")) {
    if (!readInt(v, 1, 1000, a.run.repeat))
      return usageError("--repeat needs 1 to 1000");
  } else if (const char *v = value("--procs=")) {
    a.sweepOnly = true;
    if (!readInt(v, 1, 100, a.sweep.procs))
      return usageError("--procs needs 1 to 100");
  } else if (const char *v = value("--gpus=")) {
    a.sweepOnly = true;
    a.sweep.gpus = v;
  } else if (arg == "--resume") {
    a.sweepOnly = true;
    a.sweep.resume = true;
  } else if (const char *v = value("--csv=")) {
    a.sweepOnly = true;
    a.sweep.csvPath = v;
    if (a.sweep.csvPath.empty())
      return usageError("--csv needs a file name");
  } else if (const char *v = value("--trace-events=")) {
    if (!readInt(v, 1, 1 << 24, a.run.traceEvents))
      return usageError("--trace-events needs 1 to 16777216");
  } else if (const char *v = value("--trace=")) {
    a.run.tracePath = v;
    if (a.run.tracePath.empty())
      return usageError("--trace needs a file name");
  } else if (const char *v = value("--size=")) {
    a.run.size = parseProblemSize(v);
    if (!a.run.size)
      return usageError(std::string("--size=") + v +
                        " is not MxNxK (a gemm) or N (a gather)");
    a.sweep.sizes.push_back(v); // a sweep runs each; a bundle the last
  } else {
    std::fprintf(stderr, "klx-run: unknown option %s\n%s", arg.c_str(), kUsage);
    return 2;
  }
  return 0;
}

/// The command line, checked; nullopt after printing why (exit `code`).
std::optional<Arguments> readArguments(int argc, char **argv, int &code) {
  Arguments a;
  code = 2;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      code = 0;
      return std::nullopt;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      if (readOption(arg, a) != 0)
        return std::nullopt;
    } else if (a.dir.empty()) {
      a.dir = arg;
    } else {
      std::fprintf(stderr, "klx-run: one %s at a time\n%s",
                   a.sweepMode ? "sweep" : "bundle", kUsage);
      return std::nullopt;
    }
  }
  if (a.device)
    return a;
  if (a.dir.empty()) {
    std::fputs(kUsage, stderr);
    return std::nullopt;
  }
  if (a.sweepOnly && !a.sweepMode) {
    usageError("--gpus, --procs, --csv and --resume need --sweep");
    return std::nullopt;
  }
  if (a.sweepMode && !a.run.tracePath.empty()) {
    usageError("--trace runs one bundle, not a sweep");
    return std::nullopt;
  }
  if (a.run.traceEvents > 0 && a.run.tracePath.empty()) {
    usageError("--trace-events sizes a recording: it needs --trace");
    return std::nullopt;
  }
  a.sweep.dir = a.dir;
  a.sweep.repeat = a.run.repeat;
  a.sweep.timeoutMs = a.run.timeoutMs;
  a.sweep.baseline = a.run.baseline;
  a.sweep.json = a.json;
  return a;
}

int printDevice() {
  std::string error;
  std::string device = probeDevice(error);
  if (device.empty()) {
    std::fprintf(stderr, "klx-run: %s\n", error.c_str());
    return 2;
  }
  std::printf("%s\n", device.c_str());
  return 0;
}

/// Ctrl+C (or SIGTERM) during a sweep: no new child starts; the running
/// ones end (the terminal sends them the signal too) or finish, and what
/// finished is written out.
void stopSweep(int) { requestSweepStop(); }

int runSweepCommand(const SweepOptions &options) {
  struct sigaction action = {};
  action.sa_handler = stopSweep;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  SweepResult result = runSweep(options, [](const std::string &line) {
    std::fprintf(stderr, "%s\n", line.c_str());
  });
  std::fputs(result.output.c_str(), stdout);
  std::fflush(stdout);
  if (!result.error.empty())
    std::fprintf(stderr, "klx-run: %s\n", result.error.c_str());
  return result.exitCode;
}

} // namespace

int main(int argc, char **argv) {
  int code = 0;
  std::optional<Arguments> args = readArguments(argc, argv, code);
  if (!args)
    return code;
  if (args->device)
    return printDevice();
  if (args->sweepMode)
    return runSweepCommand(args->sweep);
  LaunchResult result = runBundle(args->dir, args->run);
  std::string report = args->json ? formatJson(result) : formatText(result);
  std::fputs(report.c_str(), result.status == RunStatus::Passed || args->json
                                 ? stdout
                                 : stderr);
  std::fflush(stdout);
  std::fflush(stderr);
  code = exitCodeFor(result);
  // A hung kernel still owns the context: leave without tearing it down
  // from here; the driver ends the kernel with the process.
  if (result.status == RunStatus::Hang ||
      result.status == RunStatus::KernelFault)
    _exit(code);
  return code;
}
