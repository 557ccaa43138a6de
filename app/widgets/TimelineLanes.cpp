//===- TimelineLanes.cpp - Simulated barrier lanes, drawn -----------------===//

#include "TimelineLanes.h"

#include "GpuLanes.h"
#include "Palette.h"
#include "TextInView.h"

#include <cmath>

#include <algorithm>
#include <cstdio>

using namespace klx;
using namespace klx::app;

/// "producer (CTA 1)" -> "CTA 1 producer": in the narrow label column a
/// cluster's lanes differ by their first words, not their clipped last.
static std::string ctaFirst(const std::string &role) {
  llvm::StringRef name(role);
  size_t open = name.rfind(" (CTA ");
  if (open == llvm::StringRef::npos || !name.ends_with(")"))
    return role;
  llvm::StringRef cta = name.slice(open + 2, name.size() - 1);
  return (cta + " " + name.take_front(open)).str();
}

std::string klx::app::describeEvent(const TimelineView &view,
                                    const sim::Event &e) {
  // "wait empty" on barrier empty, slot 2: the name once, then the slot.
  std::string text = e.label;
  if (e.stuck)
    return text + "\nstill waiting when the run stopped" +
           (view.moves
                ? ""
                : " (from cycle " + std::to_string(int64_t(e.start)) + ")");
  if (e.barrier >= 0 && e.barrier < int(view.barrierNames.size())) {
    const std::string &barrier = view.barrierNames[e.barrier];
    if (llvm::StringRef(e.label).contains(barrier))
      text += ", slot " + std::to_string(e.slot);
    else
      text += " " + barrier + "[" + std::to_string(e.slot) + "]";
  }
  std::string facts;
  if (e.step >= 0)
    facts = "loop step " + std::to_string(e.step);
  if (e.phase >= 0)
    facts += (facts.empty() ? "" : ", ") + std::string("phase ") +
             std::to_string(e.phase);
  if (!facts.empty())
    text += "\n" + facts;
  char time[96];
  if (view.moves)
    std::snprintf(time, sizeof time, "move %.0f", e.start + 1);
  else if (e.end > e.start)
    std::snprintf(time, sizeof time, "cycles %.0f - %.0f (%.0f)", e.start,
                  e.end, e.end - e.start);
  else
    std::snprintf(time, sizeof time, "cycle %.0f", e.start);
  text += "\n" + std::string(time);
  int lane = view.laneOf(&e);
  for (const FlowArrow &flow : view.flowsOf(lane, e)) {
    char line[160];
    if (e.kind == sim::Event::Kind::Wait)
      std::snprintf(line, sizeof line, "released by %s at cycle %.0f",
                    view.lanes[flow.fromLane].role.c_str(), flow.from);
    else
      std::snprintf(line, sizeof line, "releases %s's wait at cycle %.0f",
                    view.lanes[flow.toLane].role.c_str(), flow.to);
    text += "\n" + std::string(line);
  }
  return text;
}

