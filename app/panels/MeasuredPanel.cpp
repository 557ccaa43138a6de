//===- MeasuredPanel.cpp - Which CTA each SM ran, and when ----------------===//
//
// The latest run recorded with a timeline (Run pane, "record timeline"),
// drawn as SMs x time: one lane per SM, a box per CTA it ran, coloured by
// its place in that SM's order (the waves), so the tail and the idle SMs
// show at a glance. The lanes come from LaneRenderer's shaders where the
// window has OpenGL 3.3, else from ImGui's draw lists. The wheel zooms
// around the pointer, dragging pans, a double click fits the kernel; the
// box under the pointer says its CTA, SM and times.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "widgets/GpuLanes.h"
#include "widgets/Palette.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace klx::app {
namespace {

/// The SM count the device line states ("... (sm_90, 132 SMs, ...)"), or 0.
int smCountOf(const std::string &device) {
  size_t at = device.find(" SMs");
  if (at == std::string::npos)
    return 0;
  size_t begin = device.find_last_not_of("0123456789", at - 1);
  return std::atoi(device.c_str() +
                   (begin == std::string::npos ? 0 : begin + 1));
}

/// What the lanes show in a line: CTAs, SMs busy and idle, the kernel's
/// span and its tail (the last SM to finish after the first one did).
struct SmSummary {
  size_t ctas = 0, busySms = 0, mostPerSm = 0;
  int deviceSms = 0;
  double firstDone = 0, lastDone = 0; // cycles
};

SmSummary summarize(const MeasuredTimeline &t) {
  SmSummary s;
  s.ctas = t.ctaCount();
  s.busySms = t.sms.size();
  s.deviceSms = smCountOf(t.device);
  bool first = true;
  for (const MeasuredLane &sm : t.sms) {
    s.mostPerSm = std::max(s.mostPerSm, sm.events.size());
    double done = 0;
    for (const MeasuredEvent &cta : sm.events)
      done = std::max(done, cta.end);
    s.firstDone = first ? done : std::min(s.firstDone, done);
    s.lastDone = std::max(s.lastDone, done);
    first = false;
  }
  return s;
}

class MeasuredPanel final : public Panel {
public:
  const char *title() const override { return "Measured"; }

  void draw(const AppState &state, CommandQueue &) override {
    const GpuRunRecord *run = latestTraced(state);
    if (!run || run->measured->sms.empty()) {
      ImGui::TextWrapped(
          "Which CTA every SM ran, and when, from a run recorded with a "
          "timeline: tick \"record timeline\" in the Run pane and run. %s",
          run ? "The latest recording has no SMs process (it was written by "
                "an older klx-run)."
              : "");
      return;
    }
    const MeasuredTimeline &t = *run->measured;
    std::string key = run->label + "/" + std::to_string(t.ctaCount()) + "/" +
                      std::to_string(t.smsEndTime);
    if (key != shownKey) {
      shownKey = key;
      fit(t);
    }
    drawSummary(t);
    drawCriticalPath(state, t);
    if (!GpuLanes::get().available())
      ImGui::TextDisabled("lanes drawn on the CPU: %s",
                          GpuLanes::get().whyNot().c_str());
    drawLanes(t, key);
  }

private:
  static const GpuRunRecord *latestTraced(const AppState &state) {
    for (auto it = state.gpuRuns.rbegin(); it != state.gpuRuns.rend(); ++it)
      if (it->measured)
        return &*it;
    return nullptr;
  }

  double usOf(const MeasuredTimeline &t, double cycles) const {
    return cycles / std::max(1e-9, t.clockKHz / 1e3);
  }

  void drawSummary(const MeasuredTimeline &t) {
    SmSummary s = summarize(t);
    ImGui::Text("%zu CTAs on %zu SMs in %.1f us", s.ctas, s.busySms,
                usOf(t, s.lastDone));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("measured on %s (%s); times from the first CTA's "
                        "start, every SM's clock put on the GPU's global "
                        "timer",
                        t.device.c_str(), t.label.c_str());
    std::string idle =
        s.deviceSms > int(s.busySms)
            ? ", " + std::to_string(s.deviceSms - int(s.busySms)) +
                  " of the GPU's " + std::to_string(s.deviceSms) + " SMs idle"
            : "";
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("up to %zu CTA%s per SM; the last SM finished %.1f us "
                       "after the first%s",
                       s.mostPerSm, s.mostPerSm == 1 ? "" : "s",
                       usOf(t, s.lastDone - s.firstDone), idle.c_str());
    ImGui::PopStyleColor();
  }

