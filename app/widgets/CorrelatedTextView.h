//===- CorrelatedTextView.h - Text tied to source lines ---------*- C++ -*-===//
//
// A TextView over IR or assembly whose lines carry the source line they
// came from: lines of the focused source line are highlighted, and
// scrolled to when the focus moved elsewhere; a click focuses the clicked
// line's source line.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_CORRELATEDTEXTVIEW_H
#define KLX_APP_WIDGETS_CORRELATEDTEXTVIEW_H

#include "TextView.h"

#include "core/AppState.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace klx::app {

/// Lines to tint besides the correlated ones: a focused warp role's ops.
struct LineTint {
  const std::vector<unsigned> *lines = nullptr; // 1-based, sorted
  ImU32 colour = 0;
  /// What the lines belong to; when it changes, the view scrolls to them.
  std::string key;
};

struct CorrelatedResult {
  unsigned clickedSource = 0; // source line to focus, 0 for none
  unsigned hoveredSource = 0;
};

class CorrelatedTextView {
public:
  /// `sourceLines` runs only when `identity` changes.
  void setText(llvm::StringRef text, Language language, uint64_t identity,
               llvm::function_ref<std::vector<uint32_t>()> sourceLines);
  /// `menuItems` extend the text's right-click menu.
  CorrelatedResult draw(const char *id, ImVec2 size, unsigned focusedSource,
                        const LineTint &tint = {},
                        const MenuItems &menuItems = {});

  /// Scrolls to the first line holding each text a lesson step's request
  /// for `pane` names (each looked for from the one before), all in view
  /// where they fit, at the next draw; once per request.
  void followReveals(const AppState &state, Pane pane);

  /// What Ctrl+F is looking for in the text (empty while closed).
  llvm::StringRef findQuery() const { return view.findQuery(); }

private:
  TextView view;
  std::vector<uint32_t> sourceLines;
  uint64_t identity = ~uint64_t(0);
  unsigned lastFocus = 0;
  std::string lastTintKey;
  RevealTracker reveals;
  std::vector<std::string> revealText; // a request not yet applied
  bool revealPending = false;
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_CORRELATEDTEXTVIEW_H
