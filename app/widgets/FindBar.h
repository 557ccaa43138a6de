//===- FindBar.h - Ctrl+F and Ctrl+G for any text pane ----------*- C++ -*-===//
//
// The find and go-to-line fields every text pane shares: the IR and
// assembly views, the diffs and the Source editor. The pane says how to
// read its lines and where they are drawn; the bar keeps the query, the
// matches (TextSearch) and the current one, and says where to scroll.
// Enter goes to the next match, Shift+Enter to the one before, Escape
// closes the bar and clears the marks.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_FINDBAR_H
#define KLX_APP_WIDGETS_FINDBAR_H

#include "views/TextSearch.h"

#include <imgui.h>

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace klx::app {

/// Where a FindBar sends the view: a match's line (0-based), or the line
/// number typed into Ctrl+G (as typed: 1-based, not clamped, since a pane
/// may number its lines otherwise); -1 for neither.
struct FindMove {
  int matchLine = -1;
  int typedLine = -1;
};

class FindBar {
public:
  /// Ctrl+F opens the find field, Ctrl+G the go-to-line field, while
  /// `focused` (the pane has the keyboard).
  void handleKeys(bool focused);
  /// Draws the open fields over the pane's lines (read through `lineAt`;
  /// read again only when `identity` or the query changes).
  FindMove draw(size_t lineCount,
                llvm::function_ref<llvm::StringRef(size_t)> lineAt,
                uint64_t identity);
  /// The same for a pane whose lines are numbered 1 to lineCount: the
  /// 0-based line to bring into view (a match, or the line typed, clamped),
  /// or -1.
  int drawForLines(size_t lineCount,
                   llvm::function_ref<llvm::StringRef(size_t)> lineAt,
                   uint64_t identity);

  /// The query the marks are for; empty while the find field is closed.
  llvm::StringRef activeQuery() const {
    return findOpen ? llvm::StringRef(matchedQuery) : llvm::StringRef();
  }
  bool hasMatchOn(size_t line) const { return !matchesOn(line).empty(); }
  llvm::ArrayRef<TextMatch> matchesOn(size_t line) const;
  /// The match Enter went to last, or null.
  const TextMatch *current() const;
  /// Boxes around the matches of `line` whose text starts at `textPos`.
  void drawMarks(ImDrawList *drawList, ImVec2 textPos, size_t line,
                 llvm::StringRef text, float lineHeight) const;

private:
  void refresh(size_t lineCount,
               llvm::function_ref<llvm::StringRef(size_t)> lineAt,
               uint64_t identity);
  int drawFind();
  int drawGoto();

  bool findOpen = false, focusFind = false;
  std::string query, matchedQuery;
  uint64_t matchedIdentity = ~uint64_t(0);
  std::vector<TextMatch> matches;
  size_t currentMatch = SIZE_MAX;
  bool gotoOpen = false;
  char gotoText[16] = {};
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_FINDBAR_H
