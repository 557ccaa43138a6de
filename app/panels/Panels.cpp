//===- Panels.cpp - The one place panels are registered -------------------===//

#include "Panel.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

namespace klx::app {
std::unique_ptr<Panel> createSamplesPanel();
std::unique_ptr<Panel> createPassesPanel();
std::unique_ptr<Panel> createSourcePanel();
std::unique_ptr<Panel> createWarpRolesPanel();
std::unique_ptr<Panel> createIRPanel();
std::unique_ptr<Panel> createAssemblyPanel();
std::unique_ptr<Panel> createRunPanel();
std::unique_ptr<Panel> createTimelinePanel();
std::unique_ptr<Panel> createStepsPanel();
std::unique_ptr<Panel> createComparePanel();
std::unique_ptr<Panel> createLessonPanel();
} // namespace klx::app

std::vector<std::unique_ptr<klx::app::Panel>> klx::app::createPanels() {
  std::vector<std::unique_ptr<Panel>> panels;
  panels.push_back(createSamplesPanel());
  panels.push_back(createPassesPanel());
  panels.push_back(createSourcePanel());
  panels.push_back(createWarpRolesPanel());
  panels.push_back(createStepsPanel());
  panels.push_back(createIRPanel());
  panels.push_back(createAssemblyPanel());
  // Lesson and Run share the window at the bottom right, Lesson first.
  panels.push_back(createLessonPanel());
  panels.push_back(createRunPanel());
  panels.push_back(createTimelinePanel());
  // Last: drawn over IR and Assembly while Compare mode is on.
  panels.push_back(createComparePanel());
  return panels;
}

namespace {

void placeWindow(const klx::app::Placement &p, ImVec2 workPos, ImVec2 workSize,
                 bool resetLayout) {
  ImGuiCond cond = resetLayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(
      ImVec2(workPos.x + p.x * workSize.x, workPos.y + p.y * workSize.y), cond);
  ImGui::SetNextWindowSize(ImVec2(p.width * workSize.x, p.height * workSize.y),
                           cond);
}

} // namespace

void klx::app::drawPanels(std::vector<std::unique_ptr<Panel>> &panels,
                          const AppState &state, CommandQueue &commands,
                          ImVec2 workPos, ImVec2 workSize, bool resetLayout,
                          unsigned &raiseSeen) {
  bool raise = state.view.raiseSerial != raiseSeen;
  raiseSeen = state.view.raiseSerial;
  std::vector<std::string> groupsDrawn;
  for (size_t i = 0; i < panels.size(); ++i) {
    Panel &panel = *panels[i];
    const char *group = panel.tabGroup();
    if (!group) {
      if (!panel.hasContent(state))
        continue;
      placeWindow(panel.placement(), workPos, workSize, resetLayout);
      if (raise && state.view.raisedPanel == panel.title())
        ImGui::SetNextWindowFocus();
      // Opaque: the Compare window lies over IR and Assembly.
      ImGui::SetNextWindowBgAlpha(1.0f);
      // Hidden or collapsed panels draw nothing: Begin returns false.
      if (ImGui::Begin(panel.title(), nullptr, ImGuiWindowFlags_NoCollapse))
        panel.draw(state, commands);
      ImGui::End();
      continue;
    }
    if (llvm::is_contained(groupsDrawn, group))
      continue;
    groupsDrawn.push_back(group);
    placeWindow(panel.placement(), workPos, workSize, resetLayout);
    if (ImGui::Begin(group, nullptr, ImGuiWindowFlags_NoCollapse) &&
        ImGui::BeginTabBar("tabs")) {
      for (size_t j = i; j < panels.size(); ++j) {
        Panel &tab = *panels[j];
        if (!tab.tabGroup() || llvm::StringRef(tab.tabGroup()) != group ||
            !tab.hasContent(state))
          continue;
        ImGuiTabItemFlags flags = raise && state.view.raisedPanel == tab.title()
                                      ? ImGuiTabItemFlags_SetSelected
                                      : ImGuiTabItemFlags_None;
        if (ImGui::BeginTabItem(tab.title(), nullptr, flags)) {
          tab.draw(state, commands);
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    ImGui::End();
  }
}
