//===- TimelinePanel.cpp - The simulated barrier timeline -----------------===//
//
// One lane per role: waits as boxes in their stage's colour, MMAs in the
// role's colour, arrives and copy issues as ticks, copies landing as
// marks. Wheel zooms around the pointer, dragging pans, hovering shows the
// event, clicking it selects the step the model came from and the source
// line of its op. Each lane draws only the events in the visible window
// (binary search) and folds runs narrower than a couple of pixels into one
// box, as profilers do. A deadlock is drawn in red with its blocked waits
// and reasons. Beside the simulated verdict, klx verify's: verified for
// every timing up to the model's bound, or can fail, with a button that
// draws the counterexample on the same lanes (one unit of time per move)
// and lists its moves, each a link to its step and source line.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"
#include "TimelineVerdict.h"

#include "widgets/GpuLanes.h"
#include "widgets/Palette.h"
#include "widgets/SaveAsDialog.h"
#include "widgets/TimeWindow.h"
#include "widgets/TimelineLanes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace klx::app {
namespace {

class TimelinePanel final : public Panel {
public:
  Pane pane() const override { return Pane::Timeline; }

  void draw(const AppState &state, CommandQueue &commands) override {
    // While the kernel has errors: the last good compile's timeline,
    // its events no longer tied to this run's steps.
    bool stale = false;
    resultRun(state, stale); // the same test as the Assembly pane's
    stale = stale && state.lastGoodTimeline;
    if (!stale && !state.timeline) {
      ImGui::TextDisabled("Compiling...");
      return;
    }
    if (!stale) {
      drawTimeline(state, *state.timeline, commands);
      return;
    }
    ImGui::TextColored(palette::toVec4(palette::theme().errorText),
                       "the kernel has errors (see the Source pane)");
    ImGui::TextDisabled("below: the last compile that worked");
    CommandQueue ignored; // clicks would select steps of another run
    // The lanes are drawn with colours of their own, which the style's
    // alpha does not reach: everything drawn is faded here, once, vertex by
    // vertex.
    ImDrawList *drawList = ImGui::GetWindowDrawList();
    int first = drawList->VtxBuffer.Size;
    drawingStale = true; // and its menu would save another run's trace
    drawTimeline(state, *state.lastGoodTimeline, ignored);
    drawingStale = false;
    for (int i = first; i < drawList->VtxBuffer.Size; ++i) {
      ImU32 &colour = drawList->VtxBuffer[i].col;
      ImU32 alpha = (colour >> IM_COL32_A_SHIFT) & 0xFF;
      colour = (colour & ~IM_COL32_A_MASK) |
               (ImU32(alpha * 0.5f) << IM_COL32_A_SHIFT);
    }
  }

private:
  void drawTimeline(const AppState &state, const TimelineViews &timelines,
                    CommandQueue &commands) {
    const TimelineView &simulated = timelines.pick(state.view.timelineStep);
    if (!simulated.unavailable.empty()) {
      ImGui::TextWrapped("%s", simulated.unavailable.c_str());
      return;
    }
    bool counter =
        state.view.showCounterexample && simulated.counterexample != nullptr;
    const TimelineView &view = counter ? *simulated.counterexample : simulated;
    std::string notMeasured;
    std::shared_ptr<const MeasuredTimeline> recording =
        counter ? nullptr : measuredOf(state, timelines, view, notMeasured);
    const MeasuredTimeline *measured = recording.get();
    // Walked once per recording, not every frame.
    if (recording != measuredFor) {
      measuredFor = recording;
      measuredEnd = measured ? measured->lanesEnd() : 0;
    }
    if (state.runSerial != shownRun || view.stepName != shownStep ||
        counter != shownCounter) {
      shownRun = state.runSerial;
      shownStep = view.stepName;
      shownCounter = counter;
      fit(view);
    }
    drawModelChoice(timelines, simulated, commands);
    if (counter)
      drawCounterexampleHeader(simulated);
    else
      drawVerdict(simulated);
    drawVerification(simulated, counter, commands);
    // The lanes come from the shaders in shaders/; say when they cannot.
    if (!GpuLanes::get().available())
      ImGui::TextDisabled("lanes drawn on the CPU: %s",
                          GpuLanes::get().whyNot().c_str());
    if (!notMeasured.empty())
      drawNoGpuLanes(notMeasured);
    drawLanes(state, view, measured, commands, counter ? "move" : "cycles");
    if (counter)
      drawMoves(state, simulated, commands);
  }

