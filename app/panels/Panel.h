//===- Panel.h - One pane of the window -------------------------*- C++ -*-===//
//
// A panel draws from AppState and pushes commands; it never runs the
// compiler. Each panel lives in its own file and is registered in
// Panels.cpp; where its window goes is PaneArranger's (PaneArranger.h).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_PANEL_H
#define KLX_APP_PANELS_PANEL_H

#include "core/AppState.h"
#include "core/Pane.h"

#include <imgui.h>

#include <memory>
#include <vector>

namespace klx::app {

class Panel {
public:
  virtual ~Panel() = default;
  virtual Pane pane() const = 0;
  /// What its tab or window shows.
  const char *title() const { return paneTitle(pane()).data(); }
  /// Draws the panel's contents inside its window.
  virtual void draw(const AppState &state, CommandQueue &commands) = 0;
  /// Some panels have nothing to show for some runs (no AMDGCN on an
  /// NVIDIA run); they are then not drawn at all.
  virtual bool hasContent(const AppState &state) const { return true; }
};

std::vector<std::unique_ptr<Panel>> createPanels();

} // namespace klx::app

#endif // KLX_APP_PANELS_PANEL_H
