//===- IRPanel.cpp - The IR after the selected step, or a diff ------------===//

#include "Panel.h"

#include "views/RoleView.h"
#include "views/SourceCorrelation.h"
#include "views/TextSearch.h"
#include "widgets/CorrelatedTextView.h"
#include "widgets/DiffView.h"
#include "widgets/Palette.h"
#include "widgets/SaveAsDialog.h"

#include <algorithm>

namespace klx::app {
namespace {

class IRPanel final : public Panel {
public:
  Pane pane() const override { return Pane::IR; }

  void draw(const AppState &state, CommandQueue &commands) override {
    if (!state.run || state.run->snapshots.empty()) {
      ImGui::TextDisabled(state.compiling ? "compiling..." : "no run yet");
      return;
    }
    const PipelineRun &run = *state.run;
    // Backend steps past LLVM show here as the IR they started from.
    int index = textStepFor(run, state.view);
    const Snapshot &snapshot = run.snapshots[index];
    uint64_t identity = (state.runSerial << 20) + uint64_t(index);

    ImGui::Text("after %s", snapshot.displayName().c_str());
    ImGui::SameLine();
    ImGui::TextDisabled(
        "on %s, %u %s, %.2f ms%s", snapshot.anchor.c_str(), snapshot.opCount,
        snapshot.kind == EmitKind::MLIR ? "ops" : "instructions",
        snapshot.wallMs, snapshot.changed ? "" : ", unchanged");
    if (index != state.view.selected)
      ImGui::TextDisabled(
          "(%s is not IR; this is the IR it started from)",
          run.snapshots[state.view.selected].displayName().c_str());
    for (const Diag &diag : snapshot.diagnostics) {
      ImGui::PushStyleColor(
          ImGuiCol_Text,
          palette::diagnosticText(diag.severity == Severity::Error));
      ImGui::TextWrapped("%s: %s", severityName(diag.severity).data(),
                         diag.message.c_str());
      ImGui::PopStyleColor();
    }
    if (snapshot.text.empty()) {
      const char *why =
          run.status == RunStatus::Stopped
              ? "the compile was stopped: no IR to show"
          : snapshot.failed ? "the input did not parse: see the Source pane"
          : !snapshot.skippedReason.empty() ? snapshot.skippedReason.c_str()
                                            : "no IR recorded for this step";
      ImGui::PushStyleColor(ImGuiCol_Text,
                            ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%s", why);
      ImGui::PopStyleColor();
      return;
    }

    drawDiffControls(state, commands, run);
    ImVec2 size(-1, -1);
    Language language = languageFor(snapshot.kind);
    if (state.view.showDiff) {
      int other =
          std::min<int>(comparisonStep(state.view), run.snapshots.size() - 1);
      const Snapshot &before = run.snapshots[other];
      DiffOptions options;
      options.ignoreWhitespace = state.view.diffIgnoresWhitespace;
      diff.setTexts(before.text, snapshot.text, language,
                    (identity << 20) ^ uint64_t(other), options);
      // A line clicked in Source marks its lines on the new side.
      if (diffSourceId != identity) {
        diffSourceId = identity;
        diffSource = sourceLinesOf(snapshot);
      }
      diff.markSourceLine(&diffSource, state.view.focusedSourceLine);
      diff.draw("diff", size, state.view.sideBySide);
      return;
    }

    view.setText(snapshot.text, language, identity,
                 [&] { return sourceLinesOf(snapshot); });
    drawStepSearch(state, commands, run);
    view.followReveals(state, pane());
    CorrelatedResult result =
        view.draw("text", size, state.view.focusedSourceLine,
                  roleTint(snapshot, identity, state.view.focusedRole),
                  [&] { saveAs.menuItems(state); });
    saveAs.draw(commands);
    if (result.clickedSource)
      commands.push(cmd::FocusSourceLine{int(result.clickedSource)});
    if (result.hoveredSource)
      ImGui::SetTooltip("from source line %u (click to show it)",
                        result.hoveredSource);
  }

private:
  /// Where the text Ctrl+F looks for appears and disappears across the
  /// steps, each place a button that selects the step. Read from the
  /// query of the frame before (the find field is drawn inside the view).
  void drawStepSearch(const AppState &state, CommandQueue &commands,
                      const PipelineRun &run) {
    llvm::StringRef query = view.findQuery();
    if (query.empty())
      return;
    if (query != presenceQuery || state.runSerial != presenceSerial) {
      presenceQuery = query.str();
      presenceSerial = state.runSerial;
      presence = findInSteps(run, query);
    }
    ImGui::TextDisabled("in the steps:");
    if (presence.changes.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("in none");
      return;
    }
    float right = ImGui::GetWindowContentRegionMax().x;
    for (const StepPresence::Change &change : presence.changes) {
      std::string label = change.describe(run);
      float width = ImGui::CalcTextSize(label.c_str()).x +
                    ImGui::GetStyle().FramePadding.x * 2;
      ImGui::SameLine();
      if (ImGui::GetCursorPosX() + width > right)
        ImGui::NewLine();
      ImGui::PushID(change.step);
      bool here = change.step == state.view.selected;
      if (ImGui::SmallButton(label.c_str()) && !here)
        commands.push(cmd::SelectStep{change.step});
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%d lines hold it after %s (click to show)",
                          presence.lines[change.step],
                          run.snapshots[change.step].displayName().c_str());
      ImGui::PopID();
    }
  }

