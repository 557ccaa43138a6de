//===- Layout.h - Named pane layouts and the zoom steps ---------*- C++ -*-===//
//
// What the window's arrangement is called and how far it is zoomed; where
// each pane goes in a layout is the GUI's business (panels/Layouts.cpp).
// Nothing here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_LAYOUT_H
#define KLX_APP_CORE_LAYOUT_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace klx::app {

/// Explore: every pane. Diff: the passes and the IR diff, large. Teach: the
/// lesson, the source and the IR large for a projector, with roles and the
/// timeline below them and the rest hidden.
enum class LayoutName { Explore, Diff, Teach };

std::optional<LayoutName> parseLayoutName(llvm::StringRef text);
llvm::StringRef layoutNameText(LayoutName layout);

/// Dark for screens; Light for projectors, where a dark room is rare and
/// dark panes wash out.
enum class ThemeName { Dark, Light };

std::optional<ThemeName> parseThemeName(llvm::StringRef text);
llvm::StringRef themeNameText(ThemeName theme);

inline constexpr int kMinZoomPercent = 50;
inline constexpr int kMaxZoomPercent = 300;
/// Teach starts at least this large: read from the back of a room.
inline constexpr int kTeachZoomPercent = 150;

/// The next zoom step up (direction > 0) or down from `percent`, as
/// browsers step: 50, 67, 75, 80, 90, 100, 110, 125, 150, ... 300.
int nextZoomPercent(int percent, int direction);
int clampZoomPercent(int percent);

} // namespace klx::app

#endif // KLX_APP_CORE_LAYOUT_H
