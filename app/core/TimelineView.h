//===- TimelineView.h - What the Barrier timeline pane draws ----*- C++ -*-===//
//
// The simulated timelines of a run (one per step that has a protocol
// model: klx's own model of a klx kernel, and the one read from the nvgpu
// ops klx-to-nvgpu wrote), made on the compile worker's thread, with what
// the pane needs to draw fast:
// events sorted by start per lane and the longest event per lane, so the
// visible window is found by binary search.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_TIMELINEVIEW_H
#define KLX_APP_CORE_TIMELINEVIEW_H

#include "klx/Analysis/Protocol/BarrierSim.h"
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

/// One view per step that has a protocol model (of its first kernel), in
/// step order, and which of them the run's timeline step is; with none,
/// one view saying why.
struct TimelineViews {
  std::vector<TimelineView> views;
  size_t preferred = 0;

  /// The view read at `stepName`, else the preferred one.
  const TimelineView &pick(const std::string &stepName) const;
};

TimelineViews buildTimelineViews(const PipelineRun &run);

/// The view of one simulated model (what buildTimelineViews does for each
/// step's first kernel), also for benchmarks with made-up models.
TimelineView makeTimelineView(const sim::ProtocolModel &model,
                              sim::Timeline timeline, int step,
                              std::string stepName);

/// The source line of an IR line of snapshot `step`, 0 when unknown.
unsigned sourceLineOf(const PipelineRun &run, int step, unsigned irLine);

} // namespace klx::app

#endif // KLX_APP_CORE_TIMELINEVIEW_H
