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

#include "MeasuredChain.h"
#include "MeasuredLanes.h"
#include "MeasuredModel.h"
#include "Panel.h"

#include "views/TimelineView.h"
#include "widgets/GpuLanes.h"
#include "widgets/Palette.h"
#include "widgets/PathField.h"
#include "widgets/TextInView.h"
#include "widgets/TimeWindow.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace klx::app {
namespace {

class MeasuredPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Measured; }

  void draw(const AppState &state, CommandQueue &commands) override {
    // A trace the user opened and klx could not read: why, above the
    // recording still shown (the status line may cut it).
    if (const GpuRunRecord *failed = newestUnreadTrace(state)) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextColored(palette::toVec4(palette::theme().errorText), "%s",
                         failed->message.c_str());
      ImGui::PopTextWrapPos();
    }
    const GpuRunRecord *run = latestTraced(state);
    if (!run || run->measured->sms.empty()) {
      ImGui::TextWrapped(
          "Which CTA every SM ran, and when, from a run recorded with a "
          "timeline: tick \"record timeline\" in the Run pane and run. %s",
          run ? "The latest recording has no SMs process (it was written by "
                "an older klx-run)."
              : "");
      // A laptop without a GPU opens what was recorded elsewhere.
      ImGui::Spacing();
      ImGui::TextWrapped("Or open a trace recorded elsewhere (klx-run "
                         "--trace=OUT.json, or Proton's .chrome_trace):");
      if (std::optional<std::string> path =
              traceField.draw("a trace (.json, .chrome_trace)"))
        commands.push(openCommandFor(*path));
      return;
    }
    const MeasuredTimeline &t = *run->measured;
    std::string key = run->label + "/" + std::to_string(t.ctaCount()) + "/" +
                      std::to_string(t.smsEndTime);
    if (key != shownKey) {
      shownKey = key;
      pickedCta = run->firstCta; // -1: the one that ended last (drawLanes)
      window.fit(t.smsEndTime);
      summary = summarizeSms(t); // a walk over every CTA: once per recording
    }
    drawSummary(t);
    const TimelineView *model = modelToCompare(state, t, noModel);
    drawCriticalPath(t, model);
    if (!GpuLanes::get().available())
      ImGui::TextDisabled("lanes drawn on the CPU: %s",
                          GpuLanes::get().whyNot().c_str());
    drawLanes(t, key, model);
  }