namespace {

/// The colour the CPU path gives a box or a tick.
ImU32 eventColour(const TimelineLane &lane, const sim::Event &e) {
  if (e.stuck)
    return palette::theme().failedMarker;
  if (e.end > e.start)
    return e.kind == sim::Event::Kind::Wait ? palette::stage(e.slot)
                                            : palette::role(lane.colourRole);
  if (e.kind == sim::Event::Kind::CopyDone)
    return palette::theme().landedTick;
  if (e.kind == sim::Event::Kind::Copy)
    return palette::theme().copyTick;
  return palette::theme().brightText;
}

/// What identifies the lanes' content for the GPU's copy of them: the
/// view (its id, which a new view never shares) and the theme (the colours
/// are baked in).
std::string gpuKey(const TimelineView &view, const char *part) {
  char key[96];
  std::snprintf(key, sizeof key, "%llu/%08x/%s",
                static_cast<unsigned long long>(view.id),
                unsigned(palette::theme().laneBackground), part);
  return key;
}

/// Boxes and ticks (the GPU draws a tick one pixel wide), or the phase
/// flips, of every lane.
std::vector<LaneEvent> gpuEvents(const TimelineView &view, bool flips) {
  std::vector<LaneEvent> out;
  for (size_t r = 0; r < view.lanes.size(); ++r)
    for (const sim::Event &e : view.lanes[r].events) {
      bool flip = e.kind == sim::Event::Kind::PhaseDone && e.end <= e.start;
      if (flip != flips)
        continue;
      out.push_back(
          {e.start, e.end, uint32_t(r),
           flip ? palette::stageMark(e.slot) : eventColour(view.lanes[r], e)});
    }
  return out;
}

/// The event of lane `lane` within two pixels of `mouse`, by binary search
/// (the GPU path draws without walking the events).
const sim::Event *eventAt(const TimelineView &view, const TimelineLane &lane,
                          double at, double slack) {
  const sim::Event *found = nullptr;
  for (size_t i = view.firstVisible(lane, at - slack);
       i < lane.events.size() && lane.events[i].start <= at + slack; ++i) {
    const sim::Event &e = lane.events[i];
    if (e.end + slack >= at && e.start - slack <= at)
      found = &e;
  }
  return found;
}

} // namespace

/// "consumer (threads 0-127)" -> "consumer 0-127", "producer (thread
/// 256)" -> "producer 256"; another role as it is.
std::string klx::app::shortLaneLabel(const std::string &role) {
  size_t open = role.find(" (thread");
  if (open == std::string::npos || role.back() != ')')
    return role;
  std::string threads = role.substr(open + 2, role.size() - open - 3);
  return role.substr(0, open) + " " + threads.substr(threads.find(' ') + 1);
}

namespace {
/// A lane's label, on one line or two.
struct LaneLabel {
  std::string first, second;
};

/// "consumer (threads 0-127) 35%" where it fits `room` pixels; else, for
/// part of a role, the role and its share over its threads where the lane
/// has room for two lines, or "consumer 0-127 35%" where it has not (two
/// lanes cut to "consumer (threa" told a class nothing).
LaneLabel laneLabel(const TimelineView &view, const TimelineLane &lane,
                    float room, float laneH) {
  std::string role = ctaFirst(lane.role);
  char share[16] = "";
  if (!view.moves)
    std::snprintf(share, sizeof share, " %.0f%%", 100 * lane.waitingShare);
  LaneLabel label{role + share, ""};
  size_t open = role.find(" (thread");
  if (ImGui::CalcTextSize(label.first.c_str()).x <= room ||
      open == std::string::npos || role.back() != ')')
    return label;
  std::string base = role.substr(0, open);
  std::string threads = role.substr(open + 2, role.size() - open - 3);
  if (laneH >= 2 * ImGui::GetTextLineHeight() + 4)
    return {base + share, threads};
  // One line: the share goes first where both do not fit (the tooltip
  // has it).
  std::string compact = shortLaneLabel(role);
  if (ImGui::CalcTextSize((compact + share).c_str()).x <= room)
    return {compact + share, ""};
  return {compact, ""};
}
} // namespace

