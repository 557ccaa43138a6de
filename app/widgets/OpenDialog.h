//===- OpenDialog.h - File > Open, and the kernels opened last --*- C++ -*-===//
//
// File > Open (Ctrl+O) asks for a kernel or a trace in a small dialog
// whose field completes paths as it is typed (Tab), as the Samples pane's
// does; File > Open recent lists the kernels opened last. Opening itself
// is a command the controller carries out.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_OPENDIALOG_H
#define KLX_APP_WIDGETS_OPENDIALOG_H

#include "core/AppState.h"
#include "widgets/PathField.h"

namespace klx::app {

class OpenDialog {
public:
  /// Inside the File menu: "Open..." and "Open recent".
  void menuItems(const AppState &state, CommandQueue &commands);
  /// Opens the dialog next frame (Ctrl+O).
  void request() { pendingOpen = true; }
  /// Every frame: the dialog once asked for; true while it is drawn.
  bool draw(const AppState &state, CommandQueue &commands);

private:
  bool pendingOpen = false;
  PathField path{PathKinds::KernelsAndTraces, nullptr};
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_OPENDIALOG_H
