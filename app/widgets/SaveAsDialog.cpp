//===- SaveAsDialog.cpp - "Save ... as" for the window's artifacts --------===//

#include "SaveAsDialog.h"
#include "Palette.h"

#include "llvm/Support/FileSystem.h"

#include <imgui.h>

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
    path.setText(suggestedArtifactPath(state, item), /*focus=*/true);
    pendingOpen = true;
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
  // Escape closes the field's list first, and the dialog after.
  bool listed = path.listVisible();
  std::optional<std::string> entered = path.draw("", ImGui::GetFontSize() * 40);
  std::string target = entered ? *entered : path.path();
  // A file's path that names a folder (one Tab completed) cannot be
  // saved to: it wants the file's name after it.
  bool bundle = kind == ArtifactKind::Bundle;
  llvm::sys::fs::file_status status; // one stat a frame answers both
  bool there = !llvm::sys::fs::status(target, status);
  bool folderNotFile = !bundle && there && llvm::sys::fs::is_directory(status);
  ImVec4 warning = palette::toVec4(palette::theme().warningText);
  if (folderNotFile)
    ImGui::TextColored(warning, "a folder: type the file's name after it");
  else if (there)
    ImGui::TextColored(warning, "%s is there: Save %s it",
                       bundle ? "a folder" : "a file",
                       bundle ? "writes into" : "replaces");
  ImGui::TextDisabled("Tab completes a folder's name");
  if (entered && folderNotFile)
    path.focus(); // Enter let go of the field; type the name on
  ImGui::BeginDisabled(folderNotFile);
  bool save = (ImGui::Button("Save") || entered) && !folderNotFile;
  ImGui::EndDisabled();
  ImGui::SameLine();
  bool cancel =
      ImGui::Button("Cancel") ||
      (!listed && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)));
  if (save && !target.empty())
    commands.push(cmd::SaveArtifact{target, kind});
  if ((save && !target.empty()) || cancel)
    ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}