const sim::Event *klx::app::drawSimulatedLanes(
    ImDrawList *draw, const TimelineView &view, ImVec2 origin, float width,
    CycleWindow window, std::optional<ImVec2> mouse, float lane, float labels) {
  float laneH = std::max(lane, laneHeight());
  double viewStart = window.start, viewEnd = window.end;
  float x0 = origin.x + (labels > 0 ? labels : labelWidth()),
        x1 = origin.x + width;
  double span = std::max(1e-9, viewEnd - viewStart);
  auto toX = [&](double t) {
    return float(x0 + (t - viewStart) / span * (x1 - x0));
  };
  const sim::Event *under = nullptr;
  bool gpu = GpuLanes::get().available();
  std::vector<LineInView> shown;
  for (size_t r = 0; r < view.lanes.size(); ++r) {
    const TimelineLane &events = view.lanes[r];
    float y = origin.y + laneH * float(r);
    draw->AddRectFilled(ImVec2(origin.x, y), ImVec2(x1, y + laneH - 2),
                        palette::theme().laneBackground);
    LaneLabel label = laneLabel(view, events, x0 - origin.x - 6, laneH);
    // For a screenshot's layout file: the label as drawn, where the lane
    // is wholly in view.
    if (recordingTextInView() && y >= draw->GetClipRectMin().y - 0.5f &&
        y + laneH <= draw->GetClipRectMax().y + 0.5f)
      shown.push_back(
          {unsigned(r + 1), label.second.empty()
                                ? label.first
                                : label.first + " " + label.second});
    draw->PushClipRect(ImVec2(origin.x, y), ImVec2(x0 - 2, y + laneH), true);
    draw->AddText(ImVec2(origin.x + 4, y + 3), palette::role(events.colourRole),
                  label.first.c_str());
    if (!label.second.empty())
      draw->AddText(ImVec2(origin.x + 4, y + 3 + ImGui::GetTextLineHeight()),
                    palette::theme().dimText, label.second.c_str());
    draw->PopClipRect();
    // The column clips a long label ("CTA 1 consumer 35%"): whole on hover.
    if (mouse && mouse->x >= origin.x && mouse->x < x0 && mouse->y >= y &&
        mouse->y < y + laneH)
      ImGui::SetTooltip("%s", view.moves ? events.role.c_str()
                                         : (events.role + ": waits " +
                                            std::to_string(int(std::lround(
                                                100 * events.waitingShare))) +
                                            "% of its time")
                                               .c_str());
    if (!gpu)
      drawLaneOnCpu(draw, view, events, y, laneH, x0, x1, window, mouse, under);
  }
  addTextInView("lanes", std::move(shown));
  if (gpu) {
    // Every box and tick, then the phase flips' marks on top, by shaders.
    LaneRenderer::View boxes;
    boxes.start = viewStart;
    boxes.end = viewEnd;
    boxes.x0 = x0;
    boxes.x1 = x1;
    boxes.y0 = origin.y + 3;
    boxes.laneHeight = laneH;
    boxes.laneGap = 8;
    draw->PushClipRect(ImVec2(x0, origin.y),
                       ImVec2(x1, origin.y + laneH * float(view.lanes.size())),
                       true);
    GpuLanes::get().draw(
        draw, gpuKey(view, "boxes"), [&] { return gpuEvents(view, false); },
        boxes);
    LaneRenderer::View flips = boxes;
    flips.y0 = origin.y;
    flips.laneGap = laneH - 5;
    GpuLanes::get().draw(
        draw, gpuKey(view, "flips"), [&] { return gpuEvents(view, true); },
        flips);
    draw->PopClipRect();
    if (mouse && mouse->x >= x0 && mouse->x <= x1 && mouse->y >= origin.y) {
      size_t r = size_t((mouse->y - origin.y) / laneH);
      double cyclesPerPixel = span / std::max(1.0f, x1 - x0);
      if (r < view.lanes.size())
        under = eventAt(view, view.lanes[r],
                        viewStart + (mouse->x - x0) * cyclesPerPixel,
                        2 * cyclesPerPixel);
    }
  }
  // Where a counterexample fails: a red line through every lane.
  if (view.moves && view.endTime > viewStart && view.endTime - 1 <= viewEnd) {
    float x = toX(view.endTime - 0.5);
    draw->AddLine(ImVec2(x, origin.y),
                  ImVec2(x, origin.y + laneH * float(view.lanes.size())),
                  palette::theme().deadlockLine, 2.0f);
  }
  return under;
}

