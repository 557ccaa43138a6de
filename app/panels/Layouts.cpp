//===- Layouts.cpp - Where each pane goes in each named layout ------------===//
//
// One table per layout, as fractions of the area between the menu bar and
// the status bar. The panes of a layout tile that area exactly: no gaps,
// no overlaps (but Compare, which lies over the panes it compares).
//
//===----------------------------------------------------------------------===//

#include "Layouts.h"

#include "llvm/ADT/ArrayRef.h"

using namespace klx::app;

namespace {

struct Slot {
  const char *window;
  Placement placement;
};

// Explore: sources on the left, the IR and its timeline in the middle, the
// assembly and the guide on the right.
constexpr Slot kExplore[] = {
    {"Samples", {0.00f, 0.00f, 0.17f, 0.42f}},
    {"Passes", {0.00f, 0.42f, 0.17f, 0.58f}},
    {"Source", {0.17f, 0.00f, 0.27f, 0.62f}},
    {"Structure", {0.17f, 0.62f, 0.27f, 0.38f}},
    {"IR", {0.44f, 0.00f, 0.29f, 0.62f}},
    {"Barrier timeline", {0.44f, 0.62f, 0.29f, 0.38f}},
    {"Assembly", {0.73f, 0.00f, 0.27f, 0.62f}},
    {"Guide", {0.73f, 0.62f, 0.27f, 0.38f}},
    {"Compare", {0.44f, 0.00f, 0.56f, 0.62f}},
};

// Diff: the pass list and the IR diff across the rest of the window.
constexpr Slot kDiff[] = {
    {"Passes", {0.00f, 0.00f, 0.20f, 1.00f}},
    {"IR", {0.20f, 0.00f, 0.80f, 1.00f}},
    {"Compare", {0.20f, 0.00f, 0.80f, 1.00f}},
};

// Teach: the lesson down the left, the source and the IR large beside it,
// the roles and the timeline the lessons point at below them; the pass
// list and the assembly, which lessons mention, as tabs there.
constexpr Slot kTeach[] = {
    {"Guide", {0.00f, 0.00f, 0.30f, 1.00f}},
    {"Source", {0.30f, 0.00f, 0.33f, 0.56f}},
    {"IR", {0.63f, 0.00f, 0.37f, 0.56f}},
    {"Structure", {0.30f, 0.56f, 0.33f, 0.44f}},
    {"Output", {0.63f, 0.56f, 0.37f, 0.44f}},
    {"Compare", {0.30f, 0.00f, 0.70f, 0.56f}},
};

/// Panes that share a window as its tabs, in each layout (the others have
/// a window of their own, named as the pane).
struct Tab {
  Pane pane;
  const char *window;
};
constexpr Tab kExploreTabs[] = {
    {Pane::WarpRoles, "Structure"}, {Pane::Steps, "Structure"},
    {Pane::Lesson, "Guide"},        {Pane::Run, "Guide"},
    {Pane::Sweep, "Guide"},         {Pane::Measured, "Guide"}};
constexpr Tab kTeachTabs[] = {
    {Pane::WarpRoles, "Structure"}, {Pane::Steps, "Structure"},
    {Pane::Passes, "Structure"},    {Pane::Lesson, "Guide"},
    {Pane::Run, "Guide"},           {Pane::Sweep, "Guide"},
    {Pane::Timeline, "Output"},     {Pane::Measured, "Output"},
    {Pane::Assembly, "Output"}};

template <size_t N>
std::optional<Placement> find(const Slot (&slots)[N], llvm::StringRef window) {
  for (const Slot &slot : slots)
    if (window == slot.window)
      return slot.placement;
  return std::nullopt;
}

} // namespace

namespace {
llvm::ArrayRef<Tab> tabsOf(LayoutName layout) {
  return layout == LayoutName::Teach ? llvm::ArrayRef<Tab>(kTeachTabs)
                                     : llvm::ArrayRef<Tab>(kExploreTabs);
}
} // namespace

int klx::app::tabOrder(LayoutName layout, Pane pane) {
  llvm::ArrayRef<Tab> tabs = tabsOf(layout);
  for (size_t i = 0; i < tabs.size(); ++i)
    if (pane == tabs[i].pane)
      return int(i);
  return -1;
}

llvm::StringRef klx::app::windowOf(LayoutName layout, Pane pane) {
  llvm::ArrayRef<Tab> tabs = tabsOf(layout);
  llvm::StringRef window = paneTitle(pane);
  for (const Tab &tab : tabs)
    if (pane == tab.pane)
      window = tab.window;
  return placementIn(layout, window) ? window : llvm::StringRef();
}

std::optional<Placement> klx::app::placementIn(LayoutName layout,
                                               llvm::StringRef window) {
  switch (layout) {
  case LayoutName::Explore:
    return find(kExplore, window);
  case LayoutName::Diff:
    return find(kDiff, window);
  case LayoutName::Teach:
    return find(kTeach, window);
  }
  return std::nullopt;
}
