//===- DiffView.h - Two snapshots, line by line -----------------*- C++ -*-===//
//
// Side by side where the pane is wide, inline (-/+) where it is narrow;
// the words that changed inside a replaced line stand out; unchanged runs
// fold to a row a click opens (DiffRows); Ctrl+F and Ctrl+G search the
// rows; a drag selects rows for Ctrl+C; right-click copies a line, the
// selection or the whole diff as unified text.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_DIFFVIEW_H
#define KLX_APP_WIDGETS_DIFFVIEW_H

#include "FindBar.h"

#include "core/Background.h"
#include "klx/Support/LineDiff.h"
#include "views/DiffRows.h"
#include "views/SyntaxTokens.h"

#include <imgui.h>

#include <cstdint>
#include <set>
#include <string>

namespace klx::app {

class DiffView {
public:
  /// Asks for the diff (computed off the GUI thread) only when the pair or
  /// the options change; until it lands the pane says it is computing.
  void setTexts(llvm::StringRef before, llvm::StringRef after,
                Language language, uint64_t identity, DiffOptions options = {});
  /// Side by side only where the pane is wide enough for two columns of
  /// readable lines (`sideBySide` asks for it); inline otherwise.
  void draw(const char *id, ImVec2 size, bool sideBySide);
  /// The diff as `diff -u` would print it, every line with its context.
  std::string unifiedText() const;
  /// Marks the new text's lines that came from source line `focused`
  /// (`afterSource`: each new line's source line, 0 for none) in the
  /// correlated colour, and brings the first into view when the line or
  /// the diff changes. Each frame, before draw.
  void markSourceLine(const std::vector<uint32_t> *afterSource,
                      unsigned focused);

private:
  /// Whether diff row `row`'s new line came from the marked source line.
  bool marked(size_t row) const;
  llvm::StringRef rowText(size_t row) const { return model->rowText(row); }
  /// Takes a diff that landed: rows, folds and the first change anew.
  void adopt(std::shared_ptr<const DiffModel> ready);
  void rebuildRows();
  /// Draws row `shown` of `rows`, side by side or inline.
  void drawRow(ImDrawList *drawList, ImVec2 pos, size_t shown,
               float columnWidth, float fullWidth);
  /// Brings diff row `line` into view, opening the fold it is in.
  void reveal(size_t line);
  void drawHeader();
  void drawSide(ImDrawList *drawList, ImVec2 pos, float width, size_t row,
                int side, bool selectedRow);
  void drawInline(ImDrawList *drawList, ImVec2 pos, float width, size_t row,
                  bool selectedRow);
  void drawFold(ImDrawList *drawList, ImVec2 pos, float width,
                const DiffRow &fold);
  void drawChangedWords(ImDrawList *drawList, ImVec2 textPos,
                        llvm::StringRef text, size_t row);
  void handleMouse(ImVec2 origin, float lineHeight, float columnWidth);
  /// A drag over rows selects them (in one column side by side); Ctrl+C
  /// copies them, Ctrl+A selects every row.
  void handleSelection(ImVec2 origin, float lineHeight, float columnWidth);
  bool selected(size_t shown) const;
  std::string selectedText() const;

  Background<DiffModel> job;
  std::shared_ptr<const DiffModel> model; // what is drawn
  uint64_t modelKey = ~uint64_t(0);
  std::vector<DiffRow> rows;
  std::set<uint32_t> unfolded;
  bool foldUnchangedRuns = true;
  bool sideBySideRows = false; // rows paired for two columns
  Language language = Language::Plain;
  uint64_t key = ~uint64_t(0); // of the texts and options asked for
  size_t currentHunk = 0;
  int pendingScroll = -1; // a row of `rows`
  const std::vector<uint32_t> *afterSource = nullptr;
  unsigned focusedSource = 0, scrolledToSource = 0;
  FindBar find;
  int menuRow = -1;
  /// The selected rows of `rows`, from the one the drag started on to the
  /// one under the pointer; none while selectFrom < 0.
  int selectFrom = -1, selectTo = -1;
  DiffSide selectSide = DiffSide::Unified;
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_DIFFVIEW_H