/// One lane with ImGui's draw list: the events in the window, runs
/// narrower than a couple of pixels folded into one box.
void klx::app::drawLaneOnCpu(ImDrawList *draw, const TimelineView &view,
                             const TimelineLane &events, float y, float laneH,
                             float x0, float x1, CycleWindow window,
                             std::optional<ImVec2> mouse,
                             const sim::Event *&under) {
  double viewStart = window.start, viewEnd = window.end;
  double span = std::max(1e-9, viewEnd - viewStart);
  auto toX = [&](double t) {
    return float(x0 + (t - viewStart) / span * (x1 - x0));
  };
  float foldEnd = -1, foldStart = 0;
  float lastTick = -1e9f; // ticks closer than that fold into one
  float lastMarker = -1e9f;
  auto flushFold = [&] {
    if (foldEnd >= 0)
      draw->AddRectFilled(
          ImVec2(foldStart, y + 4),
          ImVec2(std::max(foldEnd, foldStart + 1), y + laneH - 6),
          palette::theme().foldedEvents);
    foldEnd = -1;
  };
  for (size_t i = view.firstVisible(events, viewStart);
       i < events.events.size() && events.events[i].start <= viewEnd; ++i) {
    const sim::Event &e = events.events[i];
    float a = toX(e.start), b = toX(e.end);
    if (b < x0 || a > x1)
      continue; // started before the window and ended before it too
    a = std::max(a, x0 - 1);
    b = std::min(b, x1 + 1);
    bool box = e.end > e.start;
    if (box && b - a < kFoldPixels) { // too narrow: fold into a run
      if (foldEnd >= 0 && a - foldEnd > kFoldPixels)
        flushFold();
      if (foldEnd < 0)
        foldStart = a;
      foldEnd = std::max(foldEnd, b);
      continue;
    }
    if (box) {
      flushFold(); // a wide box ends the run (ticks do not)
      draw->AddRectFilled(ImVec2(a, y + 3), ImVec2(b, y + laneH - 5),
                          eventColour(events, e));
    } else if (e.kind == sim::Event::Kind::PhaseDone) {
      // A phase flip: a small triangle in the stage's colour on top.
      if (a - lastMarker >= 4) {
        lastMarker = a;
        ImU32 c = palette::stageMark(e.slot);
        draw->AddTriangleFilled(ImVec2(a - 3, y), ImVec2(a + 3, y),
                                ImVec2(a, y + 5), c);
      }
    } else if (a - lastTick >= kFoldPixels) {
      lastTick = a;
      draw->AddLine(ImVec2(a, y + 2), ImVec2(a, y + laneH - 4),
                    eventColour(events, e));
    }
    if (mouse && mouse->y >= y && mouse->y < y + laneH && mouse->x >= a - 2 &&
        mouse->x <= std::max(b, a + 2))
      under = &e;
  }
  flushFold();
}

float klx::app::laneLabelColumn(const TimelineView &view, float width) {
  // The whole labels where they take up to 30% of the pane; else at least
  // their short forms ("consumer 128-255"), up to half of a narrow pane: a
  // class at 1280x720 read "consumer 128-2" and "producer 256 9".
  float widest = 0, shortest = 0;
  for (const TimelineLane &lane : view.lanes) {
    std::string role = ctaFirst(lane.role);
    widest =
        std::max(widest, ImGui::CalcTextSize((role + " 100%").c_str()).x + 10);
    shortest = std::max(
        shortest, ImGui::CalcTextSize(shortLaneLabel(role).c_str()).x + 10);
  }
  float column =
      std::clamp(widest, labelWidth(), std::max(labelWidth(), width * 0.3f));
  if (column < shortest)
    column = std::min(shortest, width * (width < 700 ? 0.5f : 0.3f));
  return std::max(column, labelWidth());
}

