//===- ComparePanel.cpp - Two variants of the kernel side by side ---------===//
//
// Shown while Compare mode is on, over the IR and Assembly panes: what
// each variant's run recorded (Comparison.h) at the selected pass, rows
// that differ first, the measured runs of each side from the Run pane's
// history, and the IR of A against B at that pass.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "core/Background.h"
#include "widgets/DiffView.h"
#include "widgets/Palette.h"
#include "widgets/TimelineLanes.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <tuple>

namespace klx::app {
namespace {

/// The newest run in the history of this variant that reached the GPU.
const GpuRunRecord *latestRun(const AppState &state,
                              const std::string &variant) {
  for (auto it = state.gpuRuns.rbegin(); it != state.gpuRuns.rend(); ++it)
    if (it->variant == variant && it->status != "not_run")
      return &*it;
  return nullptr;
}

std::string describeRun(const GpuRunRecord *run) {
  if (!run)
    return "-";
  if (!run->passed())
    return run->status + ": " + run->message;
  std::string text = llvm::formatv("{0:F4} ms", run->medianMs).str();
  if (run->tflops > 0)
    text += llvm::formatv(", {0:F1} TFLOP/s", run->tflops).str();
  if (run->relativeError >= 0)
    text += llvm::formatv(", rel. error {0:E1}", run->relativeError).str();
  return text;
}

class ComparePanel final : public Panel {
public:
  Pane pane() const override { return Pane::Compare; }
  bool hasContent(const AppState &state) const override {
    return state.compare.active();
  }

  void draw(const AppState &state, CommandQueue &commands) override {
    const CompareState &compare = state.compare;
    std::string labelA = definesText(state.defines);
    if (labelA.empty())
      labelA = "as given";
    ImGui::TextColored(palette::toVec4(palette::theme().variantA), "A: %s",
                       labelA.c_str());
    ImGui::SameLine();
    ImGui::TextColored(palette::toVec4(palette::theme().variantB), "  B: %s",
                       compare.variant.c_str());
    ImGui::SameLine();
    bool canRun =
        state.gpu.availability == GpuStatus::Availability::Available &&
        !state.gpu.running && state.run && compare.run;
    if (!canRun)
      ImGui::BeginDisabled();
    if (ImGui::SmallButton("Run A and B on GPU")) {
      commands.push(cmd::RunOnGpu{});
      commands.push(cmd::RunOnGpu{"", false, true});
    }
    if (!canRun)
      ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::SmallButton("Close compare"))
      commands.push(cmd::SetCompare{});
    if (!state.run || !compare.run) {
      ImGui::TextDisabled(compare.compiling ? "compiling B..."
                                            : "waiting for both runs");
      return;
    }
    const PipelineRun &a = *state.run, &b = *compare.run;
    int selected =
        std::clamp(state.view.selected, 0, int(a.snapshots.size()) - 1);
    std::string step = a.snapshots[selected].displayName();
    // The rows are computed off the GUI thread (compareRuns diffs the two
    // steps' IR); rows of other runs are never drawn (their step indexes
    // belong to those runs).
    builtSerial = state.runSerial;
    builtCompare = compare.serial;
    builtStep = step;
    comparing.request(builtSerial * 1000003u + builtCompare * 7919u +
                          std::hash<std::string>()(step),
                      [a = state.run, b = compare.run, labelA,
                       variant = compare.variant, step] {
                        return std::make_shared<const Comparison>(
                            compareRuns(*a, *b, labelA, variant, step));
                      });
    comparison = comparing.get();
    if (!comparison) {
      ImGui::TextDisabled("comparing at %s...", step.c_str());
      return;
    }
    if (!b.succeeded())
      ImGui::TextColored(palette::toVec4(palette::theme().errorText),
                         "B does not compile: %zu diagnostics (open it to "
                         "see them)",
                         b.allDiagnostics().size());
    ImGui::Text("at %s:", step.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("%u of %zu rows differ", comparison->differing(),
                        comparison->rows.size());
    ImGui::SameLine();
    ImGui::Checkbox("all rows", &showAll);

    // The table takes what its rows need, up to 38% of a tall window and
    // 60% of a short one (Teach at 1280x720), where it is what is read.
    float available = ImGui::GetContentRegionAvail().y;
    float line = ImGui::GetFrameHeightWithSpacing();
    size_t shown = showAll ? comparison->rows.size() : comparison->differing();
    float needed = line * float(shown + 1.5f);
    float tableHeight =
        std::min(needed, available * (available < line * 25 ? 0.6f : 0.38f));
    drawRows(state, tableHeight);
    drawRoleBars(a, "A", palette::toVec4(palette::theme().variantA));
    drawRoleBars(b, "B", palette::toVec4(palette::theme().variantB));
    drawTimelines(state);
    drawDiff(a, b);
  }

private:
  void drawRows(const AppState &state, float height) {
    ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                            ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("rows", 3, flags, ImVec2(0, height)))
      return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    // Measured results, when either side has run.
    const GpuRunRecord *runA = latestRun(state, definesText(state.defines));
    const GpuRunRecord *runB = latestRun(state, state.compare.variant);
    if (runA || runB) {
      std::string a = describeRun(runA), b = describeRun(runB);
      row("measured", "latest run", a, b, a != b);
    }
    for (bool differing : {true, false}) {
      if (!differing && !showAll)
        break;
      for (const ComparisonRow &r : comparison->rows)
        if (r.differs() == differing)
          row(r.group.c_str(), r.name, r.a, r.b, differing);
    }
    ImGui::EndTable();
  }

