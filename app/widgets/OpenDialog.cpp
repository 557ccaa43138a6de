//===- OpenDialog.cpp - File > Open, and the kernels opened last ----------===//

#include "widgets/OpenDialog.h"

#include "llvm/Support/Path.h"

#include <imgui.h>

using namespace klx::app;

void OpenDialog::menuItems(const AppState &state, CommandQueue &commands) {
  if (ImGui::MenuItem("Open...", "Ctrl+O"))
    request();
  if (!ImGui::BeginMenu("Open recent", !state.recentFiles.empty()))
    return;
  for (const std::string &file : state.recentFiles) {
    // The file's name, and where it is on hover: paths run long.
    std::string label = llvm::sys::path::filename(file).str() + "##" + file;
    if (ImGui::MenuItem(label.c_str()))
      commands.push(openCommandFor(file));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", file.c_str());
  }
  ImGui::EndMenu();
}

bool OpenDialog::draw(const AppState &state, CommandQueue &commands) {
  if (pendingOpen) {
    ImGui::OpenPopup("Open");
    // Start from the folder of the kernel that is open.
    std::string folder = llvm::sys::path::parent_path(state.source.path).str();
    path.setText(folder.empty() ? "" : folder + "/", /*focus=*/true);
    pendingOpen = false;
  }
  if (!ImGui::BeginPopupModal("Open", nullptr,
                              ImGuiWindowFlags_AlwaysAutoResize))
    return false;
  ImGui::TextUnformatted("Open a kernel (.mlir) or a trace (.json, "
                         ".chrome_trace):");
  // Escape closes the field's list first, and the dialog after.
  bool listed = path.listVisible();
  std::optional<std::string> entered = path.draw("", ImGui::GetFontSize() * 40);
  ImGui::TextDisabled("Tab completes; Enter or Open opens");
  bool open = ImGui::Button("Open") || entered;
  ImGui::SameLine();
  bool cancel =
      ImGui::Button("Cancel") ||
      (!listed && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)));
  std::string target = entered ? *entered : path.path();
  if (open && !target.empty())
    commands.push(openCommandFor(target));
  if ((open && !target.empty()) || cancel)
    ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return true;
}