float klx::app::drawTimeAxis(ImDrawList *draw, ImVec2 origin, float width,
                             float lanesTop, CycleWindow window,
                             const char *unit, float labels) {
  float x0 = origin.x + (labels > 0 ? labels : labelWidth()),
        x1 = origin.x + width;
  double span = std::max(1e-9, window.end - window.start);
  // Room for the widest label the axis writes (a multiple of a round
  // step near its far end), twice over.
  double rough = niceTickStep(span, 8);
  double far = std::max(std::abs(window.start), std::abs(window.end));
  std::string widest = formatTick(std::floor(far / rough) * rough, rough);
  float spacing = std::max(ImGui::CalcTextSize(widest.c_str()).x,
                           ImGui::CalcTextSize("00.0k").x) *
                      2 +
                  ImGui::GetFontSize();
  double step = niceTickStep(span, std::max(1.0, double((x1 - x0) / spacing)));
  draw->AddText(ImVec2(origin.x + 4, origin.y), palette::theme().dimText, unit);
  for (double t = std::ceil(window.start / step) * step; t <= window.end;
       t += step) {
    float x = float(x0 + (t - window.start) / span * (x1 - x0));
    draw->AddLine(ImVec2(x, lanesTop), ImVec2(x, origin.y),
                  palette::theme().gridWash);
    std::string label = formatTick(t, step);
    float labelWidth = ImGui::CalcTextSize(label.c_str()).x;
    float at = std::min(x - labelWidth / 2, x1 - labelWidth);
    draw->AddText(ImVec2(std::max(at, x0), origin.y), palette::theme().dimText,
                  label.c_str());
  }
  return ImGui::GetTextLineHeightWithSpacing();
}

float klx::app::drawLaneLegend(ImDrawList *draw, ImVec2 origin, float width,
                               bool blocked) {
  float font = ImGui::GetFontSize();
  float rowHeight = ImGui::GetTextLineHeightWithSpacing();
  float x = origin.x + 4, y = origin.y;
  float h = font * 0.8f;
  // Each entry is a mark and its words; an entry that does not fit on the
  // row starts the next one. Without a draw list, only measures.
  auto entry = [&](float markWidth, const char *words, auto drawMark) {
    float entryWidth = markWidth + 4 + ImGui::CalcTextSize(words).x;
    if (x > origin.x + 4 && x + entryWidth > origin.x + width) {
      x = origin.x + 4;
      y += rowHeight;
    }
    float top = y + (font - h) / 2;
    if (draw) {
      drawMark(x, top);
      draw->AddText(ImVec2(x + markWidth + 4, y), palette::theme().dimText,
                    words);
    }
    x += entryWidth + font;
  };
  auto tick = [&](ImU32 colour) {
    return [=](float at, float top) {
      draw->AddLine(ImVec2(at + 2, top), ImVec2(at + 2, top + h), colour, 2);
    };
  };
  entry(font * 2 + 2, "wait on a stage", [&](float at, float top) {
    draw->AddRectFilled(ImVec2(at, top), ImVec2(at + font, top + h),
                        palette::stage(0));
    draw->AddRectFilled(ImVec2(at + font + 2, top),
                        ImVec2(at + 2 * font + 2, top + h), palette::stage(1));
  });
  if (blocked)
    entry(font, "blocked when it stopped", [&](float at, float top) {
      draw->AddRectFilled(ImVec2(at, top), ImVec2(at + font, top + h),
                          palette::theme().failedMarker);
    });
  entry(font, "MMA", [&](float at, float top) {
    draw->AddRectFilled(ImVec2(at, top), ImVec2(at + font, top + h),
                        palette::roleSlot(1));
  });
  entry(5, "arrive", tick(palette::theme().brightText));
  entry(5, "copy issued", tick(palette::theme().copyTick));
  entry(5, "copy landed", tick(palette::theme().landedTick));
  entry(7, "phase flip", [&](float at, float top) {
    draw->AddTriangleFilled(ImVec2(at, top), ImVec2(at + 7, top),
                            ImVec2(at + 3.5f, top + 6), palette::stage(0));
  });
  entry(font, "too close to tell apart", [&](float at, float top) {
    draw->AddRectFilled(ImVec2(at, top + 2), ImVec2(at + font, top + h - 2),
                        palette::theme().foldedEvents);
  });
  return y - origin.y + rowHeight;
}
