//===- PaneArranger.cpp - Where each pane's window goes, frame by frame ---===//
//
// Panes grouped into the layout's windows (own or tabbed), placed as the
// layout says until the user moves one, kept inside the work area, one of
// them enlarged over the rest and put back. The panes themselves are
// registered in Panels.cpp and placed by the tables of Layouts.cpp.
//
//===----------------------------------------------------------------------===//

#include "PaneArranger.h"

#include "Layouts.h"
#include "widgets/TextInView.h"

#include "llvm/ADT/STLExtras.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

namespace {

using namespace klx::app;

/// This frame's work area and whether every pane is put where the layout
/// says (a layout chosen or reset; the window resized while the layout is
/// still the layout's own).
struct FrameLayout {
  LayoutName layout;
  ImVec2 workPos, workSize;
  bool placeAll;
};

FrameLayout beginFrameLayout(const AppState &state, PaneArranger &arranger,
                             ImVec2 workPos, ImVec2 workSize) {
  bool chosen = state.view.layoutGeneration != arranger.layoutGeneration;
  arranger.layoutGeneration = state.view.layoutGeneration;
  if (chosen)
    arranger.userArranged = false;
  bool resized = workPos.x != arranger.lastWorkPos.x ||
                 workPos.y != arranger.lastWorkPos.y ||
                 workSize.x != arranger.lastWorkSize.x ||
                 workSize.y != arranger.lastWorkSize.y;
  arranger.lastWorkPos = workPos;
  arranger.lastWorkSize = workSize;
  arranger.drawn.clear();
  return {state.view.layout, workPos, workSize,
          chosen || (resized && !arranger.userArranged)};
}

bool moved(const PaneRect &before, ImVec2 pos, ImVec2 size) {
  auto differs = [](float a, float b) { return std::abs(a - b) > 0.5f; };
  return differs(before.pos.x, pos.x) || differs(before.pos.y, pos.y) ||
         differs(before.size.x, size.x) || differs(before.size.y, size.y);
}

/// Keeps the current window below the menu bar and inside the window: a
/// layout saved on a larger screen, or a pane dragged over the menu.
void keepInside(const FrameLayout &frame, ImVec2 &pos, ImVec2 &size) {
  ImVec2 fitted(std::min(size.x, frame.workSize.x),
                std::min(size.y, frame.workSize.y));
  ImVec2 moved(std::clamp(pos.x, frame.workPos.x,
                          frame.workPos.x + frame.workSize.x - fitted.x),
               std::clamp(pos.y, frame.workPos.y,
                          frame.workPos.y + frame.workSize.y - fitted.y));
  if (fitted.x != size.x || fitted.y != size.y)
    ImGui::SetWindowSize(fitted);
  if (moved.x != pos.x || moved.y != pos.y)
    ImGui::SetWindowPos(moved);
  pos = moved;
  size = fitted;
}

/// Where `placement` puts a window in this frame's work area.
PaneRect layoutRect(const char *name, const Placement &p,
                    const FrameLayout &frame) {
  return {name,
          ImVec2(frame.workPos.x + p.x * frame.workSize.x,
                 frame.workPos.y + p.y * frame.workSize.y),
          ImVec2(p.width * frame.workSize.x, p.height * frame.workSize.y),
          {}};
}

/// Ends a drag of the current window by its title, if one is under way.
/// A window placed by klx while the button that started the drag is still
/// held (the second press of the double click that enlarges or puts back a
/// pane) would otherwise follow the drag on the next frame, to where the
/// press found it: a pane put back went over the top-left corner.
void stopMovingCurrentWindow() {
  ImGuiContext &g = *ImGui::GetCurrentContext();
  ImGuiWindow *window = ImGui::GetCurrentWindow();
  if (!g.MovingWindow || g.MovingWindow->RootWindow != window)
    return;
  if (g.ActiveId == window->MoveId)
    ImGui::ClearActiveID();
  g.MovingWindow = nullptr;
}

/// Begins the window `name` where the layout puts it; nullopt (and no
/// window to end) where the layout hides it, else what ImGui::Begin said.
std::optional<bool> beginPane(const char *name, const FrameLayout &frame,
                              PaneArranger &arranger, bool focus,
                              std::optional<PaneRect> forced,
                              ImGuiWindowFlags flags) {
  std::optional<Placement> p = placementIn(frame.layout, name);
  if (!p)
    return std::nullopt;
  auto last = arranger.lastRects.find(name);
  bool shownLastFrame = last != arranger.lastRects.end();
  // A pane that appears (Compare) joins the layout while it is the
  // layout's own; in the user's arrangement it goes where ImGui kept it.
  bool place =
      forced || frame.placeAll || (!arranger.userArranged && !shownLastFrame);
  ImGuiCond cond = place ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  PaneRect rect = forced ? *forced : layoutRect(name, *p, frame);
  ImGui::SetNextWindowPos(rect.pos, cond);
  ImGui::SetNextWindowSize(rect.size, cond);
  if (focus)
    ImGui::SetNextWindowFocus();
  // Opaque: the Compare window lies over the panes it compares.
  ImGui::SetNextWindowBgAlpha(1.0f);
  bool open = ImGui::Begin(name, nullptr, ImGuiWindowFlags_NoCollapse | flags);
  if (forced)
    stopMovingCurrentWindow();
  ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  if (!place && shownLastFrame && moved(last->second, pos, size) &&
      !arranger.userArranged)
    arranger.userArranged = true;
  keepInside(frame, pos, size);
  arranger.drawn.push_back({name, pos, size, {}});
  return open;
}

} // namespace

