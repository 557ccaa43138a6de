//===- CorrelatedTextView.cpp - Text whose lines know their source --------===//

#include "CorrelatedTextView.h"

#include "Palette.h"

#include <algorithm>

using namespace klx::app;

void CorrelatedTextView::setText(
    llvm::StringRef text, Language language, uint64_t id,
    llvm::function_ref<std::vector<uint32_t>()> computeSourceLines) {
  if (id != identity) {
    identity = id;
    sourceLines = computeSourceLines();
    // Another step's text: the marked line is scrolled to in it too.
    lastFocus = 0;
  }
  view.setText(text, language, id);
}

void CorrelatedTextView::followReveals(const AppState &state, Pane pane) {
  if (const PaneReveal *request = reveals.take(state, pane)) {
    revealText = request->text;
    revealPending = true;
  }
}

CorrelatedResult CorrelatedTextView::draw(const char *id, ImVec2 size,
                                          unsigned focused,
                                          const LineTint &tint,
                                          const MenuItems &menuItems) {
  bool tinted = tint.lines && !tint.lines->empty();
  if (tint.key != lastTintKey) {
    lastTintKey = tint.key;
    if (tinted)
      view.scrollToLine(tint.lines->front() - 1);
  }
  if (focused != lastFocus) {
    lastFocus = focused;
    auto it = std::find(sourceLines.begin(), sourceLines.end(), focused);
    if (focused && it != sourceLines.end())
      view.scrollToLine(it - sourceLines.begin());
  }
  // A lesson step's request comes after the mark's scroll: it names what
  // the step is about.
  if (revealPending) {
    // From the marked line's first line here, where the step marks one:
    // what it names is the marked op's ("shl.b32" where line 152 went).
    std::vector<TextView::Found> found;
    auto marked = std::find(sourceLines.begin(), sourceLines.end(), focused);
    size_t from = focused && marked != sourceLines.end()
                      ? size_t(marked - sourceLines.begin())
                      : 0;
    for (const std::string &text : revealText) {
      int line = view.findLine(text, from);
      if (line < 0)
        continue;
      found.push_back({size_t(line), text});
      from = size_t(line);
    }
    if (found.empty())
      view.scrollSidewaysTo(0); // nothing named here: from the left
    view.scrollToFound(std::move(found));
    revealText.clear();
    revealPending = false;
  }
  auto sourceOf = [&](int line) -> unsigned {
    return line >= 0 && size_t(line) < sourceLines.size() ? sourceLines[line]
                                                          : 0;
  };
  auto colour = [&](size_t line) -> ImU32 {
    if (focused && sourceOf(int(line)) == focused)
      return palette::theme().correlated;
    if (tinted && std::binary_search(tint.lines->begin(), tint.lines->end(),
                                     unsigned(line + 1)))
      return tint.colour;
    return 0;
  };
  TextViewResult result = view.draw(id, size, colour, menuItems);
  CorrelatedResult correlated;
  correlated.clickedSource = sourceOf(result.clickedLine);
  correlated.hoveredSource = sourceOf(result.hoveredLine);
  // The user is looking at the clicked line already: do not scroll away.
  if (correlated.clickedSource)
    lastFocus = correlated.clickedSource;
  return correlated;
}