  /// klx-run's findings (what the kernel's end was made of, the waits
  /// ranked), folded under a header, with the model's waits beside them.
  void drawCriticalPath(const AppState &state, const MeasuredTimeline &t) {
    if (t.criticalPath.empty())
      return;
    // Open where the pane has room for it and the lanes.
    bool roomy = ImGui::GetContentRegionAvail().y >
                 ImGui::GetTextLineHeightWithSpacing() * 24;
    if (!ImGui::CollapsingHeader("critical path",
                                 roomy ? ImGuiTreeNodeFlags_DefaultOpen : 0))
      return;
    // Wrapped: the lines are long and the pane is often narrow.
    for (const std::string &line : t.criticalPath) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", line.c_str());
    }
    if (std::string model = simulatedWaits(state); !model.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text,
                            ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("the model (Barrier timeline): %s", model.c_str());
      ImGui::PopStyleColor();
    }
  }

  /// "producer waits 96%, consumer 35%" from the simulated timeline of the
  /// kernel as compiled now (lanes of one role averaged).
  static std::string simulatedWaits(const AppState &state) {
    if (!state.lastGoodTimeline)
      return "";
    const TimelineView &view =
        state.lastGoodTimeline->pick(state.view.timelineStep);
    std::vector<std::pair<std::string, std::pair<double, int>>> roles;
    for (const TimelineLane &lane : view.lanes) {
      auto it = std::find_if(roles.begin(), roles.end(), [&](const auto &r) {
        return r.first == lane.colourRole;
      });
      if (it == roles.end())
        it = roles.insert(roles.end(), {lane.colourRole, {0.0, 0}});
      it->second.first += lane.waitingShare;
      ++it->second.second;
    }
    std::string out;
    for (const auto &[role, sum] : roles) {
      char part[96];
      std::snprintf(part, sizeof part, "%s%s waits %.0f%%",
                    out.empty() ? "" : ", ", role.c_str(),
                    100 * sum.first / std::max(1, sum.second));
      out += part;
    }
    return out;
  }

