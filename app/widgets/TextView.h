//===- TextView.h - Long coloured text, scrolled smoothly -------*- C++ -*-===//
//
// Draws only the visible lines, colours them by token,
// marks lines (correlation, search hits, diagnostics) and offers search
// (Ctrl+F) and go-to-line (Ctrl+G). Text is selected as in an editor
// (click, shift-click, drag, double-click a word, Ctrl+A) and copied with
// Ctrl+C or the right-click menu, which the pane can extend (Save ...).
// A 50,000-line IR costs what its 60 visible lines cost.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_TEXTVIEW_H
#define KLX_APP_WIDGETS_TEXTVIEW_H

#include "FindBar.h"

#include "klx/Support/LineDiff.h"
#include "views/SyntaxTokens.h"
#include "views/TextSelection.h"

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

namespace klx::app {

/// Background colour of a line, or 0.
using LineColour = std::function<ImU32(size_t line)>;
/// Items a pane adds to the text's right-click menu (after Copy and
/// Select all), drawn inside the open menu.
using MenuItems = std::function<void()>;

struct TextViewResult {
  int clickedLine = -1; // 0-based
  int hoveredLine = -1;
};

/// Draws one line of text with token colours at `pos`; returns its width.
float drawColouredLine(ImDrawList *drawList, ImVec2 pos, llvm::StringRef line,
                       Language language);

class TextView {
public:
  /// `identity` changes whenever the text does (a snapshot index, a run
  /// pointer); the line index is rebuilt only then.
  void setText(llvm::StringRef text, Language language, uint64_t identity);

  TextViewResult draw(const char *id, ImVec2 size,
                      const LineColour &lineColour = {},
                      const MenuItems &menuItems = {});
  void scrollToLine(size_t line) { pendingScroll = int(line); }

  const TextSelection &selection() const { return selected; }
  void select(TextSelection selection) { selected = selection; }
  /// The text selected, as Ctrl+C copies it.
  std::string selectedText() const { return selected.text(index); }
  /// What Ctrl+F is looking for (empty while its field is closed), for a
  /// pane that also searches the other steps.
  llvm::StringRef findQuery() const { return find.activeQuery(); }

private:
  /// Where the pointer is in the text: its line (clamped to the text) and
  /// the column nearest to it.
  TextPos positionAt(ImVec2 mouse, ImVec2 origin, float gutter) const;
  /// Click, drag, keys and the right-click menu of the selection.
  void handleSelection(ImVec2 origin, float gutter, int hoveredLine,
                       const MenuItems &menuItems);
  void drawSelection(ImDrawList *drawList, ImVec2 linePos, size_t line,
                     float lineHeight);

  LineIndex index;
  Language language = Language::Plain;
  uint64_t identity = ~uint64_t(0);
  size_t longestLine = 0;
  int pendingScroll = -1;

  FindBar find;

  TextSelection selected;
  /// The line under the pointer when the right-click menu opened.
  int menuLine = -1;
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_TEXTVIEW_H
