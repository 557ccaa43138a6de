//===- SourceNesting.cpp - How deep a source's brackets nest -------------===//

#include "klx/Support/SourceNesting.h"

#include "llvm/Support/FormatVariadic.h"

#include <array>

using namespace klx;

namespace {

/// The kinds of bracket counted, each with its own depth.
constexpr std::array<char, 4> kOpeners = {'{', '[', '(', '<'};
constexpr std::array<char, 4> kClosers = {'}', ']', ')', '>'};

const char *kindName(char bracket) {
  switch (bracket) {
  case '{':
    return "regions ({)";
  case '[':
    return "lists ([)";
  case '(':
    return "parentheses (()";
  default:
    return "angle brackets (<)";
  }
}

/// `<` and `>` are brackets except as comparisons and arrows: `->` and
/// `>=` (integer sets) close nothing, `<=` opens nothing.
bool isAngleOperator(llvm::StringRef text, size_t i) {
  char c = text[i];
  char next = i + 1 < text.size() ? text[i + 1] : 0;
  char prev = i > 0 ? text[i - 1] : 0;
  return next == '=' || (c == '>' && prev == '-');
}

/// The index just past the string literal opening at `i` (a `"`); at its
/// line's end where it is not closed (MLIR's strings stay on one line).
size_t skipString(llvm::StringRef text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\n')
      ++i;
    else if (text[i] == '"')
      return i + 1;
    else if (text[i] == '\n')
      return i;
  }
  return text.size();
}

} // namespace

std::string ExcessNesting::message() const {
  return llvm::formatv("{0} nest deeper than {1} levels here; klx reads "
                       "kernels nested up to {1} levels of each kind of "
                       "bracket",
                       kindName(bracket), limit)
      .str();
}

std::optional<ExcessNesting> klx::findExcessNesting(llvm::StringRef text,
                                                    unsigned limit) {
  std::array<unsigned, kOpeners.size()> depth{};
  unsigned line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
      continue;
    }
    if (c == '"') {
      i = skipString(text, i) - 1;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      size_t end = text.find('\n', i);
      i = (end == llvm::StringRef::npos ? text.size() : end) - 1;
      continue;
    }
    if ((c == '<' || c == '>') && isAngleOperator(text, i))
      continue;
    for (size_t kind = 0; kind < kOpeners.size(); ++kind) {
      if (c == kOpeners[kind] && ++depth[kind] > limit)
        return ExcessNesting{line, unsigned(i - lineStart) + 1, c, limit};
      // Text that closes more than it opened does not parse; the parser
      // says where. Here it only must not wrap.
      if (c == kClosers[kind] && depth[kind] > 0)
        --depth[kind];
    }
  }
  return std::nullopt;
}
