//===- WindowSettings.h - What the window remembers between starts -*- C++ -*-//
//
// ImGui's ini file keeps each pane's rectangle; beside them, as
// `[klx][window]`, klx keeps the layout's name, the zoom, the theme,
// whether the user arranged the panes by hand (then their rectangles are
// kept as they are; otherwise the layout is laid out afresh for the
// screen) and the kernels opened last, a `recent=PATH` line each.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_GUI_WINDOWSETTINGS_H
#define KLX_APP_GUI_WINDOWSETTINGS_H

#include <string>
#include <vector>

namespace klx::gui {

struct WindowSettings {
  bool userArranged = false;
  std::string layout;  // empty: never saved
  int zoomPercent = 0; // 0: never saved
  std::string theme;   // empty: never saved
  /// The kernels opened last, the latest first (File > Open recent).
  std::vector<std::string> recent;
};

/// Registers the `[klx][window]` section with ImGui (which then writes
/// `settings` whenever it saves) and loads the ini file at `iniPath` now,
/// before the first frame, so that the first frame is laid out from it.
void loadWindowSettings(const std::string &iniPath, WindowSettings &settings);

/// Asks ImGui to write the ini file soon: `settings` changed.
void windowSettingsChanged();

/// Seconds until ImGui writes the ini file (it counts down while frames
/// are drawn); negative when nothing waits to be written. An idle window
/// wakes to draw a frame then, so that a moved pane or a zoom is kept even
/// if the window is killed afterwards.
double secondsUntilSettingsSave();

} // namespace klx::gui

#endif // KLX_APP_GUI_WINDOWSETTINGS_H
