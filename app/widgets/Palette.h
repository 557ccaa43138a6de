//===- Palette.h - The colours of the window, one table per theme -*- C++
//-*-===//
//
// Every colour a pane or widget draws with comes from the current Theme
// (dark or light), so that switching the theme switches all of them; the
// contrast of text on every background is checked for both themes by
// tests/unit/WindowStateTest.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_PALETTE_H
#define KLX_APP_WIDGETS_PALETTE_H

#include "core/Layout.h"
#include "views/SyntaxTokens.h"

#include <imgui.h>

#include <vector>

namespace klx::app::palette {

inline constexpr int kTokenKinds = 10;
inline constexpr int kRoleSlots = 6;
inline constexpr int kStageSlots = 7;

struct Theme {
  ThemeName name;
  /// The colour the window is cleared to, behind the panes.
  ImU32 clear;

  // What text is drawn on: the panes (ImGui's window colour) and the
  // Source pane's editor, and the marks behind a line.
  ImU32 windowBackground, editorBackground;
  ImU32 correlated, searchMatch, selection, errorLine, warningLine;
  ImU32 added, removed;
  /// Behind the words that changed inside a replaced line, which are also
  /// underlined in changedMarker or failedMarker.
  ImU32 addedWords, removedWords;

  // Text.
  ImU32 tokens[kTokenKinds]; // by TokenKind
  ImU32 lineNumber, dimText, brightText;
  /// Status lines: what failed, what needs a look, what passed, a heading.
  ImU32 errorText, warningText, goodText, headingText;
  /// The Lesson pane's links and code words.
  ImU32 linkText, inlineCodeText;
  /// The two variants of Compare and the Steps pane's sections.
  ImU32 variantA, variantB;

  // Marks and drawings.
  /// The box around each word Ctrl+F found, and the measure's edges.
  ImU32 searchOutline;
  ImU32 changedMarker, failedMarker;
  /// Behind the role bars of Warp roles and Compare, and a lane's track.
  ImU32 barBackground, laneBackground, measuredLaneBackground;
  ImU32 measuredLaneText;
  /// Runs of events too narrow to draw one by one, and tick marks.
  ImU32 foldedEvents;
  ImU32 arriveTick, copyTick, landedTick, mmaTick;
  /// Where a counterexample fails.
  ImU32 deadlockLine;
  /// A wash over a measured range or the ticks' grid, and under labels.
  ImU32 measureWash, gridWash, labelBackground, flowArrow;
  /// The Lesson pane's code blocks.
  ImU32 codeBackground, codeText;
  ImU32 roleSlots[kRoleSlots];
  ImU32 noRole;
  ImU32 stages[kStageSlots];
  /// Added to a stage's colour for the phase-flip marks on top of it.
  ImU32 stageMarks[kStageSlots];
};

const Theme &darkTheme();
const Theme &lightTheme();
/// The theme every pane draws with now.
const Theme &theme();
/// Changes what theme() returns (the GUI thread only).
void useTheme(ThemeName name);

/// Every background text is drawn on in `theme`: each must read at 4.5:1
/// under every syntax colour and the line numbers.
std::vector<ImU32> textBackgrounds(const Theme &theme);

inline ImVec4 toVec4(ImU32 colour) {
  return ImGui::ColorConvertU32ToFloat4(colour);
}

/// The text of an error or a warning (a diagnostic, a check, a report).
inline ImVec4 diagnosticText(bool isError) {
  return toVec4(isError ? theme().errorText : theme().warningText);
}

ImU32 token(TokenKind kind);

/// A warp role's colour, by its name (roleColourSlot): the same in every
/// pane and at every step; grey for no role.
ImU32 role(llvm::StringRef name);
/// The same, faint enough to sit behind text.
ImU32 roleBackground(llvm::StringRef name);
/// The colour of a slot of roleColourSlot (for a legend).
ImU32 roleSlot(int slot);
/// The colour of a pipeline stage's waits on the timeline.
ImU32 stage(int slot);
ImU32 stageMark(int slot);

} // namespace klx::app::palette

#endif // KLX_APP_WIDGETS_PALETTE_H
