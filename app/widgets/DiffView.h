//===- DiffView.h - Two snapshots, line by line -----------------*- C++ -*-===//

#ifndef KLX_APP_WIDGETS_DIFFVIEW_H
#define KLX_APP_WIDGETS_DIFFVIEW_H

#include "core/SyntaxTokens.h"
#include "klx/Support/LineDiff.h"

#include <imgui.h>

#include <cstdint>

namespace klx::app {

class DiffView {
public:
  /// Recomputes the diff only when the pair or the options change.
  void setTexts(llvm::StringRef before, llvm::StringRef after,
                Language language, uint64_t identity, DiffOptions options = {});
  /// Side by side only where the pane is wide enough for two columns of
  /// readable lines (`sideBySide` asks for it); inline otherwise.
  void draw(const char *id, ImVec2 size, bool sideBySide);
  const LineDiff &diff() const { return lineDiff; }

private:
  LineIndex before, after;
  LineDiff lineDiff;
  Language language = Language::Plain;
  uint64_t identity = ~uint64_t(0);
  DiffOptions options;
  size_t longestLine = 0;
  std::vector<size_t> hunks; // rows where a run of changes starts
  size_t currentHunk = 0;
  int pendingScroll = -1;
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_DIFFVIEW_H
