//===- PassesPanel.cpp - Every step of the run, and stepping --------------===//

#include "Panel.h"

#include "views/Elide.h"
#include "widgets/Palette.h"
#include "widgets/TextInView.h"

#include "klx/Pipeline/Compiler.h"

#include <algorithm>
#include <cstring>

namespace klx::app {
namespace {

class PassesPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Passes; }

  void draw(const AppState &state, CommandQueue &commands) override {
    // In a short pane (Teach at 1280x720) the options fold under one line:
    // open, they left the list no room.
    float line = ImGui::GetFrameHeightWithSpacing();
    bool shortPane = ImGui::GetContentRegionAvail().y < line * 14;
    if (!shortPane || ImGui::TreeNode("options", "target, -D, compare")) {
      drawTargetAndStop(state, commands);
      drawDefinesAndCompare(state, commands);
      bool hide = state.view.hideUnchanged;
      if (ImGui::Checkbox("hide passes that changed nothing", &hide))
        commands.push(cmd::SetHideUnchanged{hide});
      ImGui::TextDisabled("F10 / Shift+F10 step, click to jump");
      if (shortPane)
        ImGui::TreePop();
    }
    ImGui::Separator();
    if (!state.run) {
      ImGui::TextDisabled(state.compiling ? "compiling..." : "no run yet");
      return;
    }
    handleKeys(commands);
    // A lesson step that names a step scrolls the list to it.
    if (const PaneReveal *reveal = reveals.take(state, pane());
        reveal && !reveal->text.empty()) {
      revealName = reveal->text.front();
      lastSelected = state.view.selected; // not scrolled away to it after
    }

    const PipelineRun &run = *state.run;
    if (!ImGui::BeginTable("steps", 2,
                           ImGuiTableFlags_ScrollY |
                               ImGuiTableFlags_SizingStretchProp |
                               ImGuiTableFlags_RowBg))
      return;
    ImGui::TableSetupColumn("step", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("ms", ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize("0000.00").x);
    bool severalModules = run.severalModules();
    std::vector<LineInView> shown; // for a screenshot's layout file
    for (int index : visibleSteps(run, state.view.hideUnchanged)) {
      const Snapshot &s = run.snapshots[index];
      ImGui::PushID(index);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      bool selected = index == state.view.selected;
      ImU32 marker = s.failed                   ? palette::theme().failedMarker
                     : !s.skippedReason.empty() ? palette::theme().dimText
                     : s.changed                ? palette::theme().changedMarker
                                                : palette::theme().dimText;
      ImGui::PushStyleColor(ImGuiCol_Text, marker);
      ImGui::TextUnformatted(s.failed ? "x" : s.changed ? "*" : " ");
      ImGui::PopStyleColor();
      ImGui::SameLine();
      // Nested passes and backend steps run once per gpu.module: say
      // which, where several.
      std::string label = fitted(s.label(severalModules));
      if (ImGui::Selectable(label.c_str(), selected,
                            ImGuiSelectableFlags_SpanAllColumns))
        commands.push(cmd::SelectStep{index});
      if (!revealName.empty() && s.displayName() == revealName) {
        ImGui::SetScrollHereY(0.3f);
        revealName.clear();
        scrollToSelection = false;
      }
      if (recordingTextInView() && ImGui::IsItemVisible())
        shown.push_back({unsigned(index + 1), label});
      if (selected && scrollToSelection) {
        ImGui::SetScrollHereY(0.5f);
        scrollToSelection = false;
      }
      if (ImGui::IsItemHovered())
        drawStepTooltip(s);
      if (ImGui::BeginPopupContextItem()) {
        if (ImGui::MenuItem("Diff the selected step against this"))
          commands.push(cmd::CompareWith{index});
        if (ImGui::MenuItem("Stop after this step"))
          commands.push(cmd::SetStopAfter{s.displayName()});
        ImGui::EndPopup();
      }
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%.2f", s.wallMs);
      ImGui::PopID();
    }
    ImGui::EndTable();
    addTextInView("steps", std::move(shown));
    if (lastSelected != state.view.selected) {
      lastSelected = state.view.selected;
      scrollToSelection = true;
    }
  }

private:
  /// `label` cut in the middle to the column's width (the tooltip has it
  /// whole): names that share a long prefix stay apart.
  static std::string fitted(const std::string &label) {
    float width = ImGui::GetContentRegionAvail().x;
    bool hasEllipsis = ImGui::GetFont()->FindGlyphNoFallback(0x2026);
    return elideMiddle(
        label, hasEllipsis ? "\xE2\x80\xA6" : "..", [&](std::string_view text) {
          return ImGui::CalcTextSize(text.data(), text.data() + text.size())
                     .x <= width;
        });
  }

  static void drawStepTooltip(const Snapshot &s) {
    ImGui::BeginTooltip();
    ImGui::Text("%s%s", s.name.c_str(), s.arguments.c_str());
    ImGui::Text("on %s", s.anchor.c_str());
    ImGui::Text("%.3f ms, %u %s%s", s.wallMs, s.opCount,
                s.kind == EmitKind::MLIR ? "ops" : "instructions",
                s.changed ? "" : ", IR unchanged");
    if (!s.skippedReason.empty())
      ImGui::TextWrapped("skipped: %s", s.skippedReason.c_str());
    ImGui::EndTooltip();
  }

  void drawTargetAndStop(const AppState &state, CommandQueue &commands) {
    std::string current =
        state.target ? targetName(*state.target).str()
                     : "from file (" +
                           (state.run ? targetName(state.run->target).str()
                                      : std::string("sm_90a")) +
                           ")";
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##target", current.c_str())) {
      if (ImGui::Selectable("from file", !state.target))
        commands.push(cmd::SetTarget{});
      for (Target target : tileDialectTargets())
        if (ImGui::Selectable(targetName(target).data(),
                              state.target == target))
          commands.push(cmd::SetTarget{targetName(target).str()});
      ImGui::EndCombo();
    }
    std::string stop = state.stopAfter.empty()
                           ? "run every step"
                           : "stop after " + state.stopAfter;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##stop", stop.c_str())) {
      if (ImGui::Selectable("run every step", state.stopAfter.empty()))
        commands.push(cmd::SetStopAfter{});
      // The steps of the last run: they depend on the file and target.
      std::vector<std::string> names =
          state.run ? plannedStepNames(state.run->lowering)
                    : std::vector<std::string>();
      for (const std::string &name : names)
        if (ImGui::Selectable(name.c_str(), name == state.stopAfter))
          commands.push(cmd::SetStopAfter{name});
      ImGui::EndCombo();
    }
  }

  /// -D values for the kernel, and the variant Compare mode sets beside
  /// it. The fields show what the state says unless they are being typed
  /// into, so a lesson link that sets them shows up here.
  void drawDefinesAndCompare(const AppState &state, CommandQueue &commands) {
    std::string defines = definesText(state.defines);
    if (defines != shownDefines) {
      shownDefines = defines;
      copyInto(definesBuffer, defines);
    }
    if (state.compare.variant != shownVariant) {
      shownVariant = state.compare.variant;
      copyInto(variantBuffer, shownVariant);
    }
    float button =
        ImGui::CalcTextSize("Compare").x + ImGui::GetStyle().FramePadding.x * 2;
    float pin = ImGui::GetFrameHeight() + ImGui::CalcTextSize("pin").x +
                ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(-pin - ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::InputTextWithHint("##defines", "-D NAME=VALUE, ...",
                                 definesBuffer, sizeof definesBuffer,
                                 ImGuiInputTextFlags_EnterReturnsTrue))
      commands.push(cmd::SetDefines{definesBuffer});
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("schedule parameters (klx.params), Enter compiles: "
                        "stages=2, consumers=1");
    ImGui::SameLine();
    bool pinned = state.definesPinned;
    if (ImGui::Checkbox("pin", &pinned))
      commands.push(cmd::PinDefines{pinned});
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("keep these -D values when another file opens "
                        "(otherwise they belong to this file)");
    ImGui::SetNextItemWidth(-button - ImGui::GetStyle().ItemSpacing.x);
    bool enter = ImGui::InputTextWithHint(
        "##compare", "compare with: stages=2 or a file", variantBuffer,
        sizeof variantBuffer, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (state.compare.active() && variantBuffer == state.compare.variant) {
      if (ImGui::Button("Close", ImVec2(button, 0)))
        commands.push(cmd::SetCompare{});
    } else if (ImGui::Button("Compare", ImVec2(button, 0)) || enter) {
      commands.push(cmd::SetCompare{variantBuffer});
      commands.push(cmd::ShowPanel{Pane::Compare});
    }
  }

  template <size_t N>
  static void copyInto(char (&buffer)[N], const std::string &text) {
    size_t n = std::min(text.size(), N - 1);
    std::memcpy(buffer, text.data(), n);
    buffer[n] = 0;
  }

  char definesBuffer[256] = {};
  char variantBuffer[512] = {};
  std::string shownDefines, shownVariant;

  // F10 / Shift+F10 work anywhere (the window handles them); the arrows
  // step while this pane has focus.
  void handleKeys(CommandQueue &commands) {
    if (ImGui::GetIO().WantTextInput ||
        !ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows))
      return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
      commands.push(cmd::StepForward{});
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
      commands.push(cmd::StepBack{});
  }

  int lastSelected = -1;
  bool scrollToSelection = false;
  RevealTracker reveals;  // the lesson steps' requests
  std::string revealName; // the step it names, to scroll to
};

} // namespace

std::unique_ptr<Panel> createPassesPanel() {
  return std::make_unique<PassesPanel>();
}

} // namespace klx::app
