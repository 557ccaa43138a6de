//===- SamplesPanel.cpp - Every sample, and any file from disk ------------===//

#include "Panel.h"

#include "widgets/Palette.h"

#include <imgui_stdlib.h>

namespace klx::app {
namespace {

class SamplesPanel final : public Panel {
public:
  const char *title() const override { return "Samples"; }

  void draw(const AppState &state, CommandQueue &commands) override {
    ImGui::SetNextItemWidth(-60);
    bool enter =
        ImGui::InputTextWithHint("##path", "path to a .mlir file", &pathField,
                                 ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || enter) && !pathField.empty())
      commands.push({Command::OpenFile, pathField});
    ImGui::TextDisabled("or drop a file on the window");
    ImGui::Separator();

    ImGui::BeginChild("list");
    std::string group = "\x01";
    bool open = false;
    for (const SampleEntry &sample : state.samples) {
      if (sample.group != group) {
        if (open)
          ImGui::TreePop();
        group = sample.group;
        ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
        open = ImGui::TreeNode(group.empty() ? "samples" : group.c_str());
      }
      if (!open)
        continue;
      bool current = sample.path == state.source.path;
      if (ImGui::Selectable(sample.name.c_str(), current))
        commands.push({Command::OpenFile, sample.path});
      if (!sample.lesson.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette::kDimText);
        ImGui::Indent();
        ImGui::TextWrapped("%s", sample.lesson.c_str());
        ImGui::Unindent();
        ImGui::PopStyleColor();
      }
    }
    if (open)
      ImGui::TreePop();
    if (state.samples.empty())
      ImGui::TextDisabled("no samples found (set KLX_SAMPLES_DIR)");
    ImGui::EndChild();
  }

private:
  std::string pathField;
};

} // namespace

std::unique_ptr<Panel> createSamplesPanel() {
  return std::make_unique<SamplesPanel>();
}

} // namespace klx::app
