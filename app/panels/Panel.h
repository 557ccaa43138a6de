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

#include <memory>
#include <vector>

namespace klx::app {

/// Where a panel starts, as fractions of the area below the menu bar.
struct Placement {
  float x, y, width, height;
};

class Panel {
public:
  virtual ~Panel() = default;
  virtual const char *title() const = 0;
  virtual Placement placement() const = 0;
  /// Draws the panel's contents inside its window.
  virtual void draw(const AppState &state, CommandQueue &commands) = 0;
  /// Some panels have nothing to show for some runs (no AMDGCN on an
  /// NVIDIA run); they are then not drawn at all.
  virtual bool hasContent(const AppState &state) const { return true; }
};

std::vector<std::unique_ptr<Panel>> createPanels();

/// Opens the panel's window at its placement (always, when the layout was
/// reset), draws it, and closes the window.
void drawPanelWindow(Panel &panel, const AppState &state,
                     CommandQueue &commands, ImVec2 workPos, ImVec2 workSize,
                     bool resetLayout);

} // namespace klx::app

#endif // KLX_APP_PANELS_PANEL_H
