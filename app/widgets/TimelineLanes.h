//===- TimelineLanes.h - Simulated barrier lanes, drawn ---------*- C++ -*-===//
//
// What the Barrier timeline pane and the Compare window share: one lane
// per role of a simulated protocol, waits as boxes in their stage's
// colour, MMAs in the role's colour, arrives and copies as ticks, phase
// flips as small marks. With OpenGL 3.3 the GPU draws the events
// (GpuLanes: uploaded once, the window a uniform), so a frame's CPU cost
// does not grow with them; without it, ImGui's draw list draws the events
// in the visible window (binary search), runs narrower than a couple of
// pixels folded into one box.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_TIMELINELANES_H
#define KLX_APP_WIDGETS_TIMELINELANES_H

#include "views/TimelineView.h"

#include <imgui.h>

#include <optional>
#include <string>

namespace klx::app {

/// A lane's height and the width of the role labels, at the font's size
/// (they grow as the window zooms).
inline float laneHeight() { return ImGui::GetFontSize() * (22.0f / 15.0f); }
inline float labelWidth() { return ImGui::GetFontSize() * (110.0f / 15.0f); }
inline constexpr float kFoldPixels = 2.0f;

/// An event in words: what, which barrier and slot, step, phase, cycles.
std::string describeEvent(const TimelineView &view, const sim::Event &e);

/// The cycles drawn from the label column's edge to the right edge.
struct CycleWindow {
  double start = 0, end = 1;
};

/// Draws `view`'s lanes from `origin`, `width` wide (labels included, in
/// a column `labels` wide: labelWidth() where 0), each `lane` tall
/// (laneHeight() at least); returns the event under `mouse`, if any.
const sim::Event *drawSimulatedLanes(ImDrawList *draw, const TimelineView &view,
                                     ImVec2 origin, float width,
                                     CycleWindow window,
                                     std::optional<ImVec2> mouse,
                                     float lane = 0, float labels = 0);

/// One lane drawn with ImGui's draw list (where the GPU cannot): the
/// events in `window`, runs narrower than kFoldPixels folded into one box;
/// sets `under` to the event under `mouse`.
void drawLaneOnCpu(ImDrawList *draw, const TimelineView &view,
                   const TimelineLane &lane, float y, float laneH, float x0,
                   float x1, CycleWindow window, std::optional<ImVec2> mouse,
                   const sim::Event *&under);

/// The time axis under lanes that end at `y`: ticks at round values
/// (1, 2, 2.5 or 5 times a power of ten) no closer than their labels allow,
/// faint lines through the lanes above (from `lanesTop`), and the unit
/// under the labels. Returns the height it took.
float drawTimeAxis(ImDrawList *draw, ImVec2 origin, float width, float lanesTop,
                   CycleWindow window, const char *unit, float labels = 0);

/// The label column for `view`'s lanes in a pane `width` wide: as wide as
/// its widest label ("consumer (threads 128-255) 35%"), at least
/// labelWidth() and at most 30% of the pane, where a label is clipped and
/// whole on hover.
float laneLabelColumn(const TimelineView &view, float width);

/// "consumer (threads 0-127)" -> "consumer 0-127", "producer (thread
/// 256)" -> "producer 256"; another role as it is: a lane's label where the
/// whole name does not fit.
std::string shortLaneLabel(const std::string &role);

/// What the lanes draw, named: waits in their stage's colour, MMAs in the
/// role's, arrives and copy issues as ticks, copies landing, phase flips;
/// with `blocked`, a wait still blocked when the run stopped; wrapped over
/// as many rows as `width` needs. Returns the height it took (with a null
/// `draw`, only measures it).
float drawLaneLegend(ImDrawList *draw, ImVec2 origin, float width,
                     bool blocked = false);

} // namespace klx::app

#endif // KLX_APP_WIDGETS_TIMELINELANES_H
