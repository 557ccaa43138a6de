//===- GuiArguments.h - The window's command line ---------------*- C++ -*-===//

#ifndef KLX_APP_GUI_GUIARGUMENTS_H
#define KLX_APP_GUI_GUIARGUMENTS_H

#include "core/Pane.h"
#include "workers/CompileWorker.h"

#include <optional>
#include <string>
#include <vector>

namespace klx::gui {

struct GuiArguments {
  std::string file;
  std::string pass;
  std::string role;
  /// The step whose protocol model the Barrier timeline pane draws.
  std::string timelineAt;
  bool counterexample = false;
  /// The IR pane shows the diff against the step before (View > Diff).
  bool diff = false;
  /// A pane to bring forward at start (the tab of a group).
  std::optional<app::Pane> show;
  /// explore, diff or teach; empty: as the window was left.
  std::string layout;
  /// The whole window's zoom in percent; 0: as the window was left.
  int zoomPercent = 0;
  /// dark or light; empty: as the window was left.
  std::string theme;
  /// -D values to compile with, and a variant to compare with.
  std::vector<std::string> defines;
  std::string compare;
  std::string target;
  /// A sweep's results to show in the Sweep pane (`klx sweep --json` or
  /// `klx-run --sweep --json` output).
  std::string sweep;
  /// A Chrome trace klx-run --trace wrote, opened as a run (Measured pane).
  std::string trace;
  /// The CTA whose warps the Measured pane shows first (--measured-cta).
  int64_t measuredCta = -1;
  /// Seconds a compile may take before it is reported stopped.
  double timeout = kDefaultCompileSeconds;
  std::string ptxas, nvdisasm;
  /// MB of IR text a compile keeps over its steps.
  double snapshotLimitMB = double(CompileOptions().maxSnapshotBytes >> 20);

  // What a script (a test, a benchmark) asks of the window: see
  // ScriptedRun.h.
  /// Once the first compile is done, the Source pane's text is replaced
  /// by this file's, as a paste would (tests feed bad input this way).
  std::string paste;
  std::string screenshot;
  int frames = 3;
  /// Run on the GPU once the first compile is done ("MxNxK", or "default"),
  /// recording a measured timeline with --run-timeline.
  std::string run;
  bool runTimeline = false;
  /// Diagnostics: exit after this many seconds without input once the
  /// first compile is done, printing how many frames were drawn.
  double exitAfterIdle = 0;
  /// Written (empty) once the first compile is done and drawn, for a
  /// script that drives the window with the mouse and keys.
  std::string readyFile;
  /// With --screenshot: wait for this file to exist before taking it (a
  /// script drives the window first, then creates the file).
  std::string screenshotWhen;
  /// No FILE and no window settings saved yet (runWindow decides): the
  /// first lesson opens beside its sample, at its first step.
  bool firstStart = false;
};

/// Reads `klx [FILE] [options]`; nullopt after saying what is wrong.
std::optional<GuiArguments> parseGuiArguments(int argc, char **argv);

} // namespace klx::gui

#endif // KLX_APP_GUI_GUIARGUMENTS_H
