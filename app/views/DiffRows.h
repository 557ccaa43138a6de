//===- DiffRows.h - What a diff pane draws of a LineDiff --------*- C++ -*-===//
//
// A diff reads like Compiler Explorer's when the words that changed inside
// a replaced line stand out and long runs of unchanged lines fold into one
// row that a click opens. Both are decided here, from the LineDiff and the
// two texts; nothing here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_DIFFROWS_H
#define KLX_APP_VIEWS_DIFFROWS_H

#include "klx/Support/LineDiff.h"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace klx::app {

/// Bytes [begin, end) of a line: the part that differs from its pair.
struct ChangedSpan {
  uint32_t begin = 0, end = 0;
  bool empty() const { return begin >= end; }
};

/// The words that differ between a line and the line that replaced it:
/// what is left after their common start and end, widened to whole words.
/// Both empty when the lines share less than a third of the longer one
/// (then the whole line is the change, which its colour already says).
std::pair<ChangedSpan, ChangedSpan> changedWords(llvm::StringRef before,
                                                 llvm::StringRef after);

/// Per row of `diff`: the changed words of a removed line and of the added
/// line in the same place of the same run of changes (the k-th removed
/// with the k-th added); empty for every other row.
std::vector<ChangedSpan> changedSpans(const LineDiff &diff,
                                      const LineIndex &before,
                                      const LineIndex &after);

/// A row the pane draws: the diff's row `first`, or `folded` unchanged
/// rows from `first` on, shown as one; side by side, a removed row also
/// shows the added row `paired` on its right.
struct DiffRow {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t first = 0;
  uint32_t folded = 0;
  uint32_t paired = kNone;
};

/// Every changed row and `context` unchanged rows on each side of a change;
/// a longer unchanged run folds into one row unless its first row is in
/// `unfolded`. Nothing folds when nothing changed.
std::vector<DiffRow> foldUnchanged(const LineDiff &diff, unsigned context,
                                   const std::set<uint32_t> &unfolded);

/// The rows side by side: in each run of changes the k-th removed line
/// shares a row with the k-th added one, as the two columns of Compiler
/// Explorer's diff do, rather than each on a row of its own.
std::vector<DiffRow> pairChanges(const std::vector<DiffRow> &rows,
                                 const LineDiff &diff);

/// The index in `rows` of the row showing the diff's row `line`.
size_t rowShowing(const std::vector<DiffRow> &rows, size_t line);

/// A diff ready to draw, built off the GUI thread: the two texts (owned,
/// so the run they came from may go meanwhile), their line indexes, the
/// line diff, the changed words, where each run of changes starts and the
/// longest line.
struct DiffModel {
  std::string beforeText, afterText;
  LineIndex before, after;
  LineDiff lines;
  std::vector<ChangedSpan> spans;
  std::vector<size_t> hunks;
  size_t longestLine = 0;

  /// The text a row shows inline (the new line, or the removed one).
  llvm::StringRef rowText(size_t row) const;
};
std::shared_ptr<const DiffModel>
buildDiffModel(std::string before, std::string after, DiffOptions options);

/// What a copy of diff rows takes: their lines as `diff -u` prints them
/// (inline), or one column's text (side by side: the column the drag
/// started in).
enum class DiffSide { Unified, Before, After };

/// The text of the shown rows `first` to `last` of `rows` (inclusive,
/// either order), one line each, a folded row giving the lines it hides.
std::string copiedRows(const DiffModel &model, const std::vector<DiffRow> &rows,
                       size_t first, size_t last, DiffSide side);

} // namespace klx::app

#endif // KLX_APP_VIEWS_DIFFROWS_H
