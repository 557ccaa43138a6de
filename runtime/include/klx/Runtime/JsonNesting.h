//===- JsonNesting.h - How deep a JSON document nests -----------*- C++ -*-===//
//
// nlohmann's parser builds values that it copies, destroys and prints
// recursively, and LLVM's JSON parser descends recursively: a document
// nested 100,000 arrays deep (a manifest.json a generator wrote, a trace
// opened in the window) overflowed the stack. Every JSON klx reads from a
// file is first scanned here and refused, at its line and column, where it
// nests past a stated depth. Standard C++ only: the runner, the compiler
// and the window include it alike.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_JSONNESTING_H
#define KLX_RUNTIME_JSONNESTING_H

#include <optional>
#include <string>
#include <string_view>

namespace klx::rt {

/// The deepest arrays and objects (counted together) may nest in a JSON
/// document klx reads. A manifest nests 4 levels, a trace 3, a sweep's
/// results 4.
inline constexpr unsigned kMaxJsonNesting = 64;

/// Where a document nests too deep: 1-based line and column of the bracket
/// one level past the limit, and what to say.
struct NestingError {
  unsigned line = 0, column = 0;
  std::string message;
};

/// The first `[` or `{` of `text` that opens past `limit` levels, or
/// nullopt where the document stays within it. Strings hold no brackets.
inline std::optional<NestingError>
findExcessJsonNesting(std::string_view text, unsigned limit = kMaxJsonNesting) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    } else if (inString) {
      if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return NestingError{line, unsigned(i - lineStart) + 1,
                            "arrays and objects nest deeper than " +
                                std::to_string(limit) +
                                " levels here; klx reads JSON nested up to " +
                                std::to_string(limit) + " levels"};
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

} // namespace klx::rt

#endif // KLX_RUNTIME_JSONNESTING_H
