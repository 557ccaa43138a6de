//===- Panel.h - One pane of the window -------------------------*- C++ -*-===//
//
// A panel draws from AppState and pushes commands; it never runs the
// compiler. Each panel lives in its own file and is registered in
// Panels.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_PANEL_H
#define KLX_APP_PANELS_PANEL_H

#include "core/AppState.h"

#include <imgui.h>

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace klx::app {

/// Where a pane goes, as fractions of the area between the menu bar and
/// the status bar.
struct Placement {
  float x, y, width, height;
};

/// The window that shows the pane titled `pane` in `layout`: the pane's
/// own (named as the pane) or a window of tabs shared with other panes
/// (`Structure`: Warp roles and Steps); empty where the layout hides it.
llvm::StringRef windowOf(LayoutName layout, llvm::StringRef pane);

/// A tab's place among its window's tabs in `layout` (the first is shown
/// when the window opens); -1 for a pane with a window of its own.
int tabOrder(LayoutName layout, llvm::StringRef pane);

/// Where `window` goes in `layout`; nullopt where the layout hides it.
std::optional<Placement> placementIn(LayoutName layout, llvm::StringRef window);

class Panel {
public:
  virtual ~Panel() = default;
  virtual const char *title() const = 0;
  /// Draws the panel's contents inside its window.
  virtual void draw(const AppState &state, CommandQueue &commands) = 0;
  /// Some panels have nothing to show for some runs (no AMDGCN on an
  /// NVIDIA run); they are then not drawn at all.
  virtual bool hasContent(const AppState &state) const { return true; }
};

std::vector<std::unique_ptr<Panel>> createPanels();

/// A pane's window as drawn this frame, in pixels.
struct PaneRect {
  std::string name;
  ImVec2 pos, size;
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

#endif // KLX_APP_PANELS_PANEL_H
