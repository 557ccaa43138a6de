//===- MeasuredChain.h - The critical chain over a CTA's warps --*- C++ -*-===//
//
// klx-run's critical chain (what set the kernel's end, walked back from
// the CTA that ended last: a warp working, a load in flight, a release or
// a turn reaching the warp that waited) drawn under the warps' lanes of
// that CTA in the Measured pane, a colour per kind of link, with a line
// where the chain passes from one warp to another.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_MEASUREDCHAIN_H
#define KLX_APP_PANELS_MEASUREDCHAIN_H

#include "views/MeasuredTimeline.h"
#include "widgets/TimeWindow.h"

#include <imgui.h>

namespace klx::app {

/// Where the warps' lanes are: lane r spans [y0 + r laneH, + laneH), time
/// across [x0, x1] through `window`.
struct WarpLanesGeometry {
  const TimeWindow &window;
  float y0, laneH, x0, x1;
};

/// Bars along the bottom of the lanes of `cta` where the chain ran on
/// them (the chain's CTA, or another CTA of its cluster it went into).
void drawCriticalChain(ImDrawList *draw, const MeasuredTimeline &t,
                       const MeasuredCta &cta, const WarpLanesGeometry &g);

/// A line of the colours of the chain's parts on `cta`; what each means,
/// and which CTAs the chain passed through, on hover.
void drawCriticalChainLegend(const MeasuredTimeline &t, int64_t cta);

/// "on the critical chain: a load in flight (...)" for warp `warp` at
/// `at` (cycles), or "" when the chain was elsewhere.
std::string criticalChainAt(const MeasuredTimeline &t, int64_t cta,
                            int64_t warp, double at);

} // namespace klx::app

#endif // KLX_APP_PANELS_MEASUREDCHAIN_H