namespace {

/// The windows of this frame's layout in the order their first pane was
/// registered, each with its panes that have content.
struct PaneWindow {
  std::string name;
  std::vector<Panel *> panes;
  /// Tabs: the window is shared (named otherwise than its pane).
  bool tabbed = false;
};

std::vector<PaneWindow>
windowsOf(const std::vector<std::unique_ptr<Panel>> &panels,
          const AppState &state) {
  std::vector<PaneWindow> windows;
  for (const std::unique_ptr<Panel> &panel : panels) {
    llvm::StringRef name = windowOf(state.view.layout, panel->pane());
    if (name.empty() || !panel->hasContent(state))
      continue;
    auto it = llvm::find_if(
        windows, [&](const PaneWindow &w) { return w.name == name; });
    if (it == windows.end()) {
      windows.push_back({name.str(), {}, name != panel->title()});
      it = std::prev(windows.end());
    }
    it->panes.push_back(panel.get());
  }
  for (PaneWindow &window : windows)
    llvm::stable_sort(window.panes, [&](const Panel *a, const Panel *b) {
      return tabOrder(state.view.layout, a->pane()) <
             tabOrder(state.view.layout, b->pane());
    });
  return windows;
}

/// A double click on the current window's title bar.
bool titleDoubleClicked() {
  ImVec2 pos = ImGui::GetWindowPos(), mouse = ImGui::GetMousePos();
  return ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) &&
         ImGui::IsWindowHovered() && mouse.y >= pos.y &&
         mouse.y < pos.y + ImGui::GetFrameHeight();
}

/// The window this frame draws over the whole work area: the view's, if
/// it is among `windows` and no pane of another window was just raised
/// (then every pane comes back, and `commands` says so).
std::string
enlargedThisFrame(const AppState &state, const std::vector<PaneWindow> &windows,
                  const std::map<std::string, const Panel *> &raisedIn,
                  CommandQueue &commands) {
  const std::string &enlarged = state.view.enlargedWindow;
  if (enlarged.empty())
    return "";
  // A window this layout does not draw now (Compare turned off) cannot
  // fill the window: the state says every pane is back.
  if (llvm::none_of(windows,
                    [&](const PaneWindow &w) { return w.name == enlarged; })) {
    commands.push(cmd::EnlargeWindow{""});
    return "";
  }
  if (llvm::any_of(raisedIn, [&](const auto &entry) {
        return entry.first != enlarged;
      })) {
    commands.push(cmd::EnlargeWindow{""});
    return "";
  }
  return enlarged;
}

