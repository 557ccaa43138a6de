//===- PaneArranger.h - Where each pane's window goes -----------*- C++ -*-===//
//
// The window's panes as the layout arranges them, frame by frame: each
// pane in its window (its own, or a window of tabs), placed by the
// layout's tables (Layouts.h) or where the user left it, one window
// enlarged over the others and put back.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_PANEARRANGER_H
#define KLX_APP_PANELS_PANEARRANGER_H

#include "Panel.h"

#include <imgui.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace klx::app {

/// A pane's window as drawn this frame, in pixels.
struct PaneRect {
  std::string name;
  ImVec2 pos, size;
  std::string front; // a window of tabs: the tab in front this frame
};

/// Keeps the panes where the layout wants them: placed as fractions of the
/// work area, following the window as it is resized, until the user moves
/// or resizes a pane; from then on the user's arrangement stays (ImGui's
/// ini keeps it) until a layout is chosen again or reset. Panes are always
/// kept below the menu bar and inside the window.
struct PaneArranger {
  /// The user moved or resized a pane since the layout was last applied.
  bool userArranged = false;
  /// The view's layoutGeneration last applied.
  unsigned layoutGeneration = 0;
  /// The work area last frame (negative before the first).
  ImVec2 lastWorkPos{-1, -1}, lastWorkSize{-1, -1};
  /// Where each window was left last frame; a window that moves without
  /// being placed was moved by the user.
  std::map<std::string, PaneRect> lastRects;
  /// The windows drawn this frame, for --screenshot's layout file.
  std::vector<PaneRect> drawn;
  /// A pane raised by Command::ShowPanel comes to the front once; the
  /// request last applied.
  unsigned raiseSeen = 0;
  /// The window drawn over the whole work area last frame (empty: none),
  /// where it was before, and the window that had the keyboard (for
  /// Alt+0, which Gui.cpp's shortcuts handle).
  std::string enlarged;
  std::map<std::string, PaneRect> restoreTo;
  std::string focusedWindow;
};

/// Draws every panel with content that the view's layout shows: each in
/// its window, grouped panels as tabs, inside the work area (`workPos`,
/// `workSize`: below the menu bar, above the status bar).
void drawPanels(std::vector<std::unique_ptr<Panel>> &panels,
                const AppState &state, CommandQueue &commands, ImVec2 workPos,
                ImVec2 workSize, PaneArranger &arranger);

} // namespace klx::app

#endif // KLX_APP_PANELS_PANEARRANGER_H
