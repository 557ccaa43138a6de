//===- Palette.h - Colours shared by the text widgets -----------*- C++ -*-===//

#ifndef KLX_APP_WIDGETS_PALETTE_H
#define KLX_APP_WIDGETS_PALETTE_H

#include "core/SyntaxTokens.h"

#include <imgui.h>

namespace klx::app::palette {

ImU32 token(TokenKind kind);

/// A warp role's colour, by its name (roleColourSlot): the same in every
/// pane and at every step; grey for no role.
ImU32 role(llvm::StringRef name);
/// The same, dark enough to sit behind text.
ImU32 roleBackground(llvm::StringRef name);
/// The colour of a slot of roleColourSlot (for a legend).
ImU32 roleSlot(int slot);

inline constexpr ImU32 kLineNumber = IM_COL32(164, 172, 184, 255);
inline constexpr ImU32 kCorrelated = IM_COL32(42, 56, 24, 255);
inline constexpr ImU32 kSearchMatch = IM_COL32(66, 54, 14, 255);
/// The box around each word Ctrl+F found (the line itself is kSearchMatch).
inline constexpr ImU32 kSearchOutline = IM_COL32(240, 200, 60, 255);
inline constexpr ImU32 kSelection = IM_COL32(34, 52, 92, 255);
inline constexpr ImU32 kErrorLine = IM_COL32(80, 24, 24, 255);
inline constexpr ImU32 kWarningLine = IM_COL32(66, 52, 12, 255);
inline constexpr ImU32 kAdded = IM_COL32(22, 58, 30, 255);
inline constexpr ImU32 kRemoved = IM_COL32(76, 28, 28, 255);
/// Behind the words that changed inside a replaced line, which are also
/// underlined in kChangedMarker or kFailedMarker.
inline constexpr ImU32 kAddedWords = IM_COL32(26, 70, 36, 255);
inline constexpr ImU32 kRemovedWords = IM_COL32(100, 32, 32, 255);
inline constexpr ImU32 kChangedMarker = IM_COL32(120, 200, 120, 255);
inline constexpr ImU32 kFailedMarker = IM_COL32(235, 90, 80, 255);
inline constexpr ImU32 kDimText = IM_COL32(140, 140, 140, 255);
/// What text is drawn on: the panes (ImGui's dark window, over the clear
/// colour) and the Source pane's editor.
inline constexpr ImU32 kWindowBackground = IM_COL32(15, 15, 16, 255);
inline constexpr ImU32 kEditorBackground = IM_COL32(24, 26, 32, 255);

/// The syntax colours, by TokenKind.
inline constexpr ImU32 kTokenColours[] = {
    IM_COL32(212, 212, 212, 255), // Text
    IM_COL32(130, 184, 106, 255), // Comment
    IM_COL32(112, 178, 236, 255), // Keyword
    IM_COL32(156, 220, 254, 255), // Value
    IM_COL32(220, 220, 170, 255), // Symbol
    IM_COL32(78, 201, 176, 255),  // Type
    IM_COL32(212, 152, 208, 255), // Attribute
    IM_COL32(181, 206, 168, 255), // Number
    IM_COL32(222, 162, 136, 255), // String
    IM_COL32(215, 186, 125, 255), // Label
};

/// Every background text is drawn on: the panes, the editor and the marks
/// of a line (each at least 4.5:1 against every syntax colour and the line
/// numbers; tests/unit/WindowStateTest.cpp checks).
inline constexpr ImU32 kTextBackgrounds[] = {
    kWindowBackground, kEditorBackground, kCorrelated,  kSearchMatch,
    kSelection,        kErrorLine,        kWarningLine, kAdded,
    kRemoved,          kAddedWords,       kRemovedWords};

} // namespace klx::app::palette

#endif // KLX_APP_WIDGETS_PALETTE_H