  /// The focused role's ops in this snapshot, tinted in the role's colour.
  LineTint roleTint(const Snapshot &snapshot, uint64_t identity,
                    const std::string &role) {
    if (role.empty())
      return {};
    if (identity != tintIdentity || role != tintRole) {
      tintIdentity = identity;
      tintRole = role;
      tintLines = roleIRLines(snapshot, role);
      tintColour = palette::roleBackground(role);
    }
    return {&tintLines, tintColour, role + "@" + std::to_string(identity)};
  }

  void drawDiffControls(const AppState &state, CommandQueue &commands,
                        const PipelineRun &run) {
    bool showDiff = state.view.showDiff;
    if (ImGui::Checkbox("diff", &showDiff))
      commands.push(cmd::SetShowDiff{showDiff});
    if (!state.view.showDiff)
      return;
    ImGui::SameLine();
    bool sideBySide = state.view.sideBySide;
    if (ImGui::Checkbox("side by side", &sideBySide))
      commands.push(cmd::SetSideBySide{sideBySide});
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("two columns where the pane is wide enough (120 "
                        "characters); inline otherwise");
    ImGui::SameLine();
    bool ignore = state.view.diffIgnoresWhitespace;
    if (ImGui::Checkbox("ignore spaces", &ignore))
      commands.push(cmd::SetDiffIgnoresWhitespace{ignore});
    ImGui::SameLine();
    int other =
        std::min<int>(comparisonStep(state.view), run.snapshots.size() - 1);
    bool severalModules = run.severalModules();
    std::string label = "against " +
                        run.snapshots[other].label(severalModules) +
                        (state.view.compareWith < 0 ? " (previous)" : "");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##against", label.c_str())) {
      if (ImGui::Selectable("the previous step", state.view.compareWith < 0))
        commands.push(cmd::CompareWith{-1});
      for (size_t i = 0; i < run.snapshots.size(); ++i) {
        if (!run.snapshots[i].isIR())
          continue;
        ImGui::PushID(int(i));
        if (ImGui::Selectable(run.snapshots[i].label(severalModules).c_str(),
                              int(i) == state.view.compareWith))
          commands.push(cmd::CompareWith{int(i)});
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  }

  CorrelatedTextView view;
  std::string presenceQuery;
  uint64_t presenceSerial = ~uint64_t(0);
  StepPresence presence;
  SaveAsDialog saveAs;
  DiffView diff;
  /// The source line of each line of the diff's new text, for its step.
  std::vector<uint32_t> diffSource;
  uint64_t diffSourceId = ~uint64_t(0);
  uint64_t tintIdentity = ~uint64_t(0);
  std::string tintRole;
  std::vector<unsigned> tintLines;
  ImU32 tintColour = 0;
};

} // namespace

std::unique_ptr<Panel> createIRPanel() { return std::make_unique<IRPanel>(); }

} // namespace klx::app
