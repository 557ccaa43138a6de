//===- TimelineLanes.cpp - Simulated barrier lanes, drawn -----------------===//

#include "TimelineLanes.h"

#include "Palette.h"

#include <algorithm>
#include <cstdio>

using namespace klx;
using namespace klx::app;

ImU32 klx::app::stageColour(int slot) {
  static const ImU32 colours[] = {
      IM_COL32(120, 60, 60, 255),  IM_COL32(120, 95, 50, 255),
      IM_COL32(70, 100, 60, 255),  IM_COL32(60, 90, 120, 255),
      IM_COL32(100, 70, 120, 255), IM_COL32(60, 110, 110, 255),
      IM_COL32(110, 110, 60, 255),
  };
  constexpr int count = sizeof(colours) / sizeof(colours[0]);
  return colours[((slot % count) + count) % count];
}

std::string klx::app::describeEvent(const TimelineView &view,
                                    const sim::Event &e) {
  char buffer[256];
  std::string where =
      e.barrier >= 0 && e.barrier < int(view.barrierNames.size())
          ? view.barrierNames[e.barrier] + "[" + std::to_string(e.slot) + "]"
          : "";
  if (view.moves)
    std::snprintf(buffer, sizeof buffer,
                  "%s %s\nstep %lld, phase %lld\nmove %.0f", e.label.c_str(),
                  where.c_str(), (long long)e.step, (long long)e.phase,
                  e.start + 1);
  else if (e.end > e.start)
    std::snprintf(buffer, sizeof buffer,
                  "%s %s\nstep %lld, phase %lld\ncycles %.0f - %.0f (%.0f)",
                  e.label.c_str(), where.c_str(), (long long)e.step,
                  (long long)e.phase, e.start, e.end, e.end - e.start);
  else
    std::snprintf(buffer, sizeof buffer,
                  "%s %s\nstep %lld, phase %lld\ncycle %.0f", e.label.c_str(),
                  where.c_str(), (long long)e.step, (long long)e.phase,
                  e.start);
  return buffer;
}

const sim::Event *klx::app::drawSimulatedLanes(ImDrawList *draw,
                                               const TimelineView &view,
                                               ImVec2 origin, float width,
                                               CycleWindow window,
                                               std::optional<ImVec2> mouse) {
  double viewStart = window.start, viewEnd = window.end;
  float x0 = origin.x + labelWidth(), x1 = origin.x + width;
  double span = std::max(1e-9, viewEnd - viewStart);
  auto toX = [&](double t) {
    return float(x0 + (t - viewStart) / span * (x1 - x0));
  };
  const sim::Event *under = nullptr;
  for (size_t r = 0; r < view.lanes.size(); ++r) {
    const TimelineLane &lane = view.lanes[r];
    float y = origin.y + laneHeight() * float(r);
    draw->AddRectFilled(ImVec2(origin.x, y), ImVec2(x1, y + laneHeight() - 2),
                        IM_COL32(30, 30, 34, 255));
    char label[96];
    if (view.moves)
      std::snprintf(label, sizeof label, "%s", lane.role.c_str());
    else
      std::snprintf(label, sizeof label, "%s %.0f%%", lane.role.c_str(),
                    100 * lane.waitingShare);
    draw->AddText(ImVec2(origin.x + 4, y + 3), palette::role(int(r)), label);
    float foldEnd = -1, foldStart = 0;
    float lastTick = -1e9f; // ticks closer than that fold into one
    float lastMarker = -1e9f;
    auto flushFold = [&] {
      if (foldEnd >= 0)
        draw->AddRectFilled(
            ImVec2(foldStart, y + 4),
            ImVec2(std::max(foldEnd, foldStart + 1), y + laneHeight() - 6),
            IM_COL32(110, 110, 120, 255));
      foldEnd = -1;
    };
    for (size_t i = view.firstVisible(lane, viewStart);
         i < lane.events.size() && lane.events[i].start <= viewEnd; ++i) {
      const sim::Event &e = lane.events[i];
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
        ImU32 fill = e.kind == sim::Event::Kind::Wait ? stageColour(e.slot)
                                                      : palette::role(int(r));
        draw->AddRectFilled(ImVec2(a, y + 3), ImVec2(b, y + laneHeight() - 5),
                            fill);
      } else if (e.kind == sim::Event::Kind::PhaseDone) {
        // A phase flip: a small triangle in the stage's colour on top.
        if (a - lastMarker >= 4) {
          lastMarker = a;
          ImU32 c = stageColour(e.slot) | IM_COL32(60, 60, 60, 0);
          draw->AddTriangleFilled(ImVec2(a - 3, y), ImVec2(a + 3, y),
                                  ImVec2(a, y + 5), c);
        }
      } else if (a - lastTick >= kFoldPixels) {
        lastTick = a;
        ImU32 tick =
            e.kind == sim::Event::Kind::CopyDone ? IM_COL32(120, 220, 120, 255)
            : e.kind == sim::Event::Kind::Copy   ? IM_COL32(230, 210, 90, 255)
                                                 : IM_COL32(230, 230, 230, 255);
        draw->AddLine(ImVec2(a, y + 2), ImVec2(a, y + laneHeight() - 4), tick);
      }
      if (mouse && mouse->y >= y && mouse->y < y + laneHeight() &&
          mouse->x >= a - 2 && mouse->x <= std::max(b, a + 2))
        under = &e;
    }
    flushFold();
  }
  // Where a counterexample fails: a red line through every lane.
  if (view.moves && view.endTime > viewStart && view.endTime - 1 <= viewEnd) {
    float x = toX(view.endTime - 0.5);
    draw->AddLine(ImVec2(x, origin.y),
                  ImVec2(x, origin.y + laneHeight() * float(view.lanes.size())),
                  IM_COL32(240, 80, 70, 255), 2.0f);
  }
  return under;
}
