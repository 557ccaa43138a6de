//===- Pane.h - The window's panes, by name ---------------------*- C++ -*-===//
//
// Every pane the window can show, as an enum that layouts, ShowPanel and
// lessons name instead of title strings: a misspelt pane is a compile
// error in klx, and a clear message where a user typed it (--show=, a
// lesson's klx:show=). Nothing here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_PANE_H
#define KLX_APP_CORE_PANE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace klx::app {

enum class Pane {
  Samples,
  Passes,
  Source,
  WarpRoles,
  Steps,
  IR,
  Assembly,
  Lesson,
  Run,
  Sweep,
  Timeline,
  Measured,
  Compare,
};

/// The title the pane's tab or window shows ("Warp roles", "Barrier
/// timeline"), which is also what --show= and klx:show= take.
llvm::StringRef paneTitle(Pane pane);

/// The pane titled `title`, ignoring case; nullopt for none.
std::optional<Pane> paneNamed(llvm::StringRef title);

/// "Samples, Passes, ..., Compare": what a message lists after an unknown
/// pane's name.
std::string paneTitles();

} // namespace klx::app

#endif // KLX_APP_CORE_PANE_H
