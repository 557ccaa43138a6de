//===- AppCommands.cpp - What each command does ---------------------------===//
//
// AppController::apply dispatches a Command (a std::variant of small
// structs) to the handler for its struct; each handler is a few lines that
// change the state or call the controller's operation.
//
//===----------------------------------------------------------------------===//

#include "AppController.h"

#include "llvm/Support/raw_ostream.h"

using namespace klx;
using namespace klx::app;

void AppController::stepBy(int direction) {
  if (!appState.run)
    return;
  std::vector<int> steps =
      visibleSteps(*appState.run, appState.view.hideUnchanged);
  int current = appState.view.selected;
  if (direction > 0) {
    for (int step : steps)
      if (step > current)
        return chooseStep(step);
  } else {
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
      if (*it < current)
        return chooseStep(*it);
  }
}

void AppController::saveSource() {
  SourceBuffer &source = appState.source;
  if (source.path.empty()) {
    setMessage("nothing to save to: this buffer has no file", true);
    return;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(source.path, ec);
  if (!ec) {
    os << source.text;
    os.close();
  }
  if (ec || os.has_error()) {
    os.clear_error();
    setMessage("cannot save " + source.path + ": " +
                   (ec ? ec.message() : "write failed"),
               true);
    return;
  }
  source.diskText = source.text;
  source.restoredFromAutosave = false;
  autosave.discard(source.path);
  setMessage("saved " + source.path, false);
}

namespace klx::app {

template <> void AppController::on(const cmd::OpenFile &c, double) {
  openFile(c.path);
}
template <> void AppController::on(const cmd::EditSource &c, double now) {
  editSource(c.text, now);
}
template <> void AppController::on(const cmd::Recompile &, double) {
  recompileAt = -1;
  startCompile();
}
template <> void AppController::on(const cmd::SaveSource &, double) {
  saveSource();
}
template <> void AppController::on(const cmd::RevertSource &, double) {
  if (appState.source.path.empty())
    return;
  autosave.discard(appState.source.path);
  openFile(appState.source.path);
}
template <> void AppController::on(const cmd::SelectStep &c, double) {
  chooseStep(c.index);
}
template <> void AppController::on(const cmd::SelectStepNamed &c, double) {
  selectStepNamed(c.name);
}
template <> void AppController::on(const cmd::StepForward &, double) {
  stepBy(+1);
}
template <> void AppController::on(const cmd::StepBack &, double) {
  stepBy(-1);
}
template <> void AppController::on(const cmd::CompareWith &c, double) {
  appState.view.compareWith = c.step;
}
template <> void AppController::on(const cmd::SetHideUnchanged &c, double) {
  appState.view.hideUnchanged = c.on;
}
template <> void AppController::on(const cmd::SetShowDiff &c, double) {
  appState.view.showDiff = c.on;
}
template <> void AppController::on(const cmd::LessonStepBy &c, double now) {
  stepLesson(c.delta, now);
}
template <> void AppController::on(const cmd::ShowMessage &c, double) {
  setMessage(c.text, /*isError=*/false);
}
template <> void AppController::on(const cmd::ShowKeys &c, double) {
  appState.view.keysShown = c.on;
}
template <> void AppController::on(const cmd::SetSideBySide &c, double) {
  appState.view.sideBySide = c.on;
}
template <>
void AppController::on(const cmd::SetDiffIgnoresWhitespace &c, double) {
  appState.view.diffIgnoresWhitespace = c.on;
}
template <> void AppController::on(const cmd::SetTarget &c, double) {
  appState.target = c.name.empty() ? std::nullopt : parseTarget(c.name);
  // Steps differ between targets; stop-after may name one that is gone.
  appState.stopAfter.clear();
  startCompile();
}
template <> void AppController::on(const cmd::SetStopAfter &c, double) {
  appState.stopAfter = c.step;
  startCompile();
}
template <> void AppController::on(const cmd::FocusSourceLine &c, double) {
  appState.view.focusedSourceLine = c.line;
}
template <> void AppController::on(const cmd::FocusRole &c, double) {
  appState.view.focusedRole = c.name;
}
template <> void AppController::on(const cmd::ShowTimelineOf &c, double) {
  appState.view.timelineStep = c.step;
  // Where the timeline is a tab (Teach), the one asked for comes forward
  // (not at start, where an empty step only says "the run's own").
  if (!c.step.empty())
    showPanel(Pane::Timeline);
}
template <> void AppController::on(const cmd::ShowCounterexample &c, double) {
  appState.view.showCounterexample = c.on;
}
template <> void AppController::on(const cmd::SelectModule &c, double) {
  appState.view.module = c.name;
}
template <> void AppController::on(const cmd::ShowPanel &c, double) {
  showPanel(c.pane);
}
template <> void AppController::on(const cmd::RevealInPane &c, double) {
  ViewState &view = appState.view;
  view.reveals[c.pane] = PaneReveal{c.text, c.lines, ++view.revealCount};
}
template <> void AppController::on(const cmd::SetDefines &c, double) {
  setDefines(c.defines);
}
template <> void AppController::on(const cmd::PinDefines &c, double) {
  appState.definesPinned = c.on;
}
template <> void AppController::on(const cmd::SetCompare &c, double) {
  setCompare(c.variant);
}
template <> void AppController::on(const cmd::OpenLesson &c, double) {
  openLesson(c.path, c.number);
}
template <> void AppController::on(const cmd::ResetLayout &, double) {
  appState.view.enlargedWindow.clear();
  ++appState.view.layoutGeneration;
}
template <> void AppController::on(const cmd::EnlargeWindow &c, double) {
  if (c.window == appState.view.enlargedWindow)
    return;
  appState.view.enlargedWindow = c.window;
  if (c.window.empty())
    setMessage("every pane is back", /*isError=*/false);
  else
    setMessage(c.window + " fills the window; double-click its title (or "
                          "Alt+0) to put the others back",
               /*isError=*/false);
}
template <> void AppController::on(const cmd::SetLayout &c, double) {
  setLayout(c.name);
}
template <> void AppController::on(const cmd::SetZoom &c, double) {
  appState.view.zoomPercent = clampZoomPercent(c.percent);
}
template <> void AppController::on(const cmd::SetTheme &c, double) {
  std::optional<ThemeName> theme = parseThemeName(c.name);
  if (!theme)
    return setMessage("unknown theme '" + c.name + "' (dark or light)",
                      /*isError=*/true);
  appState.view.theme = *theme;
}
template <> void AppController::on(const cmd::SaveArtifact &c, double) {
  saveArtifactTo(c.kind, c.path);
}
template <> void AppController::on(const cmd::RunOnGpu &c, double) {
  runOnGpu(c.size, c.timeline, c.variant);
}
template <> void AppController::on(const cmd::StartSweep &c, double) {
  startSweep(c.axes, c.sizes);
}
template <> void AppController::on(const cmd::OpenSweepResults &c, double) {
  openSweepResults(c.path);
}
template <> void AppController::on(const cmd::OpenTrace &c, double) {
  openTrace(c.path, c.cta);
}

} // namespace klx::app

void AppController::apply(const Command &command, double now) {
  std::visit([&](const auto &c) { on(c, now); }, command);
}
