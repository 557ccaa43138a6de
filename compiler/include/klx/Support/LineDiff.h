//===- LineDiff.h - Line-by-line diff of two texts --------------*- C++ -*-===//
//
// Myers' O((N+M)D) diff over line hashes, after stripping the common
// prefix and suffix, so two 50,000-line IR snapshots that differ in a few
// places diff in milliseconds. Past a bound on D the rest is reported as
// replaced, which is what a reader would make of it anyway.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_LINEDIFF_H
#define KLX_SUPPORT_LINEDIFF_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace klx {

/// Byte offsets of each line start; lines end before '\n'.
struct LineIndex {
  std::vector<uint32_t> starts;
  llvm::StringRef text;

  explicit LineIndex(llvm::StringRef text = "");
  size_t size() const { return starts.size(); }
  llvm::StringRef line(size_t index) const;
};

struct DiffLine {
  enum Kind : uint8_t { Same, Removed, Added };
  Kind kind;
  int32_t left;  // 0-based line in the old text, -1 for Added
  int32_t right; // 0-based line in the new text, -1 for Removed
};

struct LineDiff {
  std::vector<DiffLine> lines;
  unsigned added = 0;
  unsigned removed = 0;
  bool truncated = false; // the edit distance passed the bound
};

/// What counts as the same line.
struct DiffOptions {
  /// Lines that differ only in spaces and tabs are the same (indentation
  /// that changed when a pass wrapped the IR in a new region).
  bool ignoreWhitespace = false;
  /// Lines that report how long something took ("Compile time = 519.796
  /// ms") are the same whatever the figure.
  bool ignoreTimings = false;
};

LineDiff diffLines(const LineIndex &before, const LineIndex &after,
                   unsigned maxEdits = 2000, DiffOptions options = {});

/// How many bytes two texts share at their start and, after that, at
/// their end: what is between is the part that was edited.
struct CommonEnds {
  size_t prefix = 0, suffix = 0;
};
CommonEnds commonEnds(llvm::StringRef a, llvm::StringRef b);

/// True for a line that reports a duration ("Compile time = 519.796 ms").
bool isTimingLine(llvm::StringRef line);

} // namespace klx

#endif // KLX_SUPPORT_LINEDIFF_H
