//===- SourceFold.cpp - The RUN/CHECK header, folded out of view ----------===//

#include "SourceFold.h"

#include "klx/Support/LineDiff.h"

#include <algorithm>
#include <cctype>

using namespace klx::app;

namespace {

/// `// RUN: ...`, `// CHECK-DAG: ...`, `// PTX-NOT: ...`.
bool isDirective(llvm::StringRef line) {
  line = line.ltrim();
  if (!line.consume_front("//"))
    return false;
  line = line.ltrim();
  size_t name = 0;
  while (name < line.size() && (std::isupper((unsigned char)line[name]) ||
                                std::isdigit((unsigned char)line[name]) ||
                                line[name] == '-' || line[name] == '_'))
    ++name;
  return name > 0 && name < line.size() && line[name] == ':' &&
         std::isupper((unsigned char)line[0]);
}

/// Byte offset of the start of line `line` (0-based) of `text`.
size_t offsetOfLine(llvm::StringRef text, unsigned line) {
  size_t at = 0;
  for (unsigned i = 0; i < line && at < text.size(); ++i) {
    size_t end = text.find('\n', at);
    at = end == llvm::StringRef::npos ? text.size() : end + 1;
  }
  return at;
}

} // namespace

std::optional<LineRange> klx::app::directiveBlock(llvm::StringRef text) {
  unsigned line = 0, first = 0, last = 0, directives = 0;
  llvm::StringRef rest = text;
  while (!rest.empty()) {
    auto [current, next] = rest.split('\n');
    llvm::StringRef trimmed = current.trim();
    // The leading comment ends at the first line of code.
    if (!trimmed.empty() && !trimmed.starts_with("//"))
      break;
    if (isDirective(current)) {
      if (directives++ == 0)
        first = line;
      last = line;
    }
    rest = next;
    ++line;
  }
  if (directives < 3)
    return std::nullopt;
  return LineRange{first, last - first + 1};
}

FoldedText::FoldedText(llvm::StringRef text, LineRange range) : folded(range) {
  size_t begin = offsetOfLine(text, range.first);
  size_t end = offsetOfLine(text, range.first + range.count);
  block = text.slice(begin, end).str();
  if (!block.empty() && block.back() != '\n')
    block += '\n';
  shown = text.take_front(begin).str() + text.drop_front(end).str();
  anchor = begin;
}

std::string FoldedText::full() const {
  return shown.substr(0, anchor) + block + shown.substr(anchor);
}

void FoldedText::edit(llvm::StringRef edited) {
  llvm::StringRef old = shown;
  auto [prefix, suffix] = commonEnds(old, edited);
  // Text changed in [prefix, old.size() - suffix). The fold keeps its
  // place against the text before it, or after it when the edit is above.
  if (anchor > prefix)
    anchor = anchor >= old.size() - suffix ? anchor + edited.size() - old.size()
                                           : edited.size() - suffix;
  shown = edited.str();
  anchor = std::min(anchor, shown.size());
  // The folded lines go between two lines, never inside one.
  if (anchor > 0 && shown[anchor - 1] != '\n') {
    size_t end = shown.find('\n', anchor);
    if (end == std::string::npos) {
      shown += '\n';
      anchor = shown.size();
    } else {
      anchor = end + 1;
    }
  }
  folded.first =
      unsigned(std::count(shown.begin(), shown.begin() + anchor, '\n'));
}

unsigned FoldedText::linesBefore() const { return folded.first; }

unsigned FoldedText::fileLine(unsigned visible) const {
  return visible <= folded.first ? visible : visible + folded.count;
}

std::optional<unsigned> FoldedText::visibleLine(unsigned file) const {
  if (file <= folded.first)
    return file;
  if (file <= folded.first + folded.count)
    return std::nullopt;
  return file - folded.count;
}