  /// The latest recording, where it is of this kernel; a Proton trace, or
  /// one of another kernel or text opened since, is not (`why` says so).
  static std::shared_ptr<const MeasuredTimeline>
  measuredOf(const AppState &state, const TimelineViews &timelines,
             const TimelineView &view, std::string &why) {
    for (auto it = state.gpuRuns.rbegin(); it != state.gpuRuns.rend(); ++it)
      if (it->measured) {
        why = it->measured->notRecordedFrom(view.kernel, timelines.file,
                                            timelines.defines,
                                            timelines.sourceDigest);
        return why.empty() ? it->measured : nullptr;
      }
    return nullptr;
  }

  /// One line where the GPU's lanes would be, and why they are not.
  static void drawNoGpuLanes(const std::string &why) {
    ImGui::TextDisabled("(no GPU lanes beside the model)");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", why.c_str());
  }

  /// With models at more than one step (klx's own, and the one read from
  /// the lowered nvgpu ops), which one to draw.
  void drawModelChoice(const TimelineViews &views, const TimelineView &shown,
                       CommandQueue &commands) {
    drawFitButton(shown);
    if (views.views.size() < 2)
      return;
    ImGui::SameLine();
    ImGui::TextDisabled("read at");
    for (const TimelineView &view : views.views) {
      ImGui::SameLine();
      if (ImGui::RadioButton(view.stepName.c_str(), &view == &shown))
        commands.push(cmd::ShowTimelineOf{view.stepName});
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the model read from %s at %s", view.readFrom.c_str(),
                          view.stepName.c_str());
    }
  }

  /// Which kernel, step and model, and the latencies: on hover of the
  /// verdict (a line of its own took the lanes' room in short panes).
  /// The recording's warps as lanes from `y0` down, labelled "GPU
  /// producer" and so on; returns the event under `mouse`, if any.
  const MeasuredEvent *drawMeasuredLanes(ImDrawList *draw,
                                         const MeasuredTimeline &measured,
                                         float y0, float left, float x0,
                                         float x1, float laneH,
                                         std::optional<ImVec2> mouse) const {
    auto toX = [&](double t) { return window.xOf(t, x0, x1); };
    const MeasuredEvent *under = nullptr;
    for (size_t m = 0; m < measured.lanes.size(); ++m) {
      const MeasuredLane &lane = measured.lanes[m];
      float y = y0 + laneH * float(m);
      draw->AddRectFilled(ImVec2(left, y), ImVec2(x1, y + laneH - 2),
                          palette::theme().measuredLaneBackground);
      // The label column is narrow: the role, and the warp where two
      // share it.
      draw->AddText(ImVec2(left + 4, y + 3), palette::theme().measuredLaneText,
                    measuredLaneLabel(measured, m).c_str());
      auto first = std::lower_bound(
          lane.events.begin(), lane.events.end(), window.start - lane.longest,
          [](const MeasuredEvent &e, double t) { return e.start < t; });
      float lastX = -1e9f;
      for (auto it = first; it != lane.events.end() && it->start <= window.end;
           ++it) {
        float a = toX(it->start), b = toX(it->end);
        if (b < x0 || a > x1)
          continue;
        a = std::max(a, x0 - 1);
        b = std::min(b, x1 + 1);
        if (b - a < kFoldPixels && a - lastX < kFoldPixels)
          continue; // folded into what is already drawn there
        lastX = std::max(a, b);
        if (it->isWait()) {
          size_t open = it->name.find('[');
          int slot =
              open == std::string::npos ? 0 : std::atoi(&it->name[open + 1]);
          draw->AddRectFilled(ImVec2(a, y + 3),
                              ImVec2(std::max(b, a + 1), y + laneH - 5),
                              palette::stage(slot));
        } else {
          draw->AddLine(ImVec2(a, y + 2), ImVec2(a, y + laneH - 4),
                        it->name.rfind("mma", 0) == 0
                            ? palette::theme().mmaTick
                            : palette::theme().brightText);
        }
        if (mouse && mouse->y >= y && mouse->y < y + laneH &&
            mouse->x >= a - 2 && mouse->x <= std::max(b, a + 2))
          under = &*it;
      }
    }
    return under;
  }

