//===- TimelineView.h - What the Barrier timeline pane draws ----*- C++ -*-===//
//
// The simulated timeline of the run's first warp-specialized kernel, made
// on the compile worker's thread, with what the pane needs to draw fast:
// events sorted by start per lane and the longest event per lane, so the
// visible window is found by binary search.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_TIMELINEVIEW_H
#define KLX_APP_CORE_TIMELINEVIEW_H

#include "klx/Analysis/BarrierSim.h"
#include "klx/Pipeline/PipelineRun.h"

#include <string>
#include <vector>

namespace klx::app {

struct TimelineLane {
  std::string role;
  std::vector<sim::Event> events; // by start
  double longest = 0;             // the longest event's duration
  double waitingShare = 0;
};

struct TimelineView {
  /// Empty when there is a timeline; else why there is none.
  std::string unavailable;
  std::string kernel;
  int step = -1; // the snapshot the model was read at
  std::string stepName;
  std::vector<std::string> barrierNames;
  std::vector<TimelineLane> lanes;
  sim::Verdict verdict;
  double endTime = 0;
  std::string latency;
  std::string readFrom;    // "klx pipelines" or "nvgpu ops"
  std::string assumptions; // how the model was sized, in words

  /// Index of the first event of `lane` that may reach into [t, ...).
  size_t firstVisible(const TimelineLane &lane, double t) const;
};

TimelineView buildTimelineView(const PipelineRun &run);

/// The view of one simulated model (what buildTimelineView does for the
/// run's first kernel), also for benchmarks with made-up models.
TimelineView makeTimelineView(const sim::ProtocolModel &model,
                              sim::Timeline timeline, int step,
                              std::string stepName);

/// The source line of an IR line of snapshot `step`, 0 when unknown.
unsigned sourceLineOf(const PipelineRun &run, int step, unsigned irLine);

} // namespace klx::app

#endif // KLX_APP_CORE_TIMELINEVIEW_H
