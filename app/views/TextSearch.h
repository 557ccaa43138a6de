//===- TextSearch.h - Find in a text, and across the steps ------*- C++ -*-===//
//
// What Ctrl+F finds in a pane (every occurrence, case-insensitive, as a
// line and a column range, so the pane can mark the words and not only
// the lines) and in the whole run: at which steps a text appears and at
// which it disappears ("the first pass where this op is gone"). Nothing
// here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_TEXTSEARCH_H
#define KLX_APP_VIEWS_TEXTSEARCH_H

#include "klx/Pipeline/PipelineRun.h"
#include "klx/Support/LineDiff.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>
#include <vector>

namespace klx::app {

struct TextMatch {
  size_t line = 0;   // 0-based
  size_t column = 0; // byte offset in the line
  size_t length = 0;
};

/// Every occurrence of `query` in lines [0, lineCount) read through
/// `lineAt`, ignoring case, in order; occurrences do not overlap. At most
/// `limit` are returned (a one-letter query in a 50,000-line IR).
std::vector<TextMatch>
findMatches(size_t lineCount,
            llvm::function_ref<llvm::StringRef(size_t)> lineAt,
            llvm::StringRef query, size_t limit = 100000);
std::vector<TextMatch> findMatches(const LineIndex &text, llvm::StringRef query,
                                   size_t limit = 100000);

/// Where a text is in the run: per step, how many lines hold it (-1 for a
/// step with no code to search: a failed or skipped one, or the cubin,
/// whose text is ptxas's report), and the steps where it appears or
/// disappears, in order.
struct StepPresence {
  struct Change {
    int step;
    bool appears; // false: the step removed the last line holding it

    /// "appears at klx-to-nvgpu", "gone at convert-nvgpu-to-nvvm".
    std::string describe(const PipelineRun &run) const;
  };
  std::vector<int> lines;
  std::vector<Change> changes;

  /// "appears at parse, gone at convert-nvgpu-to-nvvm".
  std::string summary(const PipelineRun &run) const;
};
StepPresence findInSteps(const PipelineRun &run, llvm::StringRef query);

} // namespace klx::app

#endif // KLX_APP_VIEWS_TEXTSEARCH_H
