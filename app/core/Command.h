//===- Command.h - What panels ask the controller to do ---------*- C++ -*-===//
//
// Panels push Commands while drawing; the controller applies them between
// frames. A Command is one of the small structs below, each with the
// fields its action needs (std::visit dispatches them). Nothing here
// includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_COMMAND_H
#define KLX_APP_CORE_COMMAND_H

#include "ArtifactKind.h"
#include "Pane.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <variant>
#include <vector>

namespace klx::app {
namespace cmd {

struct OpenFile {
  std::string path;
};
/// The Source pane's whole new text.
struct EditSource {
  std::string text;
};
/// Compile now, skipping the typing pause.
struct Recompile {};
/// Write the buffer to its file.
struct SaveSource {};
/// Back to the file on disk.
struct RevertSource {};
struct SelectStep {
  int index = 0;
};
/// A step by its display name (after the compile in flight, if any).
struct SelectStepNamed {
  std::string name;
};
/// The next or the previous visible step.
struct StepForward {};
struct StepBack {};
/// The step the IR diff compares against; -1 for the one before.
struct CompareWith {
  int step = 0;
};
struct SetHideUnchanged {
  bool on = false;
};
struct SetShowDiff {
  bool on = false;
};
struct SetSideBySide {
  bool on = false;
};
/// The lesson's next (+1) or previous (-1) step, followed as its link.
struct LessonStepBy {
  int delta = 1;
};
/// A line for the status bar (the window's welcome on a first start).
struct ShowMessage {
  std::string text;
};
/// Help > Keys (F1): the list of every shortcut, shown or closed.
struct ShowKeys {
  bool on = false;
};
struct SetDiffIgnoresWhitespace {
  bool on = false;
};
/// A target's name; empty for the file's own.
struct SetTarget {
  std::string name;
};
/// The last step to run; empty for all.
struct SetStopAfter {
  std::string step;
};
/// A 1-based line of the kernel's file; 0 clears the focus.
struct FocusSourceLine {
  int line = 0;
};
/// A role's name; empty clears the focus.
struct FocusRole {
  std::string name;
};
/// The step whose model the Barrier timeline pane draws; empty for the
/// run's timeline step.
struct ShowTimelineOf {
  std::string step;
};
/// The gpu.module whose assembly and reports the Assembly pane shows and
/// File > Save writes, by name.
struct SelectModule {
  std::string name;
};
/// Draw klx verify's counterexample instead of the simulation.
struct ShowCounterexample {
  bool on = false;
};
/// Bring a pane forward (its tab, where it is one).
struct ShowPanel {
  Pane pane;
};
/// Scroll a text pane to what a lesson step names: in Source its lines
/// (1-based, of the file), in IR or Assembly the first line holding each
/// text, all in view together where the pane is tall enough.
struct RevealInPane {
  Pane pane;
  std::vector<std::string> text;
  std::vector<unsigned> lines;
};
/// "NAME=VALUE, ..." (empty for none).
struct SetDefines {
  std::string defines;
};
/// Keep the -D values when another file opens.
struct PinDefines {
  bool on = false;
};
/// A variant to compare with (-D values or a file); empty: off.
struct SetCompare {
  std::string variant;
};
/// A lesson page by path, or with an empty path the page of that number
/// in the list.
struct OpenLesson {
  std::string path;
  int number = 0;
};
/// Every pane back where the layout places it.
struct ResetLayout {};
/// Draw one window of the layout over the whole work area (a double click
/// on its title, Alt+0); an empty name puts every pane back.
struct EnlargeWindow {
  std::string window;
};
/// explore, diff or teach.
struct SetLayout {
  std::string name;
};
/// Percent, clamped to 50..300.
struct SetZoom {
  int percent = 100;
};
/// dark or light.
struct SetTheme {
  std::string name;
};
/// Write an artifact (the step's IR is the selected step's) to `path`.
struct SaveArtifact {
  std::string path;
  ArtifactKind kind = ArtifactKind::StepIR;
};
/// Run on the GPU at `size` ("MxNxK", "N", or empty for the bundle's
/// default), recording a measured timeline with `timeline`; `variant` runs
/// the compared variant rather than the kernel as compiled.
struct RunOnGpu {
  std::string size;
  bool timeline = false;
  bool variant = false;
};

/// Compile every combination of `axes` ("tile_n=128,256 stages=3,4") and,
/// where there is a GPU, run them at `sizes` ("8192x8192x8192 4096x4096x4096";
/// empty: each bundle's own) and rank them (the Sweep pane).
struct StartSweep {
  std::string axes;
  std::string sizes;
};
/// Show a sweep's results from a file (`klx sweep --json` or `klx-run
/// --sweep --json` output).
struct OpenSweepResults {
  std::string path;
};

/// Read a Chrome trace klx-run --trace wrote (here or on a GPU machine) as
/// a run of its own: the Measured pane and the Barrier timeline show it.
struct OpenTrace {
  std::string path;
  int64_t cta = -1; // whose warps the pane shows first; -1: the last to end
};

} // namespace cmd

using Command = std::variant<
    cmd::OpenFile, cmd::EditSource, cmd::Recompile, cmd::SaveSource,
    cmd::RevertSource, cmd::SelectStep, cmd::SelectStepNamed, cmd::StepForward,
    cmd::StepBack, cmd::CompareWith, cmd::SetHideUnchanged, cmd::SetShowDiff,
    cmd::SetSideBySide, cmd::SetDiffIgnoresWhitespace, cmd::SetTarget,
    cmd::SetStopAfter, cmd::FocusSourceLine, cmd::FocusRole,
    cmd::ShowTimelineOf, cmd::ShowCounterexample, cmd::ShowPanel,
    cmd::RevealInPane, cmd::SetDefines, cmd::PinDefines, cmd::SetCompare,
    cmd::OpenLesson, cmd::ResetLayout, cmd::EnlargeWindow, cmd::SetLayout,
    cmd::SetZoom, cmd::SetTheme, cmd::SaveArtifact, cmd::RunOnGpu,
    cmd::SelectModule, cmd::StartSweep, cmd::OpenSweepResults, cmd::OpenTrace,
    cmd::ShowKeys, cmd::ShowMessage, cmd::LessonStepBy>;

/// Whether a file by this name opens as a trace: a .json (klx-run's) or a
/// .chrome_trace (Proton's).
inline bool isTraceFileName(llvm::StringRef name) {
  return name.ends_with(".json") || name.ends_with(".chrome_trace");
}

/// What opening `path` means, typed or dropped: a trace for the Measured
/// pane (isTraceFileName); any other file is a kernel to edit.
inline Command openCommandFor(std::string path) {
  if (isTraceFileName(path))
    return cmd::OpenTrace{std::move(path)};
  return cmd::OpenFile{std::move(path)};
}

/// Commands collected while drawing a frame.
class CommandQueue {
public:
  void push(Command command) { commands.push_back(std::move(command)); }
  std::vector<Command> take() { return std::move(commands); }
  bool empty() const { return commands.empty(); }

private:
  std::vector<Command> commands;
};

} // namespace klx::app

#endif // KLX_APP_CORE_COMMAND_H
