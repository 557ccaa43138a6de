//===- ScriptedRun.h - What tests and benchmarks ask of the window -*- C++ -*-//
//
// A script drives the window as a person would, then looks: it pastes a
// file into the Source pane once the first compile is done (--paste), runs
// the kernel on the GPU (--run), writes a screenshot and the rectangle of
// every pane once the window shows what it waited for (--screenshot), or
// counts the frames drawn while idle (--exit-after-idle), or says that the
// window is ready for a script's mouse and keys (--ready-file). Kept out of the
// frame loop, which only calls it at fixed points.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_GUI_SCRIPTEDRUN_H
#define KLX_APP_GUI_SCRIPTEDRUN_H

#include "GuiArguments.h"

#include "core/AppController.h"
#include "panels/PaneArranger.h"
#include "render/Window.h"
#include "widgets/TextInView.h"

#include <optional>
#include <string>
#include <vector>

namespace klx::gui {

/// Where everything is on the screen this frame, in pixels: written beside
/// a screenshot as OUT.layout.json so tests find panes without guessing.
struct ScreenLayout {
  ImVec2 windowSize;
  app::PaneRect menuBar, statusBar;
  std::vector<app::PaneRect> panes;
  float fontSize = 0;
  int zoomPercent = 100;
  std::string layout;
  std::string theme;
  std::string source; // the kernel's file, as the Source pane has it
  std::string step;   // the selected step ("parse", "cse#2")
  /// Windows over the panes this frame ("Keys").
  std::vector<std::string> dialogs;
  /// The lines each text view shows.
  std::vector<app::TextInView> texts;
};

class ScriptedRun {
public:
  ScriptedRun(const GuiArguments &args, double now);

  /// Screenshots show every frame the window can draw; a person's window
  /// skips idle frames.
  bool drawsEveryFrame() const { return !args.screenshot.empty(); }
  /// --exit-after-idle reads the clock while nothing happens.
  bool watchesClock() const { return args.exitAfterIdle > 0; }

  /// Pushes the paste and the GPU run once the first compile is done.
  void pushInput(const app::AppController &controller,
                 app::CommandQueue &commands);
  /// --exit-after-idle: counts a frame about to be drawn; the exit code
  /// once the idle time is over.
  std::optional<int> idleExit(const app::AppController &controller, double now);
  void frameDrawn(double now);
  /// Before the frame ends: asks for the screenshot once the window shows
  /// what the script waited for, and writes the layout beside it.
  void beforeFrameEnd(const app::AppController &controller, app::Window &window,
                      const ScreenLayout &layout);
  /// After the frame ends: the exit code once the screenshot is written,
  /// or the wait for it is over.
  std::optional<int> afterFrameEnd(app::Window &window, double now);

private:
  bool readyToLook(const app::AppController &controller) const;

  GuiArguments args;
  bool runRequested = false;
  bool pasted = false;
  unsigned drawn = 0, pastedAt = 0; // frames drawn; the frame of the paste
  int framesSinceReady = 0;
  /// --screenshot-when: the frame its file was first seen (0: not yet).
  unsigned lookSeenAt = 0;
  bool screenshotRequested = false;
  /// The picture asked for: --screenshot's, or one of several whose path
  /// the --screenshot-when file held (intermediateShot: the window goes on
  /// after it).
  std::string shotPath, intermediateShot;
  bool readyWritten = false;
  /// --exit-after-idle: when the idle time started, and frames since.
  double idleSince = -1;
  unsigned idleFrames = 0;
  /// Past its limit a compile is reported stopped; allow that and a run.
  double screenshotWait;
  double screenshotDeadline;
};

/// Writes `layout` as JSON ({"window", "menu_bar", "status_bar",
/// "panes": [{"name", "x", "y", "w", "h", "front"}], "font_size", "zoom",
/// "layout", "theme", "source", "step", "dialogs", "texts": [{"pane",
/// "view", "lines": [{"n", "text"}]}]}).
llvm::Error writeScreenLayout(const ScreenLayout &layout,
                              const std::string &path);

} // namespace klx::gui

#endif // KLX_APP_GUI_SCRIPTEDRUN_H
