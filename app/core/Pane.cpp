//===- Pane.cpp - The window's panes, by name -----------------------------===//

#include "core/Pane.h"

#include "llvm/ADT/STLExtras.h"

#include <iterator>

using namespace klx::app;

namespace {
struct PaneEntry {
  Pane pane;
  const char *title;
};
// In the order of the enum: paneTitle indexes it.
constexpr PaneEntry kPanes[] = {
    {Pane::Samples, "Samples"},
    {Pane::Passes, "Passes"},
    {Pane::Source, "Source"},
    {Pane::WarpRoles, "Warp roles"},
    {Pane::Steps, "Steps"},
    {Pane::IR, "IR"},
    {Pane::Assembly, "Assembly"},
    {Pane::Lesson, "Lesson"},
    {Pane::Run, "Run"},
    {Pane::Sweep, "Sweep"},
    {Pane::Timeline, "Barrier timeline"},
    {Pane::Measured, "Measured"},
    {Pane::Compare, "Compare"},
};
static_assert(std::size(kPanes) == size_t(Pane::Compare) + 1,
              "every pane has a title");
} // namespace

llvm::StringRef klx::app::paneTitle(Pane pane) {
  return kPanes[size_t(pane)].title;
}

std::optional<Pane> klx::app::paneNamed(llvm::StringRef title) {
  for (const PaneEntry &entry : kPanes)
    if (title.equals_insensitive(entry.title))
      return entry.pane;
  return std::nullopt;
}

std::string klx::app::paneTitles() {
  std::string text;
  for (const PaneEntry &entry : kPanes)
    text += (text.empty() ? "" : ", ") + std::string(entry.title);
  return text;
}
