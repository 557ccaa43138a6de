//===- MenuBar.h - The menu bar, the status bar and the shortcuts -*- C++
//-*-===//
//
// What the window draws around the panes: the menus (File, View, Help),
// the status bar (the compile, its verdict, the last message) and the
// keys that work anywhere. They draw from the state and push commands;
// the dialogs the menus open are the window's (Dialogs).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_GUI_MENUBAR_H
#define KLX_APP_GUI_MENUBAR_H

#include "core/AppState.h"
#include "panels/PaneArranger.h"
#include "widgets/OpenDialog.h"
#include "widgets/SaveAsDialog.h"

#include <string>

namespace klx::gui {

/// The dialogs the menus open.
struct Dialogs {
  app::OpenDialog open;     // File > Open, Ctrl+O
  app::SaveAsDialog saveAs; // File > Save ... as
};

/// Draws the menu bar and returns its rectangle.
app::PaneRect drawMenu(const app::AppState &state, app::CommandQueue &commands,
                       Dialogs &dialogs);

/// The compile, its verdict and the last message, along the bottom.
app::PaneRect drawStatusBar(const app::AppState &state, ImVec2 pos,
                            ImVec2 size);

/// The keys that work anywhere (Help > Keys lists them). `wheelZoom`:
/// Ctrl+wheel this frame (+1, -1 or 0); `focusedWindow`: the pane window
/// that had the keyboard last frame, which Alt+0 enlarges.
void handleShortcuts(const app::AppState &state, int wheelZoom,
                     const std::string &focusedWindow, Dialogs &dialogs,
                     app::CommandQueue &commands);

} // namespace klx::gui

#endif // KLX_APP_GUI_MENUBAR_H
