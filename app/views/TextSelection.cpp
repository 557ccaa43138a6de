//===- TextSelection.cpp - A selection in a read-only text ----------------===//

#include "TextSelection.h"

#include <algorithm>
#include <cstdint>

using namespace klx;
using namespace klx::app;

std::pair<TextPos, TextPos> TextSelection::ordered() const {
  return cursor < anchor ? std::make_pair(cursor, anchor)
                         : std::make_pair(anchor, cursor);
}

bool TextSelection::contains(size_t line) const {
  auto [start, end] = ordered();
  return !empty() && line >= start.line && line <= end.line;
}

std::pair<size_t, size_t> TextSelection::columnsOn(size_t line) const {
  auto [start, end] = ordered();
  if (!contains(line))
    return {0, 0};
  size_t first = line == start.line ? start.column : 0;
  size_t second = line == end.line ? end.column : SIZE_MAX;
  return {first, second};
}

std::string TextSelection::text(const LineIndex &index) const {
  std::string out;
  if (empty() || index.size() == 0)
    return out;
  auto [start, end] = ordered();
  size_t lastLine = std::min(end.line, index.size() - 1);
  for (size_t line = start.line; line <= lastLine; ++line) {
    llvm::StringRef text = index.line(line);
    auto [first, second] = columnsOn(line);
    first = std::min(first, text.size());
    size_t stop =
        second == SIZE_MAX ? text.size() : std::min(second, text.size());
    out += text.slice(first, std::max(first, stop)).str();
    if (second == SIZE_MAX)
      out += '\n'; // the line's end is selected
  }
  return out;
}

TextSelection TextSelection::all(const LineIndex &index) {
  TextSelection selection;
  if (index.size() > 0)
    selection.cursor = {index.size() - 1, index.line(index.size() - 1).size()};
  return selection;
}

TextSelection TextSelection::lines(size_t first, size_t last) {
  if (last < first)
    std::swap(first, last);
  TextSelection selection;
  selection.anchor = {first, 0};
  // The next line's start: the last line's newline is part of it.
  selection.cursor = {last + 1, 0};
  return selection;
}

size_t klx::app::utf8Length(llvm::StringRef text) {
  size_t count = 0;
  for (char c : text)
    count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

size_t klx::app::utf8ByteOffset(llvm::StringRef text, int characters) {
  size_t offset = 0;
  for (int i = 0; i < characters && offset < text.size(); ++i) {
    unsigned char c = text[offset];
    offset += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  }
  return std::min(offset, text.size());
}
