//===- CompileWorker.h - Compiles off the GUI thread ------------*- C++ -*-===//
//
// One background thread runs the pipeline. Requests are latest-wins: a
// newer request replaces any that is waiting and stops the one running at
// its next step, since the user only cares about the text as it is now.
//
// A compile past its time limit is stopped as well; a step that does not
// end (a pass in a loop) cannot be, so at the limit the worker reports the
// compile stopped at once, leaves its thread behind to end on its own, and
// compiles later requests on a fresh thread: the window never waits on it.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WORKERS_COMPILEWORKER_H
#define KLX_APP_WORKERS_COMPILEWORKER_H

#include "views/TimelineView.h"

#include "klx/Pipeline/Compiler.h"

#include <functional>
#include <memory>
#include <optional>
#include <thread>

namespace klx::app {

struct CompileRequest {
  uint64_t id = 0;
  std::string source;
  std::string fileName;
  CompileOptions options;
};

struct CompileResult {
  uint64_t id = 0;
  std::shared_ptr<const PipelineRun> run;
  /// The simulated barrier timelines, made here rather than on the GUI
  /// thread.
  std::shared_ptr<const TimelineViews> timeline;
};

/// Where the compile in flight is, for the status bar.
struct CompileProgress {
  std::string file; // empty: nothing is compiling
  std::string step; // empty until the first step starts
  size_t index = 0, count = 0;
};

class CompileWorker {
public:
  /// `wake` is called from a worker thread when a result is ready, so a
  /// GUI waiting for events can redraw. A compile may take `limitSeconds`.
  explicit CompileWorker(std::function<void()> wake = {},
                         double limitSeconds = kDefaultCompileSeconds);
  ~CompileWorker();
  CompileWorker(const CompileWorker &) = delete;
  CompileWorker &operator=(const CompileWorker &) = delete;

  void submit(CompileRequest request);
  /// The newest finished result not yet taken.
  std::optional<CompileResult> poll();
  /// True while a request waits or runs.
  bool busy() const;
  CompileProgress progress() const;
  void setLimit(double seconds);

  /// Compiles left behind at their limit (by any worker) whose step has not
  /// ended yet. While there are any, the process must end with _Exit: they
  /// still use LLVM's global state, which exit() tears down.
  static unsigned leftBehind();

private:
  struct Shared;
  static void compileLoop(std::shared_ptr<Shared> shared, unsigned generation);
  static void watchLoop(std::shared_ptr<Shared> shared);

  std::shared_ptr<Shared> shared;
  std::thread watcher;
};

} // namespace klx::app

#endif // KLX_APP_WORKERS_COMPILEWORKER_H
