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

/// The scroll that shows lines `first` to `last` (0-based) in a view
/// `viewHeight` tall: in its middle where they fit, else `first` at the
/// top.
float spanScrollY(float viewHeight, float lineHeight, int first, int last);

class TextView {
public:
  /// `identity` changes whenever the text does (a snapshot index, a run
  /// pointer); the line index is rebuilt only then.
  void setText(llvm::StringRef text, Language language, uint64_t identity);

  TextViewResult draw(const char *id, ImVec2 size,
                      const LineColour &lineColour = {},
                      const MenuItems &menuItems = {});
  void scrollToLine(size_t line) { pendingScroll = int(line); }
  /// A text on a line (0-based) that a scroll is to show.
  struct Found {
    size_t line;
    std::string text;
  };
  /// Scrolls the lines of `found` into view together (where they do not
  /// fit, the first at the top), and sideways so that each text shows
  /// whole where the pane is wide enough, else from the left edge.
  void scrollToFound(std::vector<Found> found);
  /// Scrolls sideways to `x` pixels at the next draw.
  void scrollSidewaysTo(float x) { pendingScrollX = x; }
  /// The 0-based line of the first line holding `text` at or after
  /// `from`, else the first anywhere; -1 where none does.
  int findLine(llvm::StringRef text, size_t from = 0) const;

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
  /// Applies a scroll asked for since the last frame (`gutter`: the line
  /// numbers' width).
  void applyPendingScroll(float lineHeight, float gutter);
  /// The sideways scroll that shows pendingFound's texts, `room` wide.
  float foundScrollX(float room) const;
  /// For a window taking screenshots: the lines in view (TextInView.h).
  void recordLinesInView(const char *id, ImVec2 textOrigin, float lineHeight,
                         float gutter) const;

  LineIndex index;
  Language language = Language::Plain;
  uint64_t identity = ~uint64_t(0);
  size_t longestLine = 0;
  int pendingScroll = -1;
  int pendingSpanEnd = -1; // scrollToFound's last line, -1: none
  std::vector<Found> pendingFound;
  float pendingScrollX = -1; // scrollSidewaysTo's, -1: none

  FindBar find;

  TextSelection selected;
  /// The line under the pointer when the right-click menu opened.
  int menuLine = -1;
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_TEXTVIEW_H