  /// What the pointer is over: a lane's whole name (the label column is
  /// narrow), a recorded event, or a simulated one, which a click selects
  /// (its step and source line).
  void drawLaneTooltips(const AppState &state, const TimelineView &view,
                        const MeasuredTimeline *measured,
                        const sim::Event *under,
                        const MeasuredEvent *underMeasured, bool hovered,
                        float y0, float x0, float laneH,
                        CommandQueue &commands) {
    ImGuiIO &io = ImGui::GetIO();
    if (hovered && io.MousePos.x < x0 && !view.lanes.empty()) {
      int lane = int((io.MousePos.y - y0) / laneH);
      if (lane >= 0 && size_t(lane) < view.lanes.size())
        ImGui::SetTooltip("%s: waits %.0f%% of its time",
                          view.lanes[lane].role.c_str(),
                          100 * view.lanes[lane].waitingShare);
    }
    if (underMeasured && !under)
      ImGui::SetTooltip("%s\n%s\ncycles %.0f - %.0f",
                        measuredOn(*measured).c_str(),
                        underMeasured->name.c_str(), underMeasured->start,
                        underMeasured->end);
    if (!under)
      return;
    ImGui::SetTooltip("%s", describeEvent(view, *under).c_str());
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
        io.MouseDragMaxDistanceSqr[0] <
            io.MouseDragThreshold * io.MouseDragThreshold) {
      commands.push(cmd::SelectStep{view.step});
      if (unsigned line = sourceLineOf(*state.run, view.step, under->line))
        commands.push(cmd::FocusSourceLine{int(line)});
    }
  }

  void drawLanes(const AppState &state, const TimelineView &view,
                 const MeasuredTimeline *measured, CommandQueue &commands,
                 const char *unit) {
    ImDrawList *draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    size_t measuredLanes = measured ? measured->lanes.size() : 0;
    size_t laneCount = view.lanes.size() + measuredLanes;
    bool blocked = !view.verdict.completes;
    float legend = drawLaneLegend(nullptr, origin, width, blocked);
    float footer = ImGui::GetTextLineHeightWithSpacing() + legend;
    // The lanes grow with the pane (up to 2.5 times their height), but
    // leave the counterexample's moves room below them.
    float laneH = laneHeight();
    if (!view.moves && laneCount > 0)
      laneH = std::clamp((ImGui::GetContentRegionAvail().y - footer) /
                             float(laneCount),
                         laneHeight(), laneHeight() * 2.5f);
    float lanesHeight = laneH * float(laneCount);
    float height = lanesHeight + footer;
    ImGui::InvisibleButton("lanes", ImVec2(width, height));
    bool hovered = ImGui::IsItemHovered();
    // A lesson step that names the lanes scrolls the pane just enough to
    // show them whole (the ones it names, else all), keeping as much of
    // the verdicts above as it can (a short pane showed only the first).
    if (const PaneReveal *reveal = reveals.take(state, pane())) {
      auto [first, last] = namedLanes(view, reveal->text);
      float top = origin.y + laneH * float(first);
      float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() -
                     ImGui::GetStyle().WindowPadding.y;
      float below = origin.y + laneH * float(last + 1) - bottom;
      if (below > 0)
        ImGui::SetScrollY(ImGui::GetScrollY() +
                          std::min(below, top - ImGui::GetWindowPos().y));
    }
    // As wide as the roles' names ("consumer (threads 0-127)") allow.
    float labels = laneLabelColumn(view, width);
    float x0 = origin.x + labels, x1 = origin.x + width;
    ImGuiIO &io = ImGui::GetIO();
    navigate(view, hovered, x0, x1);
    std::optional<ImVec2> mouse =
        hovered ? std::optional<ImVec2>(io.MousePos) : std::nullopt;
    draw->PushClipRect(origin, ImVec2(x1, origin.y + height), true);
    const sim::Event *under =
        drawSimulatedLanes(draw, view, origin, width,
                           {window.start, window.end}, mouse, laneH, labels);
    // Measured lanes (klx-run --trace, the first traced CTA) on the same
    // axis of cycles.
    const MeasuredEvent *underMeasured =
        measured
            ? drawMeasuredLanes(draw, *measured,
                                origin.y + laneH * float(view.lanes.size()),
                                origin.x, x0, x1, laneH, mouse)
            : nullptr;
    // Time axis in cycles (or moves, for a counterexample), and a legend.
    float axis =
        drawTimeAxis(draw, ImVec2(origin.x, origin.y + lanesHeight + 2), width,
                     origin.y, {window.start, window.end}, unit, labels);
    drawLaneLegend(draw, ImVec2(origin.x, origin.y + lanesHeight + 2 + axis),
                   width, blocked);
    drawFlows(draw, view, under, origin, laneH, x0, x1);
    drawMeasure(draw, origin.y, origin.y + lanesHeight, x0, x1, unit);
    draw->PopClipRect();
    drawMenu(state, view, hovered, commands);
    drawLaneTooltips(state, view, measured, under, underMeasured, hovered,
                     origin.y, x0, laneH, commands);
  }

  /// The rows of the lanes a lesson step names (by role, or by the short
  /// label a narrow pane draws), else of all of them.
  static std::pair<size_t, size_t>
  namedLanes(const TimelineView &view, const std::vector<std::string> &names) {
    size_t first = view.lanes.size(), last = 0;
    for (size_t r = 0; r < view.lanes.size(); ++r)
      for (const std::string &name : names)
        if (llvm::StringRef(view.lanes[r].role).contains(name) ||
            llvm::StringRef(shortLaneLabel(view.lanes[r].role))
                .contains(name)) {
          first = std::min(first, r);
          last = std::max(last, r);
        }
    if (first > last)
      return {0, view.lanes.empty() ? 0 : view.lanes.size() - 1};
    return {first, last};
  }

  /// The wheel zooms around the pointer, dragging pans, Shift+drag
  /// measures a range, W/S and A/D zoom and pan as in Perfetto.
  void navigate(const TimelineView &view, bool hovered, float x0, float x1) {
    ImGuiIO &io = ImGui::GetIO();
    // Zoom around the pointer; drag to pan (with Shift: measure).
    if (hovered && io.MouseWheel != 0 && io.MousePos.x > x0)
      zoomAround(view, window.timeAt(io.MousePos.x, x0, x1),
                 io.MouseWheel > 0 ? 0.8 : 1.25);
    if (hovered && io.KeyShift &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      double at = window.timeAt(io.MousePos.x, x0, x1);
      measure = {true, at, at};
    } else if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      measure.shown = false;
    }
    if (ImGui::IsItemActive() &&
        ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
      if (io.KeyShift && measure.shown)
        measure.to = window.timeAt(io.MousePos.x, x0, x1);
      else
        window.panBy(-io.MouseDelta.x / (x1 - x0) * window.span());
    }
    // W/S zoom in and out around the middle, A/D pan, as in Perfetto.
    if (hovered && !io.WantTextInput) {
      double middle = (window.start + window.end) / 2;
      if (ImGui::IsKeyDown('W'))
        zoomAround(view, middle, 0.96);
      if (ImGui::IsKeyDown('S'))
        zoomAround(view, middle, 1.04);
      if (ImGui::IsKeyDown('A'))
        window.panBy(-window.span() * 0.02);
      if (ImGui::IsKeyDown('D'))
        window.panBy(window.span() * 0.02);
    }
  }

  void zoomAround(const TimelineView &view, double at, double factor) {
    window.zoomAround(at, factor, view.endTime);
  }
  /// The whole run: the model's and the GPU's lanes beside it, whichever
  /// ends later.
  void fit(const TimelineView &view) {
    window.fit(std::max(view.endTime, measuredEnd));
  }

  /// The range Shift+drag measured: a band over the lanes, its length on
  /// top.
  void drawMeasure(ImDrawList *draw, float top, float bottom, float x0,
                   float x1, const char *unit) {
    if (!measure.shown || measure.from == measure.to)
      return;
    float a = std::clamp(window.xOf(std::min(measure.from, measure.to), x0, x1),
                         x0, x1);
    float b = std::clamp(window.xOf(std::max(measure.from, measure.to), x0, x1),
                         x0, x1);
    draw->AddRectFilled(ImVec2(a, top), ImVec2(b, bottom),
                        palette::theme().measureWash);
    draw->AddLine(ImVec2(a, top), ImVec2(a, bottom),
                  palette::theme().searchOutline);
    draw->AddLine(ImVec2(b, top), ImVec2(b, bottom),
                  palette::theme().searchOutline);
    char label[64];
    std::snprintf(label, sizeof label, "%s %s",
                  formatTick(std::abs(measure.to - measure.from), 1).c_str(),
                  unit);
    ImVec2 size = ImGui::CalcTextSize(label);
    float x = std::clamp((a + b - size.x) / 2, x0, std::max(x0, x1 - size.x));
    draw->AddRectFilled(ImVec2(x - 3, top),
                        ImVec2(x + size.x + 3, top + size.y),
                        palette::theme().labelBackground);
    draw->AddText(ImVec2(x, top), palette::theme().searchOutline, label);
  }

  /// The arrows of the event under the pointer: from the arrive that
  /// released a wait, or from an arrive to the waits it released.
  void drawFlows(ImDrawList *draw, const TimelineView &view,
                 const sim::Event *under, ImVec2 origin, float laneH, float x0,
                 float x1) {
    if (!under)
      return;
    int lane = view.laneOf(under);
    if (lane < 0)
      return;
    for (const FlowArrow &flow : view.flowsOf(lane, *under)) {
      ImVec2 from(window.xOf(flow.from, x0, x1),
                  origin.y + laneH * (flow.fromLane + 0.5f));
      ImVec2 to(window.xOf(flow.to, x0, x1),
                origin.y + laneH * (flow.toLane + 0.5f));
      ImU32 colour = palette::theme().flowArrow;
      draw->AddLine(from, to, colour, 2);
      float head = ImGui::GetFontSize() * 0.4f;
      ImVec2 d(to.x - from.x, to.y - from.y);
      float length = std::max(1.0f, std::sqrt(d.x * d.x + d.y * d.y));
      d = ImVec2(d.x / length * head, d.y / length * head);
      draw->AddTriangleFilled(
          to, ImVec2(to.x - d.x - d.y * 0.5f, to.y - d.y + d.x * 0.5f),
          ImVec2(to.x - d.x + d.y * 0.5f, to.y - d.y - d.x * 0.5f), colour);
    }
  }

  /// Right-click on the lanes: zoom to fit, save the trace.
  void drawMenu(const AppState &state, const TimelineView &view, bool hovered,
                CommandQueue &commands) {
    if (hovered && !drawingStale &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Right))
      ImGui::OpenPopup("timeline menu");
    if (ImGui::BeginPopup("timeline menu")) {
      if (ImGui::MenuItem("Zoom to fit"))
        fit(view);
      if (ImGui::MenuItem("Clear the measured range", nullptr, false,
                          measure.shown))
        measure.shown = false;
      ImGui::Separator();
      saveAs.menuItem(state, ArtifactKind::Trace);
      ImGui::EndPopup();
    }
    saveAs.draw(commands);
  }

  /// Zoom to fit; how to move around the lanes on hover.
  void drawFitButton(const TimelineView &view) {
    if (ImGui::SmallButton("fit"))
      fit(view);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("the whole run; the wheel or W/S zoom, dragging or "
                        "A/D pan, Shift+drag measures, right-click saves a "
                        "Perfetto trace");
  }

  /// Where the GPU's lanes drawn beside the model end, in cycles (0: none),
  /// for the recording `measuredFor`.
  double measuredEnd = 0;
  std::shared_ptr<const MeasuredTimeline> measuredFor;
  uint64_t shownRun = ~uint64_t(0);
  std::string shownStep;
  bool shownCounter = false;
  TimeWindow window; // cycles
  struct Measure {
    bool shown = false;
    double from = 0, to = 0;
  } measure;
  SaveAsDialog saveAs;
  bool drawingStale = false; // the last good compile, under the errors
  RevealTracker reveals;     // the lesson steps' requests
};

} // namespace

std::unique_ptr<Panel> createTimelinePanel() {
  return std::make_unique<TimelinePanel>();
}

} // namespace klx::app
