//===- AppState.h - What the window shows, and the commands -----*- C++ -*-===//
//
// Panels draw from AppState and push Commands; the controller applies the
// commands between frames. Nothing here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_APPSTATE_H
#define KLX_APP_CORE_APPSTATE_H

#include "Command.h"
#include "Layout.h"
#include "Lesson.h"
#include "SampleCatalog.h"
#include "views/TimelineView.h"
#include "workers/GpuRunWorker.h"
#include "workers/SweepWorker.h"

#include "klx/Pipeline/Comparison.h"
#include "klx/Pipeline/PipelineRun.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace klx::app {

/// The kernel being edited.
struct SourceBuffer {
  std::string path;     // the file on disk; empty for an untitled buffer
  std::string text;     // what the user sees and edits
  std::string diskText; // the file as last loaded or saved
  /// Set when the text came from the autosave folder, not from disk.
  bool restoredFromAutosave = false;

  bool modified() const { return text != diskText; }
};

struct RaiseRequest {
  Pane pane;
  unsigned serial = 0;
};

/// A lesson step's request that a pane scroll to what it names.
struct PaneReveal {
  std::vector<std::string> text;
  std::vector<unsigned> lines;
  unsigned serial = 0; // unique among requests
};

struct ViewState {
  int selected = 0;     // snapshot index
  int compareWith = -1; // -1: the step before `selected`
  bool hideUnchanged = false;
  bool showDiff = false;
  /// Help > Keys is open.
  bool keysShown = false;
  /// Side by side where the pane is wide enough; inline otherwise.
  bool sideBySide = true;
  /// Diffs leave out lines that changed only in spaces (on by default:
  /// a pass that wraps the IR in a region re-indents all of it).
  bool diffIgnoresWhitespace = true;
  /// Bumped to put every pane back where `layout` places it.
  unsigned layoutGeneration = 0;
  LayoutName layout = LayoutName::Explore;
  /// The whole window's zoom, on top of the monitor's content scale.
  int zoomPercent = 100;
  ThemeName theme = ThemeName::Dark;
  /// Source line the user clicked (1-based, 0 none), for correlation.
  unsigned focusedSourceLine = 0;
  /// The warp role whose ops the IR and Source panes tint; empty for none.
  /// A name, so it stays focused while stepping through passes.
  std::string focusedRole;
  /// The step whose protocol model the Barrier timeline pane draws; empty
  /// for the run's timeline step. A name, so it survives recompiles.
  std::string timelineStep;
  /// The Barrier timeline pane draws the counterexample klx verify found
  /// (when it found one) rather than the simulation.
  bool showCounterexample = false;
  /// The gpu.module the Assembly pane shows and File > Save writes (a
  /// file may hold several); empty or gone: the first. A name, so it
  /// survives recompiles.
  std::string module;
  /// Panes to bring to the front (a tab of a group), the last few
  /// requests, numbered so that the window applies each once; a step may
  /// raise a tab in each of two windows.
  std::vector<RaiseRequest> raised;
  unsigned raiseSerial = 0;
  /// What each text pane is to scroll to (cmd::RevealInPane), numbered:
  /// the pane applies a request once, when the compile it waits for is
  /// done.
  std::map<Pane, PaneReveal> reveals;
  unsigned revealCount = 0;
  /// A window of the layout ("Guide", "IR", ...) drawn over the whole work
  /// area, the others hidden until it is put back; empty: none. On a small
  /// screen a pane such as the Measured timeline needs the room.
  std::string enlargedWindow;
};

/// Compare mode: a second variant of the kernel compiled beside the first.
struct CompareState {
  std::string variant; // as typed: "stages=2" or a file; empty: off
  VariantSpec spec;
  std::string fileText; // the other file, when the variant is one
  std::shared_ptr<const PipelineRun> run;        // its last finished compile
  std::shared_ptr<const TimelineViews> timeline; // of that run
  uint64_t serial = 0;                           // bumps with each new run
  bool compiling = false;
  /// The bound both runs' timelines are simulated over while comparing
  /// (the larger of their own, commonModelSize): equal work, or the
  /// comparison would set a short run against a long one.
  std::optional<ModelSize> modelSize;

  bool active() const { return !variant.empty(); }
};