private:
  double usOf(const MeasuredTimeline &t, double cycles) const {
    return cycles / std::max(1e-9, t.clockKHz / 1e3);
  }

  void drawSummary(const MeasuredTimeline &t) {
    const SmSummary &s = summary;
    // Wrapped: at 150% in a 1280x720 window's Guide pane it was cut.
    ImGui::TextWrapped("%zu CTAs on %zu SMs in %.1f us", s.ctas, s.busySms,
                       usOf(t, s.lastDone));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s; times from the first CTA's start, every SM's "
                        "clock put on the GPU's global timer",
                        measuredOn(t).c_str());
    std::string idle =
        s.deviceSms > int(s.busySms)
            ? ", " + std::to_string(s.deviceSms - int(s.busySms)) +
                  " of the GPU's " + std::to_string(s.deviceSms) + " SMs idle"
            : "";
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (!t.source.empty())
      ImGui::TextWrapped("read from %s", t.source.c_str());
    ImGui::TextWrapped("up to %zu CTA%s per SM; the last SM finished %.1f us "
                       "after the first%s",
                       s.mostPerSm, s.mostPerSm == 1 ? "" : "s",
                       usOf(t, s.lastDone - s.firstDone), idle.c_str());
    ImGui::PopStyleColor();
  }

  /// klx-run's findings (what the kernel's end was made of, the waits
  /// ranked), folded under a header, and each role's waits beside the
  /// model's.
  void drawCriticalPath(const MeasuredTimeline &t, const TimelineView *model) {
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
    comparison.update(shownKey, t, model);
    drawWaitComparison(comparison, t, model, noModel);
  }

  /// The SMs' lanes and, below them, the picked CTA's warps, on one time
  /// axis with one label column.
  void drawLanes(const MeasuredTimeline &t, const std::string &key,
                 const TimelineView *model) {
    // The CTA clicked, else the one that ended last, else the first that
    // recorded (a trace of some CTAs may lack both).
    const MeasuredCta *cta = t.findCta(pickedCta);
    bool untraced = pickedCta >= 0 && !cta;
    if (!cta)
      cta = t.findCta(lastToEnd(t));
    if (!cta && !t.ctas.empty())
      cta = &t.ctas.front();
    float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);
    float label = ImGui::CalcTextSize("SM 131 ").x;
    for (const MeasuredCtaLane &warp :
         cta ? cta->warps : std::vector<MeasuredCtaLane>())
      label = std::max(label, ImGui::CalcTextSize(warp.name.c_str()).x + 8);
    label = std::min(label, width * 0.35f);
    const MeasuredEvent *box = cta ? ctaBox(t, cta->cta) : nullptr;
    bool withModel = model && showModel && box;
    float avail = ImGui::GetContentRegionAvail().y;
    float reserve = withModel ? modelReserve(avail, modelLanesHeight(*model),
                                             *cta, t.sms.size())
                              : 0;
    // The SMs take a little over half of what the model's lanes leave.
    float smHeight = cta ? (avail - reserve) * 0.55f : avail;
    shownCta = cta ? cta->cta : -1;
    // A line under the SMs says what their colours mean, where they have
    // more than one.
    size_t turns = summary.mostPerSm;
    drawSmLanes(t, key, width, label,
                smHeight -
                    (turns > 1 ? ImGui::GetTextLineHeightWithSpacing() : 0.0f));
    drawSmOrderLegend(turns);
    if (!cta)
      return;
    std::string shown = "CTA " + std::to_string(cta->cta) + " on SM " +
                        std::to_string(cta->sm) + ", its warps";
    ImGui::TextUnformatted(shown.c_str());
    if (recordingTextInView())
      addTextInView("cta", {{1, shown}});
    if (untraced) {
      ImGui::SameLine();
      ImGui::TextDisabled("(CTA %lld, clicked, was not traced: klx export "
                          "--trace-ctas picks the CTAs that record warps)",
                          (long long)pickedCta);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Click a CTA's box among the SMs to show its warps; "
                        "first shown: the CTA that ended last.\nOutlined "
                        "among the SMs: this CTA (white) and the one that "
                        "ended the kernel (red)");
    ImGui::SameLine();
    if (model) {
      ImGui::Checkbox("the model below", &showModel);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The Barrier timeline's simulation of this kernel, "
                          "under these warps on the same axis");
    } else {
      ImGui::TextDisabled("(no model to compare)");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", noModel.c_str());
    }
    if (!t.source.empty())
      drawScopeLegend(t, *cta);
    else if (t.chainPassesThrough(cta->cta))
      drawCriticalChainLegend(t, cta->cta);
    else if (!t.chain.empty())
      ImGui::TextDisabled("(the critical chain shows under the warps of %s)",
                          t.chainCtaNames().c_str());
    drawCtaLanes(t, *cta, key, width, label, reserve);
    if (withModel)
      drawModelLanes(*model, t, cta->cta, box->start, window, width, label,
                     t.smsEndTime);
  }

  /// The height the model's lanes (`modelHeight`) keep in a pane `avail`
  /// high: all of it where the warps of `cta` still get readable lanes
  /// from what the SMs leave, else 0: the model goes below, reached by
  /// scrolling, and the SMs keep their room. (Decided before the SMs are
  /// drawn: decided after, the SMs gave up room for lanes below the fold.)
  static float modelReserve(float avail, float modelHeight,
                            const MeasuredCta &cta, size_t smCount) {
    // What drawSmLanes takes of its share: at least a pixel per SM and
    // the axis, and the spacing after them.
    float axis = ImGui::GetTextLineHeightWithSpacing();
    float sms = std::max((avail - modelHeight) * 0.55f, float(smCount) + axis) +
                ImGui::GetStyle().ItemSpacing.y;
    // The CTA's line (its checkbox a frame high), the legend's, the line
    // drawCtaLanes keeps above the lanes, and a line of text per warp.
    float warps = ImGui::GetFrameHeightWithSpacing() +
                  2 * ImGui::GetTextLineHeightWithSpacing() +
                  float(cta.warps.size()) * (ImGui::GetTextLineHeight() + 2);
    return avail - modelHeight - sms < warps ? 0 : modelHeight;
  }

  void drawSmLanes(const MeasuredTimeline &t, const std::string &key,
                   float width, float label, float budget) {
    ImDrawList *draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    float axisH = ImGui::GetTextLineHeightWithSpacing();
    // As thin as a pixel: all SMs fit and the CTA's warps stay in view.
    float laneH = std::clamp((budget - axisH) / float(t.sms.size()), 1.0f,
                             ImGui::GetFontSize() * 1.2f);
    float height = laneH * float(t.sms.size());
    ImGui::InvisibleButton("sms", ImVec2(width, height + axisH));
    bool hovered = ImGui::IsItemHovered();
    // A click that began on the chart: the second press of a double click
    // on the title, which enlarges the pane under the pointer, is not.
    bool clicked = ImGui::IsItemDeactivated();
    float x0 = origin.x + label, x1 = origin.x + width;
    window.wheelDragAndFit(hovered, x0, x1, t.smsEndTime);
    // Each SM's name where the lanes are a line tall, else every few SMs'
    // (an axis down the side: the lanes were a block); all on hover.
    size_t every = size_t(std::ceil(ImGui::GetFontSize() / laneH));
    std::vector<LineInView> names;
    for (size_t r = 0; r < t.sms.size(); r += std::max<size_t>(1, every)) {
      draw->AddText(ImVec2(origin.x + 2, origin.y + laneH * float(r)),
                    palette::theme().measuredLaneText, t.sms[r].name.c_str());
      names.push_back({unsigned(r + 1), t.sms[r].name});
    }
    addTextInView("sms", std::move(names));
    draw->PushClipRect(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height),
                       true);
    draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height),
                        palette::theme().measuredLaneBackground);
    float gap = laneH >= 6 ? 1 : 0;
    if (GpuLanes::get().available()) {
      GpuLanes::get().draw(
          draw, "measured-sms/" + key, [&] { return laneEvents(t); },
          plot(x0, x1, origin.y, laneH, gap));
    } else {
      drawOnCpu(draw, t, origin.y, laneH, gap, x0, x1);
    }
    // Outlined over the boxes: the CTA that ended the kernel, and the one
    // whose warps show below.
    outlineCta(draw, t, lastToEnd(t), origin.y, laneH, x0, x1,
               palette::theme().deadlockLine);
    outlineCta(draw, t, shownCta, origin.y, laneH, x0, x1,
               palette::theme().brightText);
    draw->PopClipRect();
    drawAxis(draw, t, ImVec2(x0, origin.y + height), x1);
    if (!hovered)
      return;
    const MeasuredEvent *box =
        hoverTooltip(t, ImGui::GetIO().MousePos, origin.y, laneH, x0, x1);
    ImGuiIO &io = ImGui::GetIO();
    if (box && clicked &&
        io.MouseDragMaxDistanceSqr[0] <
            io.MouseDragThreshold * io.MouseDragThreshold)
      pickedCta = ctaOf(*box);
  }

  void outlineCta(ImDrawList *draw, const MeasuredTimeline &t, int64_t cta,
                  float y0, float laneH, float x0, float x1,
                  ImU32 colour) const {
    size_t r = 0;
    const MeasuredEvent *box = ctaBox(t, cta, &r);
    if (!box)
      return;
    float y = y0 + laneH * float(r);
    draw->AddRect(
        ImVec2(std::max(x0, window.xOf(box->start, x0, x1)) - 1, y - 1),
        ImVec2(std::min(x1, window.xOf(box->end, x0, x1)) + 1, y + laneH + 1),
        colour, 0, 0, 2);
  }

  LaneRenderer::View plot(float x0, float x1, float y0, float laneH,
                          float gap) const {
    LaneRenderer::View view;
    view.start = window.start;
    view.end = window.end;
    view.x0 = x0;
    view.x1 = x1;
    view.y0 = y0;
    view.laneHeight = laneH;
    view.laneGap = gap;
    return view;
  }

  /// One lane per warp that recorded: waits as boxes in their stage's
  /// colour, copies, MMAs and arrives as ticks.
  void drawCtaLanes(const MeasuredTimeline &t, const MeasuredCta &cta,
                    const std::string &key, float width, float label,
                    float reserve) {
    ImDrawList *draw = ImGui::GetWindowDrawList();
    ImVec2 origin = ImGui::GetCursorScreenPos();
    // Never shorter than a line of text, so the labels stay whole: where
    // the pane is short it scrolls instead.
    float laneH =
        std::clamp((ImGui::GetContentRegionAvail().y - reserve -
                    ImGui::GetTextLineHeightWithSpacing()) /
                       float(cta.warps.size()),
                   ImGui::GetTextLineHeight() + 2, ImGui::GetFontSize() * 1.4f);
    float height = laneH * float(cta.warps.size());
    ImGui::InvisibleButton("warps", ImVec2(width, height));
    bool hovered = ImGui::IsItemHovered();
    float x0 = origin.x + label, x1 = origin.x + width;
    window.wheelDragAndFit(hovered, x0, x1, t.smsEndTime);
    for (size_t r = 0; r < cta.warps.size(); ++r) {
      float y = origin.y + laneH * float(r);
      draw->AddRectFilled(ImVec2(origin.x, y), ImVec2(x1, y + laneH - 2),
                          palette::theme().measuredLaneBackground);
      draw->PushClipRect(ImVec2(origin.x, y), ImVec2(x0 - 2, y + laneH), true);
      draw->AddText(ImVec2(origin.x + 2, y + 1),
                    palette::theme().measuredLaneText,
                    cta.warps[r].name.c_str());
      draw->PopClipRect();
    }
    draw->PushClipRect(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height),
                       true);
    if (GpuLanes::get().available())
      GpuLanes::get().draw(
          draw, "measured-cta/" + key + "/" + std::to_string(cta.cta),
          [&] { return warpEvents(t, cta); },
          plot(x0, x1, origin.y + 2, laneH, 5));
    else
      drawWarpsOnCpu(draw, t, cta, origin.y, laneH, x0, x1);
    drawCriticalChain(draw, t, cta, {window, origin.y, laneH, x0, x1});
    draw->PopClipRect();
    if (hovered)
      warpTooltip(t, cta, ImGui::GetIO().MousePos, origin.y, laneH, x0, x1);
  }

  void drawWarpsOnCpu(ImDrawList *draw, const MeasuredTimeline &t,
                      const MeasuredCta &cta, float y0, float laneH, float x0,
                      float x1) const {
    for (size_t r = 0; r < cta.warps.size(); ++r) {
      const MeasuredCtaLane &lane = cta.warps[r];
      float y = y0 + laneH * float(r);
      auto it = std::lower_bound(
          lane.events.begin(), lane.events.end(),
          float(window.start - lane.longest),
          [](const MeasuredCtaEvent &e, float at) { return e.start < at; });
      for (; it != lane.events.end() && it->start <= window.end; ++it) {
        float a = window.xOf(it->start, x0, x1),
              b = window.xOf(it->end, x0, x1);
        draw->AddRectFilled(ImVec2(a, y + 2),
                            ImVec2(std::max(b, a + 1), y + laneH - 4),
                            warpEventColour(t, it->name, it->end > it->start));
      }
    }
  }

  void warpTooltip(const MeasuredTimeline &t, const MeasuredCta &cta,
                   ImVec2 mouse, float y0, float laneH, float x0,
                   float x1) const {
    int r = int((mouse.y - y0) / laneH);
    if (r < 0 || size_t(r) >= cta.warps.size())
      return;
    const MeasuredCtaLane &lane = cta.warps[size_t(r)];
    if (mouse.x < x0) {
      ImGui::SetTooltip("%s: %zu events", lane.name.c_str(),
                        lane.events.size());
      return;
    }
    double at = window.timeAt(mouse.x, x0, x1);
    double slack = 2 * window.span() / std::max(1.0f, x1 - x0);
    std::string chain = criticalChainAt(t, cta.cta, lane.warp, at);
    auto it = std::upper_bound(
        lane.events.begin(), lane.events.end(), float(at + slack),
        [](float value, const MeasuredCtaEvent &e) { return value < e.start; });
    while (it != lane.events.begin()) {
      --it;
      if (it->end + slack >= at) {
        ImGui::SetTooltip("%s, %s\n%.3f - %.3f us (%.3f us)%s%s",
                          lane.name.c_str(), t.eventNames[it->name].c_str(),
                          usOf(t, it->start), usOf(t, it->end),
                          usOf(t, it->end - it->start),
                          chain.empty() ? "" : "\n", chain.c_str());
        return;
      }
      if (it->start + lane.longest < at - slack)
        break;
    }
    if (!chain.empty())
      ImGui::SetTooltip("%s at %.3f us\n%s", lane.name.c_str(), usOf(t, at),
                        chain.c_str());
  }

  void drawOnCpu(ImDrawList *draw, const MeasuredTimeline &t, float y0,
                 float laneH, float gap, float x0, float x1) const {
    for (size_t r = 0; r < t.sms.size(); ++r) {
      const MeasuredLane &sm = t.sms[r];
      float y = y0 + laneH * float(r);
      auto it = std::lower_bound(
          sm.events.begin(), sm.events.end(), window.start - sm.longest,
          [](const MeasuredEvent &e, double at) { return e.start < at; });
      for (; it != sm.events.end() && it->start <= window.end; ++it)
        draw->AddRectFilled(
            ImVec2(std::max(x0 - 1, window.xOf(it->start, x0, x1)), y),
            ImVec2(
                std::min(x1 + 1, std::max(window.xOf(it->end, x0, x1),
                                          window.xOf(it->start, x0, x1) + 1)),
                y + laneH - gap),
            palette::stage(int(it - sm.events.begin())));
    }
  }

  /// Round microseconds along the visible window, a tick and a label
  /// each, as many as fit (it said only where the window began and ended).
  void drawAxis(ImDrawList *draw, const MeasuredTimeline &t, ImVec2 at,
                float x1) const {
    double first = usOf(t, window.start), last = usOf(t, window.end);
    double span = std::max(1e-9, last - first);
    float room = ImGui::CalcTextSize("000.00 us").x * 1.5f;
    double step = niceTickStep(span, std::max(1.0, double((x1 - at.x) / room)));
    std::vector<LineInView> ticks;
    for (double us = std::ceil(first / step) * step; us <= last; us += step) {
      float x = at.x + float((us - first) / span) * (x1 - at.x);
      char text[48];
      std::snprintf(text, sizeof text, "%g us",
                    std::abs(us) < step * 1e-6 ? 0.0 : us);
      float w = ImGui::CalcTextSize(text).x;
      draw->AddLine(ImVec2(x, at.y), ImVec2(x, at.y + 3),
                    palette::theme().measuredLaneText);
      draw->AddText(ImVec2(std::clamp(x - w / 2, at.x, x1 - w), at.y + 2),
                    palette::theme().measuredLaneText, text);
      ticks.push_back({unsigned(ticks.size() + 1), text});
    }
    addTextInView("axis", std::move(ticks));
  }

  const MeasuredEvent *hoverTooltip(const MeasuredTimeline &t, ImVec2 mouse,
                                    float y0, float laneH, float x0,
                                    float x1) const {
    int r = int((mouse.y - y0) / laneH);
    if (r < 0 || size_t(r) >= t.sms.size())
      return nullptr;
    const MeasuredLane &sm = t.sms[size_t(r)];
    if (mouse.x < x0) {
      ImGui::SetTooltip("%s: %zu CTA%s", sm.name.c_str(), sm.events.size(),
                        sm.events.size() == 1 ? "" : "s");
      return nullptr;
    }
    double at = window.timeAt(mouse.x, x0, x1);
    double slack = 2 * window.span() / std::max(1.0f, x1 - x0);
    auto it = std::upper_bound(
        sm.events.begin(), sm.events.end(), at + slack,
        [](double value, const MeasuredEvent &e) { return value < e.start; });
    if (it == sm.events.begin())
      return nullptr;
    --it;
    if (it->end + slack < at)
      return nullptr;
    ImGui::SetTooltip("%s on %s (CTA %zu of %zu there)\n%.2f - %.2f us "
                      "(%.2f us)\nclick: its warps below",
                      it->name.c_str(), sm.name.c_str(),
                      size_t(it - sm.events.begin()) + 1, sm.events.size(),
                      usOf(t, it->start), usOf(t, it->end),
                      usOf(t, it->end - it->start));
    return &*it;
  }

  std::string shownKey;
  SmSummary summary; // of the recording shownKey names
  TimeWindow window;
  int64_t pickedCta = -1; // whose warps show under the SMs
  int64_t shownCta = -1;  // ... or, unpicked, the one shown
  PathField traceField{PathKinds::Traces};
  bool showModel = true;      // the model's lanes under the warps
  std::string noModel;        // why there is no model to compare, if none
  ModelComparison comparison; // the waits table and the model's chain
};

} // namespace

std::unique_ptr<Panel> createMeasuredPanel() {
  return std::make_unique<MeasuredPanel>();
}

} // namespace klx::app
