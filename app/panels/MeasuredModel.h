//===- MeasuredModel.h - The model beside a measured timeline ---*- C++ -*-===//
//
// The Measured pane compares the GPU with klx's model of the kernel as
// compiled now (the Barrier timeline's simulation): a table of each
// role's waits, measured and modelled, and the model's lanes drawn under
// the picked CTA's warps on the same time axis, starting where that CTA
// started, so a k step's rhythm on the GPU can be read against the one the
// latency model predicts.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_MEASUREDMODEL_H
#define KLX_APP_PANELS_MEASUREDMODEL_H

#include "core/AppState.h"
#include "views/MeasuredTimeline.h"
#include "views/ModelChain.h"
#include "views/WaitComparison.h"
#include "widgets/TimeWindow.h"

#include <cstdint>

namespace klx::app {

/// The simulated timeline of the kernel as compiled now, at the Barrier
/// timeline's step, when `t` was recorded from that kernel; else null and
/// `why` says why (no compile yet, no protocol model, a trace of another
/// kernel or from another tool).
const TimelineView *modelToCompare(const AppState &state,
                                   const MeasuredTimeline &t, std::string &why);

/// Each role's waits on the GPU and in the model, and what set the
/// model's end, made again only when the trace or the model changes: the
/// GPU's side walks every event of every traced CTA (millions in a
/// whole-kernel trace), too many to walk each frame.
class ModelComparison {
public:
  /// Brings the results up to date for the trace named `traceKey` (the
  /// pane's key of what it shows) and `model` (null: none).
  void update(const std::string &traceKey, const MeasuredTimeline &t,
              const TimelineView *model);
  const std::vector<RoleWaits> &roles() const { return waits; }
  const ModelChain &modelChain() const { return chain; }

private:
  std::string madeFor;
  uint64_t modelId = 0; // TimelineView::id; 0 without a model
  bool made = false;
  std::vector<RoleWaits> waits;
  ModelChain chain;
};

/// A table: role, waiting on the GPU (every traced CTA), waiting in the
/// model (`noModel`: why that column is empty); each split by barrier;
/// then what set the model's end.
void drawWaitComparison(const ModelComparison &comparison,
                        const MeasuredTimeline &t, const TimelineView *model,
                        const std::string &noModel);

/// The height drawModelLanes takes for `model`: a line and its lanes.
float modelLanesHeight(const TimelineView &model);

/// The model's lanes, `width` wide with a label column `labels` wide, on
/// the measured axis through `window`, cycle 0 of the model at
/// `ctaStart`; the wheel, a drag and a double click move `window` as over
/// the warps (`fitLength`: the kernel's span).
void drawModelLanes(const TimelineView &model, const MeasuredTimeline &t,
                    int64_t cta, double ctaStart, TimeWindow &window,
                    float width, float labels, double fitLength);

} // namespace klx::app

#endif // KLX_APP_PANELS_MEASUREDMODEL_H