/// Where the window goes this frame other than where the layout or the
/// user put it: over the whole work area when enlarged; on the frame it
/// stops being (it was `wasEnlarged`), back where it was, or where the
/// layout puts it when the layout was placed anew meanwhile (a resize or
/// a zoom: the place it had is gone).
std::optional<PaneRect> forcedRect(const std::string &name,
                                   const std::string &enlarged,
                                   const std::string &wasEnlarged,
                                   const FrameLayout &frame,
                                   PaneArranger &arranger) {
  if (name == enlarged)
    return PaneRect{name, frame.workPos, frame.workSize, {}};
  auto before = arranger.restoreTo.find(name);
  if (before != arranger.restoreTo.end()) {
    PaneRect rect = before->second;
    arranger.restoreTo.erase(before);
    return rect;
  }
  std::optional<Placement> p = placementIn(frame.layout, name);
  if (name != wasEnlarged || !p)
    return std::nullopt;
  return layoutRect(name.c_str(), *p, frame);
}

} // namespace

void klx::app::drawPanels(std::vector<std::unique_ptr<Panel>> &panels,
                          const AppState &state, CommandQueue &commands,
                          ImVec2 workPos, ImVec2 workSize,
                          PaneArranger &arranger) {
  FrameLayout frame = beginFrameLayout(state, arranger, workPos, workSize);
  std::vector<PaneWindow> windows = windowsOf(panels, state);
  // Each window's tab raised last since the last frame.
  std::map<std::string, const Panel *> raisedIn;
  for (const RaiseRequest &request : state.view.raised)
    for (const PaneWindow &window : windows)
      for (const Panel *pane : window.panes)
        if (request.serial > arranger.raiseSeen && pane->pane() == request.pane)
          raisedIn[window.name] = pane;
  arranger.raiseSeen = state.view.raiseSerial;
  auto raised = [&](const Panel *panel) {
    return llvm::any_of(
        raisedIn, [&](const auto &entry) { return entry.second == panel; });
  };
  std::string enlarged = enlargedThisFrame(state, windows, raisedIn, commands);
  // A layout placed anew puts every pane where it says.
  if (frame.placeAll)
    arranger.restoreTo.clear();
  if (!enlarged.empty() && enlarged != arranger.enlarged) {
    auto last = arranger.lastRects.find(enlarged);
    if (last != arranger.lastRects.end())
      arranger.restoreTo[enlarged] = last->second;
  }
  std::string wasEnlarged = std::exchange(arranger.enlarged, enlarged);
  arranger.focusedWindow.clear();
  for (const PaneWindow &window : windows) {
    if (!enlarged.empty() && window.name != enlarged)
      continue;
    bool focus = !window.tabbed && raised(window.panes.front());
    // The enlarged size is not saved: quit while enlarged, the pane starts
    // where it was before.
    ImGuiWindowFlags flags = window.name == enlarged
                                 ? ImGuiWindowFlags_NoSavedSettings
                                 : ImGuiWindowFlags_None;
    std::optional<bool> open = beginPane(
        window.name.c_str(), frame, arranger, focus,
        forcedRect(window.name, enlarged, wasEnlarged, frame, arranger), flags);
    if (!open)
      continue;
    if (titleDoubleClicked())
      commands.push(
          cmd::EnlargeWindow{window.name == enlarged ? "" : window.name});
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows))
      arranger.focusedWindow = window.name;
    // Hidden or collapsed windows draw nothing: Begin returns false.
    if (*open && !window.tabbed) {
      setTextInViewPane(window.panes.front()->title());
      window.panes.front()->draw(state, commands);
    } else if (*open && ImGui::BeginTabBar("tabs")) {
      for (Panel *tab : window.panes) {
        ImGuiTabItemFlags flags = raised(tab) ? ImGuiTabItemFlags_SetSelected
                                              : ImGuiTabItemFlags_None;
        if (ImGui::BeginTabItem(tab->title(), nullptr, flags)) {
          arranger.drawn.back().front = tab->title();
          setTextInViewPane(tab->title());
          tab->draw(state, commands);
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    ImGui::End();
  }
  arranger.lastRects.clear();
  for (const PaneRect &rect : arranger.drawn)
    arranger.lastRects[rect.name] = rect;
}
