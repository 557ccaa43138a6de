//===- RunnerClient.cpp - How klx talks to klx-run ------------------------===//

#include "RunnerClient.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace klx;
using namespace klx::app;

namespace {
/// How long `klx-run --device` may take: loading the CUDA driver on a
/// cold machine takes seconds, not minutes.
constexpr int64_t kProbeTimeoutMs = 60 * 1000;
} // namespace

RunnerClient::RunnerClient(std::string path) : runner(std::move(path)) {}

std::string RunnerClient::defaultPath() {
  if (const char *path = std::getenv("KLX_RUN"); path && *path)
    return path;
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(path, "klx-run");
  return std::string(path);
}

RunnerExit RunnerClient::finish(const rt::ChildExit &child) const {
  RunnerExit exit;
  exit.exitCode = child.exitCode;
  exit.out = child.out;
  exit.err = child.err;
  exit.stopped = child.stopped;
  if (!child.startError.empty())
    exit.failure = "could not start " + child.startError;
  else if (child.timedOut)
    exit.failure = "klx-run did not end in time and was stopped";
  else if (child.signal)
    exit.failure = "klx-run was killed by " + rt::signalName(child.signal);
  return exit;
}

RunnerProbe RunnerClient::probe() const {
  RunnerProbe probe;
  if (!llvm::sys::fs::can_execute(runner)) {
    probe.reason = "klx-run not found at " + runner;
    return probe;
  }
  rt::ChildOptions options;
  options.timeoutMs = kProbeTimeoutMs;
  RunnerExit exit = finish(rt::runChild({runner, "--device"}, options));
  if (!exit.failure.empty()) {
    probe.reason = exit.failure;
    return probe;
  }
  // Its first line: the device on stdout, or why not on stderr.
  std::string said = exit.out + exit.err;
  llvm::StringRef line = llvm::StringRef(said).trim().split('\n').first;
  if (exit.exitCode == 0) {
    probe.device = line.str();
    return probe;
  }
  line.consume_front("klx-run: ");
  probe.reason = line.empty() ? "klx-run --device failed" : line.str();
  return probe;
}

RunnerExit RunnerClient::runBundle(const BundleRun &run) const {
  std::vector<std::string> args = {runner,
                                   run.dir,
                                   "--json",
                                   "--size=" + run.size,
                                   "--timeout-ms=" +
                                       std::to_string(run.timeoutMs),
                                   "--repeat=" + std::to_string(run.repeat)};
  if (!run.tracePath.empty())
    args.push_back("--trace=" + run.tracePath);
  // Every launch is bounded by its timeout; leave room for the checks.
  rt::ChildOptions options;
  options.timeoutMs =
      (int64_t(run.timeoutMs / 1000) * int64_t(run.repeat + 8) + 120) * 1000;
  return finish(rt::runChild(args, options));
}

RunnerExit RunnerClient::runSweep(const SweepRun &run) const {
  std::vector<std::string> args = {runner, "--sweep", run.dir};
  if (run.json)
    args.push_back("--json");
  args.insert(args.end(), run.flags.begin(), run.flags.end());
  rt::ChildOptions options;
  options.passStdout = !run.json;
  options.passStderr = run.passStderr;
  options.stop = run.stop;
  return finish(rt::runChild(args, options));
}