  void drawLanes(const MeasuredTimeline &t, const std::string &key) {
    ImDrawList *draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    float axisH = ImGui::GetTextLineHeightWithSpacing();
    float avail = ImGui::GetContentRegionAvail().y - axisH;
    float laneH = std::clamp(avail / float(t.sms.size()), 3.0f,
                             ImGui::GetFontSize() * 1.2f);
    float height = laneH * float(t.sms.size());
    ImGui::InvisibleButton("sms", ImVec2(width, height + axisH));
    bool hovered = ImGui::IsItemHovered();
    float label = ImGui::CalcTextSize("SM 131 ").x;
    float x0 = origin.x + label, x1 = origin.x + width;
    navigate(t, hovered, x0, x1);
    // Labels where they fit; every SM's otherwise on hover.
    bool labels = laneH >= ImGui::GetFontSize();
    for (size_t r = 0; r < t.sms.size() && labels; ++r)
      draw->AddText(ImVec2(origin.x + 2, origin.y + laneH * float(r)),
                    palette::theme().measuredLaneText, t.sms[r].name.c_str());
    draw->PushClipRect(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height),
                       true);
    draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height),
                        palette::theme().measuredLaneBackground);
    float gap = laneH >= 6 ? 1 : 0;
    if (GpuLanes::get().available()) {
      LaneRenderer::View view;
      view.start = viewStart;
      view.end = viewEnd;
      view.x0 = x0;
      view.x1 = x1;
      view.y0 = origin.y;
      view.laneHeight = laneH;
      view.laneGap = gap;
      GpuLanes::get().draw(
          draw, "measured-sms/" + key, [&] { return laneEvents(t); }, view);
    } else {
      drawOnCpu(draw, t, origin.y, laneH, gap, x0, x1);
    }
    draw->PopClipRect();
    drawAxis(draw, t, ImVec2(x0, origin.y + height), x1);
    if (hovered)
      hoverTooltip(t, ImGui::GetIO().MousePos, origin.y, laneH, x0, x1);
  }

  /// One box per CTA, its colour its place in its SM's order.
  static std::vector<LaneEvent> laneEvents(const MeasuredTimeline &t) {
    std::vector<LaneEvent> events;
    for (size_t r = 0; r < t.sms.size(); ++r)
      for (size_t i = 0; i < t.sms[r].events.size(); ++i)
        events.push_back({t.sms[r].events[i].start, t.sms[r].events[i].end,
                          uint32_t(r), palette::stage(int(i))});
    return events;
  }

  void drawOnCpu(ImDrawList *draw, const MeasuredTimeline &t, float y0,
                 float laneH, float gap, float x0, float x1) const {
    for (size_t r = 0; r < t.sms.size(); ++r) {
      const MeasuredLane &sm = t.sms[r];
      float y = y0 + laneH * float(r);
      auto it = std::lower_bound(
          sm.events.begin(), sm.events.end(), viewStart - sm.longest,
          [](const MeasuredEvent &e, double at) { return e.start < at; });
      for (; it != sm.events.end() && it->start <= viewEnd; ++it)
        draw->AddRectFilled(
            ImVec2(std::max(x0 - 1, xOf(it->start, x0, x1)), y),
            ImVec2(std::min(x1 + 1, std::max(xOf(it->end, x0, x1),
                                             xOf(it->start, x0, x1) + 1)),
                   y + laneH - gap),
            palette::stage(int(it - sm.events.begin())));
    }
  }

  void drawAxis(ImDrawList *draw, const MeasuredTimeline &t, ImVec2 at,
                float x1) const {
    char text[48];
    std::snprintf(text, sizeof text, "%.2f us", usOf(t, viewStart));
    draw->AddText(at, palette::theme().measuredLaneText, text);
    std::snprintf(text, sizeof text, "%.2f us", usOf(t, viewEnd));
    draw->AddText(ImVec2(x1 - ImGui::CalcTextSize(text).x, at.y),
                  palette::theme().measuredLaneText, text);
  }

  void hoverTooltip(const MeasuredTimeline &t, ImVec2 mouse, float y0,
                    float laneH, float x0, float x1) const {
    int r = int((mouse.y - y0) / laneH);
    if (r < 0 || size_t(r) >= t.sms.size())
      return;
    const MeasuredLane &sm = t.sms[size_t(r)];
    if (mouse.x < x0) {
      ImGui::SetTooltip("%s: %zu CTAs", sm.name.c_str(), sm.events.size());
      return;
    }
    double at = timeAt(mouse.x, x0, x1);
    double slack = 2 * span() / std::max(1.0f, x1 - x0);
    auto it = std::upper_bound(
        sm.events.begin(), sm.events.end(), at + slack,
        [](double value, const MeasuredEvent &e) { return value < e.start; });
    if (it == sm.events.begin())
      return;
    --it;
    if (it->end + slack < at)
      return;
    ImGui::SetTooltip("%s on %s (CTA %zu of %zu there)\n%.2f - %.2f us "
                      "(%.2f us)",
                      it->name.c_str(), sm.name.c_str(),
                      size_t(it - sm.events.begin()) + 1, sm.events.size(),
                      usOf(t, it->start), usOf(t, it->end),
                      usOf(t, it->end - it->start));
  }

  void navigate(const MeasuredTimeline &t, bool hovered, float x0, float x1) {
    ImGuiIO &io = ImGui::GetIO();
    if (hovered && io.MouseWheel != 0 && io.MousePos.x > x0) {
      double at = timeAt(io.MousePos.x, x0, x1);
      double factor = std::clamp(io.MouseWheel > 0 ? 0.8 : 1.25, 20.0 / span(),
                                 std::max(1.0, t.smsEndTime * 1.1 / span()));
      viewStart = at - (at - viewStart) * factor;
      viewEnd = at + (viewEnd - at) * factor;
    }
    if (ImGui::IsItemActive() &&
        ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
      double by = -io.MouseDelta.x / (x1 - x0) * span();
      viewStart += by;
      viewEnd += by;
    }
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
      fit(t);
  }

  void fit(const MeasuredTimeline &t) {
    viewStart = 0;
    viewEnd = std::max(1.0, t.smsEndTime * 1.02);
  }
  double span() const { return std::max(1e-9, viewEnd - viewStart); }
  float xOf(double at, float x0, float x1) const {
    return float(x0 + (at - viewStart) / span() * (x1 - x0));
  }
  double timeAt(float x, float x0, float x1) const {
    return viewStart + double(x - x0) / (x1 - x0) * span();
  }

  std::string shownKey;
  double viewStart = 0, viewEnd = 1; // cycles
};

} // namespace

std::unique_ptr<Panel> createMeasuredPanel() {
  return std::make_unique<MeasuredPanel>();
}

} // namespace klx::app
