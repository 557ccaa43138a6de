//===- KeysWindow.h - Help > Keys: every shortcut ---------------*- C++ -*-===//

#ifndef KLX_APP_WIDGETS_KEYSWINDOW_H
#define KLX_APP_WIDGETS_KEYSWINDOW_H

#include "core/AppState.h"

namespace klx::app {

/// While the view says so, a window over the panes listing core/Keys.h's
/// shortcuts, closed by its button, Escape or F1; true when drawn.
bool drawKeysWindow(const AppState &state, CommandQueue &commands);

} // namespace klx::app

#endif // KLX_APP_WIDGETS_KEYSWINDOW_H
