//===- Layouts.h - Where each pane goes in each named layout ----*- C++ -*-===//
//
// The tables of Layouts.cpp, read by PaneArranger: which window shows a
// pane in a layout (its own or a window of tabs) and where that window
// goes. No ImGui: fractions of the work area.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_LAYOUTS_H
#define KLX_APP_PANELS_LAYOUTS_H

#include "core/Layout.h"
#include "core/Pane.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace klx::app {

/// Where a pane goes, as fractions of the area between the menu bar and
/// the status bar.
struct Placement {
  float x, y, width, height;
};

/// The window that shows `pane` in `layout`: the pane's own (named as the
/// pane's title) or a window of tabs shared with other panes (`Structure`:
/// Warp roles and Steps); empty where the layout hides it.
llvm::StringRef windowOf(LayoutName layout, Pane pane);

/// A tab's place among its window's tabs in `layout` (the first is shown
/// when the window opens); -1 for a pane with a window of its own.
int tabOrder(LayoutName layout, Pane pane);

/// Where `window` goes in `layout`; nullopt where the layout hides it.
std::optional<Placement> placementIn(LayoutName layout, llvm::StringRef window);

} // namespace klx::app

#endif // KLX_APP_PANELS_LAYOUTS_H
