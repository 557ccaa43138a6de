//===- Command.h - What panels ask the controller to do ---------*- C++ -*-===//
//
// Panels push Commands while drawing; the controller applies them between
// frames. Nothing here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_COMMAND_H
#define KLX_APP_CORE_COMMAND_H

#include <string>
#include <vector>

namespace klx::app {

struct Command {
  enum Kind {
    OpenFile,                 // text: path
    EditSource,               // text: the whole new text
    Recompile,                // now, skipping the typing pause
    SaveSource,               // write the buffer to its file
    RevertSource,             // back to the file on disk
    SelectStep,               // index
    SelectStepNamed,          // text: a step's display name (after the compile
                              // in flight, if any)
    StepForward,              // next visible step
    StepBack,                 // previous visible step
    CompareWith,              // index, -1 for the step before
    SetHideUnchanged,         // flag
    SetShowDiff,              // flag
    SetSideBySide,            // flag
    SetDiffIgnoresWhitespace, // flag
    SetTarget,                // text: target name, empty for the file's
    SetStopAfter,             // text: step name, empty for all
    FocusSourceLine,          // index: 1-based line, 0 to clear
    FocusRole,                // text: role name, empty to clear
    ShowTimelineOf,     // text: step name, empty for the run's timeline step
    ShowCounterexample, // flag: draw klx verify's counterexample instead of
                        // the simulation in the Barrier timeline pane
    ShowPanel,          // text: the pane's title (brings its tab forward)
    SetDefines,         // text: "NAME=VALUE, ..." (empty for none)
    PinDefines,         // flag: keep the -D values when another file opens
    SetCompare,         // text: a variant (-D values or a file); empty: off
    OpenLesson,         // text: a lesson page's path; index: with an empty
                        // text, the page of that number in the list
    ResetLayout,        // every pane back where the layout places it
    SetLayout,          // text: explore, diff or teach
    SetZoom,            // index: percent (clamped to 50..300)
    SaveArtifact,       // text: the path; index: an ArtifactKind (the
                        // step's IR is the selected step's)
    RunOnGpu, // text: "MxNxK" or "N" or empty for the bundle's default;
              // flag: also record a measured timeline; index 1: run the
              // compared variant rather than the kernel as compiled
  };
  Kind kind;
  std::string text = {};
  int index = 0;
  bool flag = false;
};

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
