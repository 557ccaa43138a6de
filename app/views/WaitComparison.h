//===- WaitComparison.h - Each role's waits, measured and modelled -*- C++
//-*-===//
//
// The Measured pane's answer to "did the kernel wait where the model said
// it would": per role, the share of its time spent blocked on barriers on
// the GPU (every traced warp of that role, each from its first event to
// its last, as klx-run counts it) beside the same share in the simulated
// timeline of the kernel as compiled now, each split by barrier.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_WAITCOMPARISON_H
#define KLX_APP_VIEWS_WAITCOMPARISON_H

#include "views/MeasuredTimeline.h"
#include "views/TimelineView.h"

#include <string>
#include <utility>
#include <vector>

namespace klx::app {

/// One side's waiting: the share of the role's time, and its parts by
/// barrier ("full", "empty", "turn"), largest first. `known` is false
/// where that side has no lane of the role.
struct WaitShare {
  bool known = false;
  double share = 0;
  std::vector<std::pair<std::string, double>> byBarrier;
  /// "34% (full 30%, empty 4%)", or "-" when not known.
  std::string describe() const;
};

struct RoleWaits {
  std::string role; // "producer", "consumer", "consumer0", ...
  WaitShare measured, model;
};

/// Roles in the measured trace's order (warps by index), then any the
/// model has that the trace lacks. `model` may be null (no simulated
/// timeline) or a view without lanes.
std::vector<RoleWaits> compareWaits(const MeasuredTimeline &measured,
                                    const TimelineView *model);

/// "producer" from a measured warp's name "warp 8 (producer)"; the name
/// itself where it has no role in parentheses.
std::string roleOfWarp(const std::string &warpName);
/// "consumer" from a clustered model's lane "consumer (CTA 1)".
std::string roleWithoutCta(const std::string &lane);
/// "full" from "full_a", "full (CTA 1)" or "full[2]": what the GPU's
/// events name (they say the stage and pipeline apart).
std::string barrierKind(const std::string &name);
/// Where a model lane's role finished: the end of its last own op (its
/// copies land, and phases complete, after it has moved on), as the
/// simulator counts a role's time.
double lastOwnOpEnd(const TimelineLane &lane);

} // namespace klx::app

#endif // KLX_APP_VIEWS_WAITCOMPARISON_H
