//===- Panels.cpp - The one place panels are registered -------------------===//

//
// Each pane is a Panel of its own file; this is the list of them and the
// order the window draws them in. Where each goes is PaneArranger.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

namespace klx::app {
std::unique_ptr<Panel> createSamplesPanel();
std::unique_ptr<Panel> createPassesPanel();
std::unique_ptr<Panel> createSourcePanel();
std::unique_ptr<Panel> createWarpRolesPanel();
std::unique_ptr<Panel> createIRPanel();
std::unique_ptr<Panel> createAssemblyPanel();
std::unique_ptr<Panel> createRunPanel();
std::unique_ptr<Panel> createSweepPanel();
std::unique_ptr<Panel> createTimelinePanel();
std::unique_ptr<Panel> createMeasuredPanel();
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
  panels.push_back(createLessonPanel());
  panels.push_back(createRunPanel());
  panels.push_back(createSweepPanel());
  panels.push_back(createTimelinePanel());
  panels.push_back(createMeasuredPanel());
  // Last: drawn over the panes it compares while Compare mode is on. Which
  // panes share a window as tabs is the layout's (Layouts.cpp).
  panels.push_back(createComparePanel());
  return panels;
}
