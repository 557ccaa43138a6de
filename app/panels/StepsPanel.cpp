//===- StepsPanel.cpp - The kernel body as ordered steps ------------------===//
//
// One column per step, each with its loads, its compute and its stores;
// why a step could not join the one before under its title; values that
// cross a step boundary in registers below. Clicking an op focuses its
// source line. Follows the selected pass, so stepping onto
// klx-bridge-steps shows the bridge appear.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "views/StepsView.h"
#include "widgets/Palette.h"
#include "widgets/TextInView.h"

#include <algorithm>

namespace klx::app {
namespace {

ImVec4 sectionColor(StepsSection section) {
  switch (section) {
  case StepsSection::Load:
    return palette::toVec4(palette::theme().variantA);
  case StepsSection::Compute:
    return palette::toVec4(palette::theme().variantB);
  case StepsSection::Store:
    return palette::toVec4(palette::theme().goodText);
  }
  return palette::toVec4(palette::theme().brightText);
}

const char *sectionName(StepsSection section) {
  switch (section) {
  case StepsSection::Load:
    return "load";
  case StepsSection::Compute:
    return "compute";
  case StepsSection::Store:
    return "store";
  }
  return "";
}

class StepsPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Steps; }

  void draw(const AppState &state, CommandQueue &commands) override {
    if (!state.run) {
      ImGui::TextDisabled("nothing compiled yet");
      return;
    }
    // The view is rebuilt only when the run or the selection changes.
    if (state.runSerial != builtSerial || state.view.selected != builtFor) {
      view = buildStepsView(*state.run, state.view.selected);
      builtSerial = state.runSerial;
      builtFor = state.view.selected;
    }
    const PipelineRun &run = *state.run;
    if (view.step < 0) {
      ImGui::TextWrapped("No kernel body to read at any step: steps are read "
                         "from a gpu.func, a gpu.launch, a klx.kernel or an "
                         "LLVM kernel function.");
      return;
    }
    std::string name = run.snapshots[view.step].displayName();
    if (view.followsSelection) {
      ImGui::Text("after %s", name.c_str());
    } else {
      ImGui::TextDisabled("no kernel body to read at the selected step; "
                          "from");
      ImGui::SameLine();
      if (ImGui::SmallButton(name.c_str()))
        commands.push(cmd::SelectStep{view.step});
    }
    // A lesson step that names a row scrolls the steps to it.
    if (const PaneReveal *reveal = reveals.take(state, pane())) {
      revealText = reveal->text.empty() ? "" : reveal->text.front();
    }
    shown.clear();
    if (ImGui::BeginChild("kernels", ImVec2(0, 0), false,
                          ImGuiWindowFlags_HorizontalScrollbar)) {
      for (size_t k = 0; k < view.kernels.size(); ++k) {
        ImGui::PushID(int(k));
        drawKernel(view.kernels[k], commands);
        ImGui::PopID();
      }
    }
    ImGui::EndChild();
    revealText.clear(); // a row it names that is not here: none to show
    addTextInView("rows", std::move(shown));
  }

private:
  void drawKernel(const KernelStepsView &kernel, CommandQueue &commands) {
    ImGui::Text("@%s", kernel.kernel.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%zu step%s", kernel.columns.size(),
                        kernel.columns.size() == 1 ? "" : "s");
    int columns = int(kernel.columns.size());
    if (columns == 0)
      return;
    float columnWidth = std::max(ImGui::GetFontSize() * 16,
                                 ImGui::GetContentRegionAvail().x / columns);
    ImGuiTableFlags flags = ImGuiTableFlags_Borders |
                            ImGuiTableFlags_SizingFixedFit |
                            ImGuiTableFlags_NoHostExtendX;
    // The table's own width: without it ImGui squeezes the fixed columns
    // into the pane, and a kernel of many steps reads as one letter each;
    // with it the pane scrolls sideways.
    float tableWidth =
        columns * (columnWidth + 2 * ImGui::GetStyle().CellPadding.x + 1);
    if (!ImGui::BeginTable("steps", columns, flags, ImVec2(tableWidth, 0)))
      return;
    for (int c = 0; c < columns; ++c)
      ImGui::TableSetupColumn(kernel.columns[c].title.c_str(),
                              ImGuiTableColumnFlags_WidthFixed, columnWidth);
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();
    for (int c = 0; c < columns; ++c) {
      ImGui::TableSetColumnIndex(c);
      ImGui::PushID(c);
      const StepsColumn &column = kernel.columns[c];
      if (!column.why.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text,
                              palette::toVec4(palette::theme().dimText));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + columnWidth - 8);
        ImGui::TextUnformatted(("why: " + column.why).c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("why this step could not join the one before:\n%s",
                            column.why.c_str());
        ImGui::PopStyleColor();
      }
      for (StepsSection section :
           {StepsSection::Load, StepsSection::Compute, StepsSection::Store})
        drawSection(column, section, commands);
      ImGui::PopID();
    }
    ImGui::EndTable();
    for (size_t i = 0; i < kernel.crossings.size(); ++i) {
      ImGui::PushStyleColor(ImGuiCol_Text,
                            palette::toVec4(palette::theme().warningText));
      ImGui::TextWrapped("%s", kernel.crossings[i].c_str());
      ImGui::PopStyleColor();
      if (ImGui::IsItemClicked() && kernel.crossingSourceLines[i])
        commands.push(cmd::FocusSourceLine{int(kernel.crossingSourceLines[i])});
    }
    ImGui::Spacing();
  }

  void drawSection(const StepsColumn &column, StepsSection section,
                   CommandQueue &commands) {
    bool any = std::any_of(
        column.rows.begin(), column.rows.end(),
        [&](const StepsRow &row) { return sectionOf(row.role) == section; });
    ImGui::TextColored(sectionColor(section), "%s", sectionName(section));
    if (!any) {
      ImGui::SameLine();
      ImGui::TextDisabled("(none)");
      return;
    }
    ImGui::Indent(ImGui::GetFontSize());
    for (size_t i = 0; i < column.rows.size(); ++i) {
      const StepsRow &row = column.rows[i];
      if (sectionOf(row.role) != section)
        continue;
      ImGui::PushID(int(i));
      bool shared =
          row.role == StepRole::BridgeIn || row.role == StepRole::BridgeOut;
      std::string label = (shared ? "[shared] " : "") + row.label;
      if (ImGui::Selectable(label.c_str()) && row.sourceLine)
        commands.push(cmd::FocusSourceLine{int(row.sourceLine)});
      if (!revealText.empty() && llvm::StringRef(label).contains(revealText)) {
        ImGui::SetScrollHereY(0.2f);
        revealText.clear();
      }
      if (recordingTextInView() && ImGui::IsItemVisible())
        shown.push_back({unsigned(shown.size() + 1), label});
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "IR line %u%s", row.irLine,
            row.sourceLine
                ? ("; source line " + std::to_string(row.sourceLine)).c_str()
                : "");
      ImGui::PopID();
    }
    ImGui::Unindent(ImGui::GetFontSize());
  }

  StepsView view;
  uint64_t builtSerial = ~uint64_t(0);
  int builtFor = -1;
  RevealTracker reveals;         // the lesson steps' requests
  std::string revealText;        // the row it names, until drawn
  std::vector<LineInView> shown; // for a screenshot's layout file
};

} // namespace

std::unique_ptr<Panel> createStepsPanel() {
  return std::make_unique<StepsPanel>();
}

} // namespace klx::app
