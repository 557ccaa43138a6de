//===- KeysWindow.cpp - Help > Keys: every shortcut -----------------------===//

#include "widgets/KeysWindow.h"

#include "core/Keys.h"
#include "widgets/Palette.h"

#include <imgui.h>

using namespace klx::app;

bool klx::app::drawKeysWindow(const AppState &state, CommandQueue &commands) {
  if (!state.view.keysShown)
    return false;
  const ImGuiViewport *viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x / 2,
                                 viewport->Pos.y + viewport->Size.y / 2),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowFocus();
  ImGui::SetNextWindowBgAlpha(1.0f);
  bool open = true;
  ImGui::Begin("Keys", &open,
               ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoCollapse);
  if (ImGui::BeginTable("keys", 3,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("keys");
    ImGui::TableSetupColumn("does");
    ImGui::TableSetupColumn("where");
    ImGui::TableHeadersRow();
    for (const KeyHelp &key : keyHelp()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(palette::toVec4(palette::theme().headingText), "%s",
                         key.keys);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(key.what);
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", key.where);
    }
    ImGui::EndTable();
  }
  bool close = ImGui::Button("Close") ||
               ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  ImGui::End();
  if (!open || close)
    commands.push(cmd::ShowKeys{false});
  return true;
}
