//===- Panels.cpp - The one place panels are registered -------------------===//

#include "Panel.h"

namespace klx::app {
std::unique_ptr<Panel> createSamplesPanel();
std::unique_ptr<Panel> createPassesPanel();
std::unique_ptr<Panel> createSourcePanel();
std::unique_ptr<Panel> createWarpRolesPanel();
std::unique_ptr<Panel> createIRPanel();
std::unique_ptr<Panel> createAssemblyPanel();
std::unique_ptr<Panel> createRunPanel();
std::unique_ptr<Panel> createTimelinePanel();
} // namespace klx::app

std::vector<std::unique_ptr<klx::app::Panel>> klx::app::createPanels() {
  std::vector<std::unique_ptr<Panel>> panels;
  panels.push_back(createSamplesPanel());
  panels.push_back(createPassesPanel());
  panels.push_back(createSourcePanel());
  panels.push_back(createWarpRolesPanel());
  panels.push_back(createIRPanel());
  panels.push_back(createAssemblyPanel());
  panels.push_back(createRunPanel());
  panels.push_back(createTimelinePanel());
  return panels;
}

void klx::app::drawPanelWindow(Panel &panel, const AppState &state,
                               CommandQueue &commands, ImVec2 workPos,
                               ImVec2 workSize, bool resetLayout) {
  Placement p = panel.placement();
  ImGuiCond cond = resetLayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(
      ImVec2(workPos.x + p.x * workSize.x, workPos.y + p.y * workSize.y), cond);
  ImGui::SetNextWindowSize(ImVec2(p.width * workSize.x, p.height * workSize.y),
                           cond);
  // Hidden or collapsed panels draw nothing: Begin returns false.
  if (ImGui::Begin(panel.title(), nullptr, ImGuiWindowFlags_NoCollapse))
    panel.draw(state, commands);
  ImGui::End();
}
