//===- SourceNesting.h - How deep a source's brackets nest ------*- C++ -*-===//
//
// MLIR's parser, printer and every walk over regions descend recursively:
// a kernel nested a few thousand regions deep (what a generator or a fuzzer
// writes, never a person) overflows the stack and takes the window with
// it. So before anything parses a source, a lexical scan finds the first
// bracket that opens past a stated depth, and the source is refused there
// with its line and column. The scan knows MLIR's lexical rules only as
// far as it must: `//` comments and string literals hold no brackets.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_SOURCENESTING_H
#define KLX_SUPPORT_SOURCENESTING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace klx {

/// The deepest nesting klx reads: regions (`{`), lists (`[`), parentheses
/// (`(`) and angle brackets (`<`), each kind counted on its own. The
/// deepest sample nests 9 regions; a thousand is far past any kernel a
/// person writes and well inside what the parser's stack holds.
inline constexpr unsigned kMaxSourceNesting = 1000;

/// The bracket that opens one level past the limit.
struct ExcessNesting {
  unsigned line = 0, col = 0; // 1-based
  char bracket = 0;           // '{', '[', '(' or '<'
  unsigned limit = 0;

  /// "regions nest deeper than 1000 levels here ..."
  std::string message() const;
};

/// The first bracket of `text` that opens past `limit` levels of its kind,
/// or nothing when every kind stays within it.
std::optional<ExcessNesting>
findExcessNesting(llvm::StringRef text, unsigned limit = kMaxSourceNesting);

} // namespace klx

#endif // KLX_SUPPORT_SOURCENESTING_H
