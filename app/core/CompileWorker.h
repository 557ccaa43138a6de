//===- CompileWorker.h - Compiles off the GUI thread ------------*- C++ -*-===//
//
// One background thread runs the pipeline. Requests are latest-wins: while
// one compile runs, a newer request replaces any that is waiting, since
// the user only cares about the text as it is now.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_COMPILEWORKER_H
#define KLX_APP_CORE_COMPILEWORKER_H

#include "TimelineView.h"

#include "klx/Pipeline/Compiler.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
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

class CompileWorker {
public:
  /// `wake` is called from the worker thread when a result is ready, so a
  /// GUI waiting for events can redraw.
  explicit CompileWorker(std::function<void()> wake = {});
  ~CompileWorker();
  CompileWorker(const CompileWorker &) = delete;
  CompileWorker &operator=(const CompileWorker &) = delete;

  void submit(CompileRequest request);
  /// The newest finished result not yet taken.
  std::optional<CompileResult> poll();
  /// True while a request waits or runs.
  bool busy() const;
  /// What is being compiled now, for the status bar.
  std::string runningFile() const;

private:
  void loop();

  std::function<void()> wake;
  mutable std::mutex mutex;
  std::condition_variable wakeWorker;
  std::optional<CompileRequest> pending;
  std::optional<CompileResult> finished;
  std::string running;
  bool stopping = false;
  std::thread thread;
};

} // namespace klx::app

#endif // KLX_APP_CORE_COMPILEWORKER_H
