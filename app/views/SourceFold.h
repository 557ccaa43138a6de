//===- SourceFold.h - The RUN/CHECK header, folded out of view --*- C++ -*-===//
//
// Samples and upstream tests open on tens of lines of lit directives
// (`// RUN:`, `// CHECK:`, `// PTX-DAG:`) before the kernel. The Source pane
// folds that block out of the editor: the editor holds the visible text,
// and every edit of it is carried back into the whole text with the
// folded lines where they were, so nothing hidden is lost or moved by
// typing. Line numbers are translated both ways for the gutter, the
// diagnostics and the correlations. Nothing here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_SOURCEFOLD_H
#define KLX_APP_VIEWS_SOURCEFOLD_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace klx::app {

/// Lines [first, first + count), 0-based.
struct LineRange {
  unsigned first = 0, count = 0;
};

/// The lit directives of the file's leading comment: from its first line
/// of the form `// NAME:` (RUN, CHECK, CHECK-DAG, PTX-NOT, ...) to its
/// last, when there are at least three; none otherwise.
std::optional<LineRange> directiveBlock(llvm::StringRef text);

class FoldedText {
public:
  /// `text` with `range` (whole lines of it) folded out of view.
  FoldedText(llvm::StringRef text, LineRange range);

  /// What the editor shows and edits.
  const std::string &visible() const { return shown; }
  /// The whole text: the visible text with the folded lines put back.
  std::string full() const;
  /// The editor changed the visible text to `edited`.
  void edit(llvm::StringRef edited);

  LineRange range() const { return folded; }
  /// Visible lines above the fold (the fold sits after them).
  unsigned linesBefore() const;
  /// 1-based line numbers between the editor and the file; a file line
  /// inside the fold has no visible line.
  unsigned fileLine(unsigned visibleLine) const;
  std::optional<unsigned> visibleLine(unsigned fileLine) const;

private:
  std::string shown;
  std::string block; // the folded lines, each with its '\n'
  size_t anchor = 0; // byte offset in `shown` where `block` goes
  LineRange folded;
};

} // namespace klx::app

#endif // KLX_APP_VIEWS_SOURCEFOLD_H
