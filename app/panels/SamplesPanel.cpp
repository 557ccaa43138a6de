//===- SamplesPanel.cpp - Every sample, and any file from disk ------------===//

#include "Panel.h"

#include "widgets/Palette.h"
#include "widgets/PathField.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace klx::app {
namespace {

class SamplesPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Samples; }

  void draw(const AppState &state, CommandQueue &commands) override {
    if (std::optional<std::string> path =
            pathField.draw("a .mlir kernel, or a trace (.json, .chrome_trace)"))
      commands.push(openCommandFor(*path));
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Tab completes; or drop a file on the window");
    ImGui::PopStyleColor();
    ImGui::Separator();

    ImGui::BeginChild("list");
    std::string group = "\x01";
    bool open = false;
    for (const Listed &listed : inLessonOrder(state)) {
      const SampleEntry &sample = *listed.sample;
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
      std::string label = listed.lesson.empty()
                              ? sample.name
                              : listed.lesson + " " + sample.name;
      if (ImGui::Selectable(label.c_str(), current))
        commands.push(cmd::OpenFile{sample.path});
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s%s", sample.path.c_str(),
                          listed.lesson.empty() ? ""
                                                : "\n(lesson in docs/lessons)");
      if (!sample.lesson.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().dimText);
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
  struct Listed {
    const SampleEntry *sample;
    std::string lesson; // its lesson's number, "03"; empty for none
  };

  /// The samples in the order a workshop takes them: by lesson number
  /// (groups in the order of their first lesson), then those without one.
  static std::vector<Listed> inLessonOrder(const AppState &state) {
    std::vector<Listed> listed;
    for (const SampleEntry &sample : state.samples) {
      std::string number;
      for (const LessonEntry &lesson : state.lesson.lessons)
        if (!lesson.sample.empty() &&
            llvm::StringRef(sample.path).ends_with("/" + lesson.sample))
          number = lesson.number;
      listed.push_back({&sample, number});
    }
    auto key = [](const Listed &l) {
      return l.lesson.empty() ? std::string("~") + l.sample->name : l.lesson;
    };
    std::map<std::string, std::string> groupFirst;
    for (const Listed &l : listed) {
      std::string &first =
          groupFirst.try_emplace(l.sample->group, std::string("~"))
              .first->second;
      first = std::min(first, key(l));
    }
    std::stable_sort(listed.begin(), listed.end(),
                     [&](const Listed &a, const Listed &b) {
                       return std::make_tuple(groupFirst[a.sample->group],
                                              a.sample->group, key(a)) <
                              std::make_tuple(groupFirst[b.sample->group],
                                              b.sample->group, key(b));
                     });
    return listed;
  }

  PathField pathField;
};

} // namespace

std::unique_ptr<Panel> createSamplesPanel() {
  return std::make_unique<SamplesPanel>();
}

} // namespace klx::app
