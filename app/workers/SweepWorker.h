//===- SweepWorker.h - A sweep compiled and run off the GUI -----*- C++ -*-===//
//
// The Sweep pane's work: every variant compiled (as `klx sweep` does,
// through compileSweep), the bundles written to a new folder in the
// system temp folder, and where the Run pane found a GPU, `klx-run
// --sweep DIR --json` as a child process, whose ranked result is read
// back. One sweep at a time, on a thread of its own; progress can be read
// while it runs. Closing the window stops a sweep between compile steps
// and kills its klx-run; a compile stuck in one step is left behind
// rather than holding the window open (as CompileWorker does). Nothing
// here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WORKERS_SWEEPWORKER_H
#define KLX_APP_WORKERS_SWEEPWORKER_H

#include "views/SweepResults.h"

#include "klx/Pipeline/Compiler.h"

#include <functional>
#include <memory>
#include <string>

namespace klx::app {

struct SweepRequest {
  std::string source, fileName;
  CompileOptions options; // the window's (target, tools, limits)
  SweepPlan plan;
  unsigned jobs = 0; // compiles at once; 0: one per core
  /// klx-run, to run the bundles on; empty: compile only, and `notRun`
  /// says why.
  std::string runner;
  std::string notRun;
};

struct SweepProgressState {
  bool running = false;
  std::string phase; // "compiling 3 of 8", "running on the GPU"
  size_t done = 0, total = 0;
};

class SweepWorker {
public:
  /// `wake` is called from the worker thread whenever there is news.
  explicit SweepWorker(std::function<void()> wake = {});
  ~SweepWorker();
  SweepWorker(const SweepWorker &) = delete;
  SweepWorker &operator=(const SweepWorker &) = delete;

  /// Starts a sweep; false while one runs (it is not queued).
  bool start(SweepRequest request);
  SweepProgressState progress() const;
  /// The finished sweep, once; null until then.
  std::shared_ptr<const SweepResults> take();

  /// What the worker thread and this object share; the thread keeps it
  /// alive when it is left behind.
  struct Shared;

private:
  std::shared_ptr<Shared> shared;
};

} // namespace klx::app

#endif // KLX_APP_WORKERS_SWEEPWORKER_H
