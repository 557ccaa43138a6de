//===- Palette.h - Colours shared by the text widgets -----------*- C++ -*-===//

#ifndef KLX_APP_WIDGETS_PALETTE_H
#define KLX_APP_WIDGETS_PALETTE_H

#include "core/SyntaxTokens.h"

#include <imgui.h>

namespace klx::app::palette {

ImU32 token(TokenKind kind);

/// A colour per warp role, by its place in the role tree.
ImU32 role(int index);
/// The same, dark enough to sit behind text.
ImU32 roleBackground(int index);

inline constexpr ImU32 kLineNumber = IM_COL32(110, 118, 129, 255);
inline constexpr ImU32 kCorrelated = IM_COL32(70, 90, 40, 255);
inline constexpr ImU32 kSearchMatch = IM_COL32(90, 75, 20, 255);
inline constexpr ImU32 kSelection = IM_COL32(45, 75, 130, 255);
inline constexpr ImU32 kErrorLine = IM_COL32(110, 30, 30, 255);
inline constexpr ImU32 kWarningLine = IM_COL32(100, 80, 20, 255);
inline constexpr ImU32 kAdded = IM_COL32(30, 80, 40, 255);
inline constexpr ImU32 kRemoved = IM_COL32(95, 35, 35, 255);
inline constexpr ImU32 kChangedMarker = IM_COL32(120, 200, 120, 255);
inline constexpr ImU32 kFailedMarker = IM_COL32(235, 90, 80, 255);
inline constexpr ImU32 kDimText = IM_COL32(140, 140, 140, 255);

} // namespace klx::app::palette

#endif // KLX_APP_WIDGETS_PALETTE_H