  static void row(const char *group, const std::string &name,
                  const std::string &a, const std::string &b, bool differs) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", group);
    ImGui::SameLine();
    ImGui::TextUnformatted(name.c_str());
    ImVec4 colour = differs ? palette::toVec4(palette::theme().headingText)
                            : palette::toVec4(palette::theme().dimText);
    ImGui::TableNextColumn();
    ImGui::TextColored(colour, "%s", a.c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(colour, "%s", b.c_str());
  }

  /// Each variant's register file as the role tree splits it: a box per
  /// warpgroup, as wide as its share of the 65,536 registers, in the
  /// colour of its role, with its budget and role.
  void drawRoleBars(const PipelineRun &run, const char *label, ImVec4 colour) {
    int step = run.rolesStep();
    if (step < 0 || run.snapshots[step].facts.roles.empty())
      return;
    const RoleTree &tree = run.snapshots[step].facts.roles.front();
    ImGui::TextColored(colour, "%s", label);
    ImGui::SameLine();
    ImDrawList *draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    float width = std::max(100.0f, ImGui::GetContentRegionAvail().x);
    float height = ImGui::GetTextLineHeight() + 2;
    draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height),
                        palette::theme().barBackground);
    float x = origin.x;
    for (const WarpgroupNode &group : tree.warpgroups) {
      std::string role =
          group.warps.empty() || group.warps.front().roles.empty()
              ? ""
              : tree.roles[group.warps.front().roles.front()].name;
      unsigned regs = group.regs ? group.regs : tree.registersAtEntry;
      float share =
          float(group.threads) * float(regs) / kRegistersPerSM * width;
      if (share <= 0)
        share = width / float(tree.warpgroups.size());
      float end = std::min(origin.x + width, x + share);
      draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(end, origin.y + height),
                          palette::roleBackground(role));
      draw->AddRect(ImVec2(x, origin.y), ImVec2(end, origin.y + height),
                    palette::role(role));
      std::string text = llvm::formatv("wg{0} {1} {2}", group.index,
                                       regs ? std::to_string(regs) : "?", role)
                             .str();
      draw->PushClipRect(ImVec2(x, origin.y), ImVec2(end, origin.y + height),
                         true);
      draw->AddText(ImVec2(x + 3, origin.y + 1), palette::theme().brightText,
                    text.c_str());
      draw->PopClipRect();
      x = end;
    }
    ImGui::Dummy(ImVec2(width, height));
  }

  /// Both simulated protocols on one axis of cycles: A's lanes above B's.
  void drawTimelines(const AppState &state) {
    if (!state.timeline || !state.compare.timeline)
      return;
    const TimelineView &a = state.timeline->pick(state.view.timelineStep);
    const TimelineView &b =
        state.compare.timeline->pick(state.view.timelineStep);
    if (!a.unavailable.empty() && !b.unavailable.empty())
      return;
    double end = std::max(a.endTime, b.endTime) * 1.02 + 1;
    float width = ImGui::GetContentRegionAvail().x;
    ImDrawList *draw = ImGui::GetWindowDrawList();
    std::optional<ImVec2> mouse;
    const sim::Event *under = nullptr;
    const TimelineView *underView = nullptr;
    for (const auto &[view, label, colour] :
         {std::tuple{&a, "A", palette::toVec4(palette::theme().variantA)},
          std::tuple{&b, "B", palette::toVec4(palette::theme().variantB)}}) {
      ImGui::TextColored(colour, "%s", label);
      ImGui::SameLine();
      if (!view->unavailable.empty()) {
        ImGui::TextDisabled("no simulated protocol");
        continue;
      }
      // The bound is the comparison's, the same for A and B: equal work.
      if (view->verdict.completes)
        ImGui::TextDisabled(
            "completes in %.0f cycles over %s (simulated, read at %s)",
            view->endTime, view->bound.c_str(), view->stepName.c_str());
      else
        ImGui::TextColored(palette::toVec4(palette::theme().errorText),
                           "DEADLOCK after %.0f cycles (read at %s)",
                           view->endTime, view->stepName.c_str());
      ImVec2 origin = ImGui::GetCursorScreenPos();
      float height = laneHeight() * float(view->lanes.size());
      ImGui::InvisibleButton(label, ImVec2(width, height));
      mouse = ImGui::IsItemHovered()
                  ? std::optional<ImVec2>(ImGui::GetIO().MousePos)
                  : std::nullopt;
      draw->PushClipRect(origin, ImVec2(origin.x + width, origin.y + height),
                         true);
      if (const sim::Event *e =
              drawSimulatedLanes(draw, *view, origin, width, {0, end}, mouse)) {
        under = e;
        underView = view;
      }
      draw->PopClipRect();
    }
    if (under)
      ImGui::SetTooltip("%s", describeEvent(*underView, *under).c_str());
    ImGui::TextDisabled("0 to %.0f cycles, one axis for both", end);
  }

  void drawDiff(const PipelineRun &a, const PipelineRun &b) {
    if (comparison->stepA < 0 || comparison->stepB < 0) {
      ImGui::TextDisabled("B has no step named %s to diff against",
                          comparison->step.c_str());
      return;
    }
    const Snapshot &left = a.snapshots[comparison->stepA];
    const Snapshot &right = b.snapshots[comparison->stepB];
    // What the step wrote: IR, or a backend's text (ptxas's report).
    std::string what = left.isIR() ? std::string("IR")
                       : left.kind == EmitKind::Cubin
                           ? std::string("ptxas's report")
                           : emitKindName(left.kind).upper();
    ImGui::Text("%s after %s: A (left) against B (right), +%u -%u lines",
                what.c_str(), comparison->step.c_str(), comparison->irAdded,
                comparison->irRemoved);
    // As klx compile --compare counts it: timings are not differences.
    DiffOptions options;
    options.ignoreTimings = true;
    options.ignoreWhitespace = true;
    diff.setTexts(left.text, right.text, languageFor(left.kind),
                  builtSerial * 1000003u + builtCompare * 7919u +
                      std::hash<std::string>()(builtStep),
                  options);
    diff.draw("ab", ImGui::GetContentRegionAvail(), /*sideBySide=*/true);
  }

  Background<Comparison> comparing;
  std::shared_ptr<const Comparison> comparison; // this frame's rows
  uint64_t builtSerial = ~uint64_t(0), builtCompare = ~uint64_t(0);
  std::string builtStep;
  bool showAll = false;
  DiffView diff;
};

} // namespace

std::unique_ptr<Panel> createComparePanel() {
  return std::make_unique<ComparePanel>();
}

} // namespace klx::app
