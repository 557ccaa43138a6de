//===- RunnerClient.h - How klx talks to klx-run ----------------*- C++ -*-===//
//
// klx never launches a kernel itself: it writes bundles and runs klx-run
// as a child process, so a kernel that hangs or faults costs a child.
// This is the one place that knows klx-run's command line: where it is,
// asking it for a GPU (--device), running one bundle (--json) and running
// a sweep (--sweep). The window's GPU and sweep workers and klx sweep use
// it; what they make of the output is theirs (RunFormat.h and
// SweepFormat.h name its members).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WORKERS_RUNNERCLIENT_H
#define KLX_APP_WORKERS_RUNNERCLIENT_H

#include "klx/Runtime/ChildProcess.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace klx::app {

/// What `klx-run --device` says: the GPU klx-run would use ("NVIDIA H100
/// 80GB HBM3 (sm_90, 132 SMs)"), or why there is none ("no CUDA device:
/// ...", "klx-run not found at PATH").
struct RunnerProbe {
  std::string device; // empty: none
  std::string reason;
};

/// One bundle's run: `klx-run DIR --json --size=... [--trace=FILE]`.
struct BundleRun {
  std::string dir;
  std::string size;      // ProblemSize::flag()
  int timeoutMs = 10000; // each launch's
  int repeat = 20;
  std::string tracePath; // empty: no trace
};

/// A sweep: `klx-run --sweep DIR [--json] FLAGS...`.
struct SweepRun {
  std::string dir;
  std::vector<std::string> flags; // --size=, --gpus=, --csv=, ...
  /// Capture its JSON (--json) into RunnerExit::out; otherwise its table
  /// goes to this process's stdout as it comes.
  bool json = false;
  /// Its progress goes to this process's stderr as it comes (klx sweep);
  /// otherwise it is captured (the window's sweep worker).
  bool passStderr = false;
  /// Polled while it runs; true kills it (the window closing).
  std::function<bool()> stop;
};

/// How a klx-run child ended.
struct RunnerExit {
  int exitCode = 0;
  std::string out, err; // what was captured
  /// Why it did not exit by itself ("klx-run was killed by SIGSEGV",
  /// "could not start ..."); empty when it did.
  std::string failure;
  bool stopped = false; // by the stop callback
};

class RunnerClient {
public:
  /// `path` is the klx-run binary (defaultPath() for the one beside klx).
  explicit RunnerClient(std::string path);

  /// $KLX_RUN when set, else klx-run beside the running program (both are
  /// built into build/bin). The path may not exist: probe() says so.
  static std::string defaultPath();

  const std::string &path() const { return runner; }

  RunnerProbe probe() const;
  RunnerExit runBundle(const BundleRun &run) const;
  RunnerExit runSweep(const SweepRun &run) const;

private:
  RunnerExit finish(const rt::ChildExit &child) const;

  std::string runner;
};

} // namespace klx::app

#endif // KLX_APP_WORKERS_RUNNERCLIENT_H