/// The Lesson pane: the pages, and the one shown.
struct LessonState {
  std::vector<LessonEntry> lessons;
  int current = -1; // index in lessons, -1: none
  std::string path; // the page shown (also a page outside the list)
  std::shared_ptr<const LessonDoc> doc;
  std::string error; // why the page did not load
  /// The step of the page walked to last (lessonSteps), -1: none yet.
  int step = -1;
};

/// The Sweep pane: the last sweep asked for, its progress, and the results
/// shown (compiled here or read from a file).
struct SweepState {
  std::string axes, sizes; // as last asked
  SweepProgressState progress;
  std::shared_ptr<const SweepResults> results;
  std::string source;  // "compiled here" or the file the results came from
  std::string error;   // why the last request did nothing
  uint64_t serial = 0; // bumps with each new result
};

struct AppState {
  std::vector<SampleEntry> samples;
  SourceBuffer source;
  std::optional<Target> target; // empty: the file's klx.target or sm_90a
  std::string stopAfter;        // empty: every step
  Defines defines;              // -D values the kernel compiles with
  /// Kept when another file opens (else they belong to the file they were
  /// set for, and opening another clears them).
  bool definesPinned = false;
  CompareState compare;
  LessonState lesson;
  std::shared_ptr<const PipelineRun> run; // the last finished compile
  /// Simulated, of that run: one per step with a protocol model.
  std::shared_ptr<const TimelineViews> timeline;
  /// The last compile of this file that succeeded, and its timelines:
  /// while the kernel has errors, the Assembly and Barrier timeline panes
  /// show them under a red note rather than nothing.
  std::shared_ptr<const PipelineRun> lastGoodRun;
  std::shared_ptr<const TimelineViews> lastGoodTimeline;
  /// Counts runs, so views can tell a new run from an old one.
  uint64_t runSerial = 0;
  ViewState view;

  bool compiling = false;
  std::string compilingFile;
  /// The step the compile in flight is in (empty before the first) and its
  /// place in the run's plan.
  std::string compilingStep;
  size_t compilingIndex = 0, compilingCount = 0;
  /// When the compile in flight started (steady clock, seconds).
  double compileStartedAt = 0;
  double lastCompileMs = 0;
  /// The GPU behind the Run pane (probed once, in the background) and
  /// every run so far, oldest first.
  GpuStatus gpu;
  std::vector<GpuRunRecord> gpuRuns;
  SweepState sweep;

  /// One line for the status bar: what went wrong opening or saving.
  std::string message;
  /// The kernels opened last, the latest first (File > Open recent); kept
  /// between starts with the window's settings.
  std::vector<std::string> recentFiles;
  bool messageIsError = false;
};

/// Hands a pane each lesson step's request that it scroll to what the step
/// names (cmd::RevealInPane) once, when the compile the step may have
/// started is done: what every pane that follows lesson steps keeps.
class RevealTracker {
public:
  const PaneReveal *take(const AppState &state, Pane pane) {
    auto it = state.view.reveals.find(pane);
    if (it == state.view.reveals.end() || state.compiling ||
        it->second.serial == seen)
      return nullptr;
    seen = it->second.serial;
    return &it->second;
  }

private:
  unsigned seen = 0; // the request last handed out
};

/// The run the result panes draw: the last one, or while it failed, the
/// last good one of the same file (`stale` then says so); null for none.
const PipelineRun *resultRun(const AppState &state, bool &stale);

/// Steps shown in the pass list: all, or those that changed the IR (the
/// parse step, failures and backend steps always show).
std::vector<int> visibleSteps(const PipelineRun &run, bool hideUnchanged);

/// The step whose IR the IR pane shows when `selected` is selected: the
/// step itself, or for a backend step past LLVM (ptx, cubin) the last IR
/// before it.
int irStepFor(const PipelineRun &run, int selected);
/// The step whose text the IR pane shows: irStepFor the selected step,
/// except in Teach, whose Assembly pane is a small tab: there a PTX, SASS
/// or AMDGCN step shows its own code in the large pane.
int textStepFor(const PipelineRun &run, const ViewState &view);

/// Index into run.artifacts of the gpu.module the Assembly pane shows and
/// File > Save writes: view.module's, else the first; 0 when none.
size_t shownModule(const PipelineRun &run, const ViewState &view);

/// The snapshot a diff compares `selected` against.
int comparisonStep(const ViewState &view);

} // namespace klx::app

#endif // KLX_APP_CORE_APPSTATE_H
