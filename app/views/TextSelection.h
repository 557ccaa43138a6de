//===- TextSelection.h - A selection in a read-only text --------*- C++ -*-===//
//
// What a text pane selects, as an editor does: an anchor where the drag or
// click started and a cursor where it is now, each a line and a column
// (in bytes of the line). The text selected is read through a LineIndex,
// so a 50,000-line IR is never copied to select a word of it. Nothing here
// includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_TEXTSELECTION_H
#define KLX_APP_VIEWS_TEXTSELECTION_H

#include "klx/Support/LineDiff.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>
#include <utility>

namespace klx::app {

/// The characters (UTF-8 code points) of `text`: the columns ImGui's
/// editor counts, where a selection counts bytes.
size_t utf8Length(llvm::StringRef text);
/// The byte offset of the `characters`-th character of `text`.
size_t utf8ByteOffset(llvm::StringRef text, int characters);

struct TextPos {
  size_t line = 0, column = 0;

  bool operator<(const TextPos &other) const {
    return line != other.line ? line < other.line : column < other.column;
  }
  bool operator==(const TextPos &other) const {
    return line == other.line && column == other.column;
  }
};

struct TextSelection {
  TextPos anchor, cursor;

  bool empty() const { return anchor == cursor; }
  /// The selection's start and end, start first.
  std::pair<TextPos, TextPos> ordered() const;
  /// The columns of `line` inside the selection, [first, second); the
  /// second is past the line's end (SIZE_MAX) where the newline is selected.
  std::pair<size_t, size_t> columnsOn(size_t line) const;
  bool contains(size_t line) const;
  /// The selected text, lines joined by '\n'; positions past the text are
  /// clamped to it.
  std::string text(const LineIndex &index) const;
  /// The whole text selected.
  static TextSelection all(const LineIndex &index);
  /// Whole lines `first` to `last` (inclusive, either order) selected,
  /// the last line's newline included.
  static TextSelection lines(size_t first, size_t last);
};

} // namespace klx::app

#endif // KLX_APP_VIEWS_TEXTSELECTION_H
