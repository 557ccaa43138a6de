//===- MeasuredModel.cpp - The model beside a measured timeline -----------===//

#include "MeasuredModel.h"

#include "widgets/Palette.h"
#include "widgets/TimelineLanes.h"

#include <imgui.h>

#include <algorithm>

namespace klx::app {

const TimelineView *modelToCompare(const AppState &state,
                                   const MeasuredTimeline &t,
                                   std::string &why) {
  if (!state.lastGoodTimeline) {
    why = "no kernel compiled yet";
    return nullptr;
  }
  const TimelineView &view =
      state.lastGoodTimeline->pick(state.view.timelineStep);
  if (!view.unavailable.empty()) {
    why = view.unavailable;
    return nullptr;
  }
  if (view.moves || view.lanes.empty()) {
    why = "the kernel compiled now has no simulated timeline";
    return nullptr;
  }
  const TimelineViews &models = *state.lastGoodTimeline;
  why = t.notRecordedFrom(view.kernel, models.file, models.defines,
                          models.sourceDigest);
  return why.empty() ? &view : nullptr;
}

void ModelComparison::update(const std::string &traceKey,
                             const MeasuredTimeline &t,
                             const TimelineView *model) {
  uint64_t id = model ? model->id : 0;
  if (made && traceKey == madeFor && id == modelId)
    return;
  made = true;
  madeFor = traceKey;
  modelId = id;
  waits = compareWaits(t, model);
  chain = model ? modelCriticalChain(*model) : ModelChain();
}

void drawWaitComparison(const ModelComparison &comparison,
                        const MeasuredTimeline &t, const TimelineView *model,
                        const std::string &noModel) {
  const std::vector<RoleWaits> &roles = comparison.roles();
  if (roles.empty())
    return;
  ImGui::TextUnformatted("time spent waiting on barriers, by role");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "On the GPU: every traced warp of the role, each from its first "
        "event to its last (as klx-run counts it).\nThe model: the Barrier "
        "timeline's simulation of the kernel as compiled now%s%s.",
        model ? ", " : "; none here: ",
        model ? model->bound.c_str() : noModel.c_str());
  ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH |
                          ImGuiTableFlags_SizingStretchProp |
                          ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable("waits", 3, flags))
    return;
  ImGui::TableSetupColumn("role", ImGuiTableColumnFlags_WidthStretch, 0.6f);
  std::string gpu = "on the GPU (" + std::to_string(t.ctas.size()) +
                    (t.ctas.size() == 1 ? " CTA)" : " CTAs)");
  ImGui::TableSetupColumn(gpu.c_str(), ImGuiTableColumnFlags_WidthStretch,
                          1.0f);
  ImGui::TableSetupColumn("the model", ImGuiTableColumnFlags_WidthStretch,
                          1.0f);
  ImGui::TableHeadersRow();
  for (const RoleWaits &r : roles) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::role(r.role)),
                       "%s", r.role.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", r.measured.describe().c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", r.model.describe().c_str());
  }
  ImGui::EndTable();
  // The two columns can differ by a factor: say why before anyone reads
  // the model's numbers as predictions.
  if (model) {
    // Wrapped: the Guide pane is narrow.
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("The model is not calibrated: its latencies are "
                       "assumptions, not this GPU's. Read which role waits on "
                       "what, not how long.");
    ImGui::PopStyleColor();
  }
  // The GPU's chain is klx-run's line above ("what set CTA N's end").
  const ModelChain &chain = comparison.modelChain();
  if (!model || chain.parts.empty())
    return;
  ImGui::TextWrapped("what set the model's end (%.0f cycles): %s", chain.end,
                     chain.describe().c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "klx-run's walk on the simulation: back from the role that finished "
        "last, to each wait that blocked and the signal that ended it (a "
        "copy's bytes landing: back to the copy's issue; an arrive), and "
        "on along the signalling role.");
}

float modelLanesHeight(const TimelineView &model) {
  // Its line, its lanes, and the spacing after the warps' lanes and after
  // its own.
  return ImGui::GetTextLineHeightWithSpacing() +
         laneHeight() * float(model.lanes.size()) +
         2 * ImGui::GetStyle().ItemSpacing.y;
}

void drawModelLanes(const TimelineView &model, const MeasuredTimeline &t,
                    int64_t cta, double ctaStart, TimeWindow &window,
                    float width, float labels, double fitLength) {
  ImGui::TextDisabled("the model, from CTA %lld's start (%s)", (long long)cta,
                      model.bound.empty() ? model.stepName.c_str()
                                          : model.bound.c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The Barrier timeline's simulation of the kernel as compiled now "
        "(after %s), its cycle 0 placed where CTA %lld started, on the "
        "measured axis.\nIt covers %s; its latencies are assumptions: "
        "%s\nThe lane labels give each role's waiting share in the model.",
        model.stepName.c_str(), (long long)cta,
        model.bound.empty() ? "the whole model" : model.bound.c_str(),
        model.assumptions.c_str());
  ImDrawList *draw = ImGui::GetWindowDrawList();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float height = laneHeight() * float(model.lanes.size());
  ImGui::InvisibleButton("model lanes", ImVec2(width, height));
  bool hovered = ImGui::IsItemHovered();
  float x0 = origin.x + labels, x1 = origin.x + width;
  window.wheelDragAndFit(hovered, x0, x1, fitLength);
  std::optional<ImVec2> mouse;
  if (hovered)
    mouse = ImGui::GetIO().MousePos;
  const sim::Event *under = drawSimulatedLanes(
      draw, model, origin, width,
      CycleWindow{window.start - ctaStart, window.end - ctaStart}, mouse, 0,
      labels);
  if (!under)
    return;
  double cyclesPerUs = std::max(1e-9, t.clockKHz / 1e3);
  ImGui::SetTooltip("the model: %s\nat %.3f us on the measured axis",
                    describeEvent(model, *under).c_str(),
                    (under->start + ctaStart) / cyclesPerUs);
}

} // namespace klx::app
