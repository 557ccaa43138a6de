//===- SaveAsDialog.cpp - "Save ... as" for the window's artifacts --------===//

#include "SaveAsDialog.h"
#include "Palette.h"

#include "llvm/Support/FileSystem.h"

#include <imgui.h>
#include <imgui_stdlib.h>

using namespace klx;
using namespace klx::app;

void SaveAsDialog::menuItems(const AppState &state) {
  for (ArtifactKind item : kAllArtifacts)
    menuItem(state, item);
}

void SaveAsDialog::menuItem(const AppState &state, ArtifactKind item) {
  if (state.run && !targetMakes(state.run->target, item))
    return;
  std::string label = item == ArtifactKind::Bundle
                          ? "Export " + artifactLabel(item).str() + "..."
                          : "Save " + artifactLabel(item).str() + " as...";
  std::string why = artifactUnavailable(state, item);
  if (ImGui::MenuItem(label.c_str(), nullptr, false, why.empty())) {
    kind = item;
    path = suggestedArtifactPath(state, item);
    pendingOpen = true;
    focusPath = true;
  }
  if (!why.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", why.c_str());
}

void SaveAsDialog::draw(CommandQueue &commands) {
  if (pendingOpen) {
    ImGui::OpenPopup("Save as");
    pendingOpen = false;
  }
  if (!ImGui::BeginPopupModal("Save as", nullptr,
                              ImGuiWindowFlags_AlwaysAutoResize))
    return;
  ImGui::Text("Save %s to:", artifactLabel(kind).data());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 40);
  if (focusPath) {
    ImGui::SetKeyboardFocusHere();
    focusPath = false;
  }
  bool enter =
      ImGui::InputText("##path", &path, ImGuiInputTextFlags_EnterReturnsTrue);
  bool exists = llvm::sys::fs::exists(path);
  if (exists)
    ImGui::TextColored(palette::toVec4(palette::theme().warningText),
                       "%s is there: Save %s it",
                       kind == ArtifactKind::Bundle ? "a folder" : "a file",
                       kind == ArtifactKind::Bundle ? "writes into"
                                                    : "replaces");
  bool save = ImGui::Button("Save") || enter;
  ImGui::SameLine();
  bool cancel = ImGui::Button("Cancel") ||
                ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if (save && !path.empty())
    commands.push(cmd::SaveArtifact{path, kind});
  if ((save && !path.empty()) || cancel)
    ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}
