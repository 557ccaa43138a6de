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
  /// Panels that name the same group share one window as tabs, placed
  /// where the group's first panel says; nullptr for a window of its own.
  virtual const char *tabGroup() const { return nullptr; }
};

std::vector<std::unique_ptr<Panel>> createPanels();

/// Draws every panel with content: each in its window at its placement
/// (always, when the layout was reset), grouped panels as tabs. A pane
/// raised by Command::ShowPanel comes to the front once; `raiseSeen`
/// remembers which request was applied.
void drawPanels(std::vector<std::unique_ptr<Panel>> &panels,
                const AppState &state, CommandQueue &commands, ImVec2 workPos,
                ImVec2 workSize, bool resetLayout, unsigned &raiseSeen);

} // namespace klx::app

#endif // KLX_APP_PANELS_PANEL_H
