//===- AppController.h - Applies commands, runs compiles --------*- C++ -*-===//

#ifndef KLX_APP_CORE_APPCONTROLLER_H
#define KLX_APP_CORE_APPCONTROLLER_H

#include "AppState.h"
#include "Artifacts.h"
#include "Autosave.h"
#include "Background.h"
#include "workers/CompileWorker.h"

#include <functional>

namespace klx::app {

struct ControllerOptions {
  std::string samplesDir;
  std::string autosaveDir; // empty: the per-user default
  /// Seconds after the last keystroke before recompiling.
  double typingPause = 0.4;
  /// Step to select once a run arrives (--pass).
  std::string initialStep;
  /// Role to focus from the start (--role).
  std::string initialRole;
  bool autosave = true;
  /// klx-run for the Run pane; empty: beside the klx binary ($KLX_RUN).
  std::string runner;
  /// The lesson pages (docs/lessons); empty: no Lesson pane content.
  std::string lessonsDir;
  /// Seconds a compile may take before it is reported stopped (--timeout).
  double compileLimitSeconds = kDefaultCompileSeconds;
  /// The IR text a compile keeps over its steps (--snapshot-limit).
  size_t maxSnapshotBytes = CompileOptions().maxSnapshotBytes;
  /// The CUDA tools (--ptxas, --nvdisasm); empty: searched as the CLI does.
  std::string ptxasPath, nvdisasmPath;
  /// The kernels opened last, from the window's settings.
  std::vector<std::string> recentFiles;
};

/// How many kernels File > Open recent lists.
inline constexpr size_t kRecentFiles = 8;

class AppController {
public:
  AppController(ControllerOptions options, std::function<void()> wake = {});

  const AppState &state() const { return appState; }

  void apply(const Command &command, double now);
  void applyAll(CommandQueue &queue, double now);
  /// Starts the compile a pause in typing asked for and takes finished
  /// results. Returns true if the state changed.
  bool tick(double now);
  /// Seconds until tick has timed work to do; negative when none.
  double secondsUntilDeadline(double now) const;
  /// True while a compile waits or runs.
  bool busy() const;

private:
  /// What one command does: a specialization per struct of Command, in
  /// AppCommands.cpp (a missing one fails to link).
  template <typename C> void on(const C &command, double now);
  /// The next (direction +1) or previous visible step.
  void stepBy(int direction);
  void saveSource();

  void openFile(const std::string &path);
  void editSource(std::string text, double now);
  /// What every compile of the window shares (target, limits, tools),
  /// with `defines`.
  CompileOptions compileOptions(Defines defines) const;
  void startCompile();
  void takeResult(CompileResult result);
  void selectStep(int index);
  void setLayout(const std::string &name);
  void saveArtifactTo(ArtifactKind kind, const std::string &path);
  void setMessage(std::string message, bool isError);
  /// `variantB`: run the compared variant rather than the kernel.
  void runOnGpu(const std::string &size, bool trace, bool variantB);
  void startSweep(const std::string &axes, const std::string &sizes);
  void openSweepResults(const std::string &path);
  void openTrace(const std::string &path, int64_t cta);
  void setDefines(const std::string &text);
  void setCompare(const std::string &text);
  void startCompareCompile();
  /// Once both runs are in: when their timelines cover different work,
  /// compiles both again over the larger bound.
  void equalizeCompareWork();
  void openLesson(const std::string &path, int index);
  void selectStepNamed(const std::string &name);
  /// Selects step `index` as the user's choice (kept across runs).
  void chooseStep(int index);
  /// Shows step `index`'s module (where it ran on one) and, in Teach, its
  /// assembly's tab.
  void showOutputsOf(int index);
  /// Brings a pane (a tab of a group) forward, once.
  void showPanel(Pane pane);
  /// Walks the lesson `delta` steps on and follows that step's link.
  void stepLesson(int delta, double now);
  /// Scrolls the panes to what a step names, and brings forward the pane
  /// its "Look at" sentence names.
  void revealStep(const LessonStep &step, double now);
  /// The klx-run the window's GPU runs and sweeps use.
  std::string runnerPath() const {
    return options.runner.empty() ? RunnerClient::defaultPath()
                                  : options.runner;
  }

  ControllerOptions options;
  AppState appState;
  Autosave autosave;
  CompileWorker worker;
  CompileWorker compareWorker; // Compare mode's second variant
  GpuRunWorker gpuWorker;
  SweepWorker sweepWorker;
  uint64_t nextRequestId = 1;
  uint64_t latestRequestId = 0;
  uint64_t latestCompareId = 0;
  double recompileAt = -1; // when the typing pause ends, or -1
  std::string pendingStep; // step to select in the next run
  /// The step the user chose last, by name: selected again in every run
  /// that has it (an edit that breaks the kernel reads the failure, the
  /// next good compile goes back to it).
  std::string chosenStep;
  /// The message says what the compile in flight does ("compiling with
  /// -D ..."): replaced by the result when it arrives.
  bool messageAwaitsCompile = false;
  /// Traces opened (cmd::OpenTrace), read off the GUI thread: a whole
  /// kernel's runs to hundreds of MB.
  Background<GpuRunRecord> traceReader;
  uint64_t tracesAsked = 0, tracesTaken = 0;
  /// The read trace, into the run history, once it landed.
  bool takeTrace();
};

} // namespace klx::app

#endif // KLX_APP_CORE_APPCONTROLLER_H
