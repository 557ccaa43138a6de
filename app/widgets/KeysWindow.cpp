//===- KeysWindow.cpp - Help > Keys: every shortcut -----------------------===//

#include "widgets/KeysWindow.h"

#include "core/Keys.h"
#include "widgets/Palette.h"

#include <imgui.h>

#include <algorithm>

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
    // The "does" column wraps where the table would be wider than the
    // screen (1280x720 at 150% cut the "where" column).
    float keys = 0, does = 0, where = 0;
    for (const KeyHelp &key : keyHelp()) {
      keys = std::max(keys, ImGui::CalcTextSize(key.keys).x);
      does = std::max(does, ImGui::CalcTextSize(key.what).x);
      where = std::max(where, ImGui::CalcTextSize(key.where).x);
    }
    float spare = viewport->Size.x * 0.95f - keys - where -
                  8 * ImGui::GetStyle().CellPadding.x -
                  2 * ImGui::GetStyle().WindowPadding.x;
    ImGui::TableSetupColumn("keys");
    ImGui::TableSetupColumn(
        "does", ImGuiTableColumnFlags_WidthFixed,
        std::max(ImGui::CalcTextSize("0").x * 20, std::min(does, spare)));
    ImGui::TableSetupColumn("where");
    ImGui::TableHeadersRow();
    for (const KeyHelp &key : keyHelp()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(palette::toVec4(palette::theme().headingText), "%s",
                         key.keys);
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", key.what);
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
