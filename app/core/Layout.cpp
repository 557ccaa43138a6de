//===- Layout.cpp - Named pane layouts and the zoom steps -----------------===//

#include "Layout.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <iterator>

using namespace klx::app;

std::optional<LayoutName> klx::app::parseLayoutName(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<LayoutName>>(text.lower())
      .Case("explore", LayoutName::Explore)
      .Case("diff", LayoutName::Diff)
      .Case("teach", LayoutName::Teach)
      .Default(std::nullopt);
}

llvm::StringRef klx::app::layoutNameText(LayoutName layout) {
  switch (layout) {
  case LayoutName::Explore:
    return "explore";
  case LayoutName::Diff:
    return "diff";
  case LayoutName::Teach:
    return "teach";
  }
  return "explore";
}

std::optional<ThemeName> klx::app::parseThemeName(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<ThemeName>>(text.lower())
      .Case("dark", ThemeName::Dark)
      .Case("light", ThemeName::Light)
      .Default(std::nullopt);
}

llvm::StringRef klx::app::themeNameText(ThemeName theme) {
  return theme == ThemeName::Light ? "light" : "dark";
}

namespace {
constexpr int kZoomSteps[] = {50,  67,  75,  80,  90,  100, 110, 125,
                              150, 175, 200, 225, 250, 275, 300};
} // namespace

int klx::app::clampZoomPercent(int percent) {
  return std::clamp(percent, kMinZoomPercent, kMaxZoomPercent);
}

int klx::app::nextZoomPercent(int percent, int direction) {
  if (direction > 0) {
    for (int step : kZoomSteps)
      if (step > percent)
        return step;
    return kMaxZoomPercent;
  }
  for (auto it = std::rbegin(kZoomSteps); it != std::rend(kZoomSteps); ++it)
    if (*it < percent)
      return *it;
  return kMinZoomPercent;
}
