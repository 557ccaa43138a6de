//===- MeasuredLanes.h - What the Measured pane's lanes are made of -*- C++
//-*-===//
//
// The recordings the Measured pane draws, the CTAs' boxes among the SMs
// and the warps' events as lanes with their colours, and the legends that
// say what the colours mean: free functions, so the pane keeps only what
// it draws frame by frame.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_MEASUREDLANES_H
#define KLX_APP_PANELS_MEASUREDLANES_H

#include "core/AppState.h"
#include "render/LaneRenderer.h"

#include <imgui.h>

#include <cstdint>
#include <vector>

namespace klx::app {

/// The newest trace opened or recorded, if it is a file that could not
/// be read.
const GpuRunRecord *newestUnreadTrace(const AppState &state);
/// The newest run with a recording.
const GpuRunRecord *latestTraced(const AppState &state);

/// "CTA 5" -> 5; -1 for another name.
int64_t ctaOf(const MeasuredEvent &box);
/// CTA `cta`'s box among the SMs and its SM's lane, or null.
const MeasuredEvent *ctaBox(const MeasuredTimeline &t, int64_t cta,
                            size_t *lane = nullptr);
/// The CTA whose box ends last: the kernel's end.
int64_t lastToEnd(const MeasuredTimeline &t);

/// A wait in its stage's colour; another span (a Proton scope) in a
/// colour of its name's own; instants as ticks by kind.
ImU32 warpEventColour(const MeasuredTimeline &t, uint32_t name, bool span);
/// A CTA's warps' events as lanes, one per warp.
std::vector<LaneEvent> warpEvents(const MeasuredTimeline &t,
                                  const MeasuredCta &cta);
/// One box per CTA, its colour its place in its SM's order.
std::vector<LaneEvent> laneEvents(const MeasuredTimeline &t);

/// What the colours of a foreign trace's scopes mean (klx's own events
/// are the Barrier timeline's, whose legend is there).
void drawScopeLegend(const MeasuredTimeline &t, const MeasuredCta &cta);
/// What the SMs' box colours mean: a CTA's turn on its SM (1st, 2nd, ...),
/// for SMs that ran up to `mostPerSm` CTAs.
void drawSmOrderLegend(size_t mostPerSm);

} // namespace klx::app

#endif // KLX_APP_PANELS_MEASUREDLANES_H
