//===- TimelineView.h - What the Barrier timeline pane draws ----*- C++ -*-===//
//
// The simulated timelines of a run (one per step that has a protocol
// model: klx's own model of a klx kernel, and the one read from the nvgpu
// ops klx-to-nvgpu wrote), made on the compile worker's thread, with what
// the pane needs to draw fast:
// events sorted by start per lane and the longest event per lane, so the
// visible window is found by binary search. Each model is also explored
// for every timing (klx verify), and a counterexample kept as a view of
// its own on the same lanes.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_TIMELINEVIEW_H
#define KLX_APP_VIEWS_TIMELINEVIEW_H

#include "klx/Analysis/Protocol/BarrierSim.h"
#include "klx/Analysis/Protocol/Verify.h"
#include "klx/Pipeline/PipelineRun.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace klx::app {

struct TimelineLane {
  std::string role;
  /// The role whose colour the lane takes: its own name, or for a lane
  /// named after threads ("threads 0-127", read from nvgpu ops) the role
  /// those threads run in the step's role tree.
  std::string colourRole;
  std::vector<sim::Event> events; // by start
  double longest = 0;             // the longest event's duration
  double waitingShare = 0;
};

/// A flow arrow of the trace: the arrive or landed copy that completed a
/// phase (on lane `fromLane`) to the end of the wait it released.
struct FlowArrow {
  int fromLane = 0;
  double from = 0;
  int toLane = 0;
  double to = 0;
};

/// A number no other TimelineView made in this process has (a copy keeps
/// its original's): what the GPU's copy of the lanes is keyed by.
uint64_t newTimelineViewId();

struct TimelineView {
  uint64_t id = newTimelineViewId();
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
  /// A counterexample: time counts moves, not cycles.
  bool moves = false;
  std::string readFrom;    // "klx pipelines" or "nvgpu ops"
  std::string assumptions; // how the model was sized, in words
  std::string bound;       // what the model covers: "4 tiles x 9 k steps"
  /// Every timing explored; null when not run. Shared by the views of
  /// steps that kept the same model.
  std::shared_ptr<const sim::Verification> verification;
  /// The verdict line ("verified: ...", "FAILS for some timing: ...") and
  /// what the model leaves out.
  std::string verifyVerdict;
  std::vector<std::string> leavesOut;
  /// The counterexample on the same lanes (one unit of time per move),
  /// when verification failed.
  std::shared_ptr<const TimelineView> counterexample;

  /// Every flow, by the time it ends and by the time it starts.
  std::vector<FlowArrow> flowsByEnd, flowsByStart;

  /// Index of the first event of `lane` that may reach into [t, ...).
  size_t firstVisible(const TimelineLane &lane, double t) const;
  /// The flows into a wait, or out of an arrive or a landed copy, of lane
  /// `lane` (what the pane draws for the event under the pointer).
  std::vector<FlowArrow> flowsOf(int lane, const sim::Event &event) const;
  /// The lane `event` (a pointer into one of the lanes) is on, or -1.
  int laneOf(const sim::Event *event) const;
};

/// One view per step that has a protocol model (of its first kernel), in
/// step order, and which of them the run's timeline step is; with none,
/// one view saying why.
struct TimelineViews {
  std::vector<TimelineView> views;
  /// What the models were compiled from: the file, its -D values and
  /// sourceDigest() of its text. A recording is of these models only if it
  /// says the same (MeasuredTimeline::notRecordedFrom); while the kernel
  /// has errors the last good models are of an earlier build than the
  /// window's file and -D values.
  std::string file;
  std::vector<std::pair<std::string, std::string>> defines;
  std::string sourceDigest;
  size_t preferred = 0;

  /// The view read at `stepName`, else the preferred one.
  const TimelineView &pick(const std::string &stepName) const;
};

/// The states the window lets one verification explore before it says
/// "unknown" (the CLI's klx verify goes further): about a second on the
/// 2-core machine.
inline constexpr int64_t kWindowVerifyStates = 600'000;

TimelineViews buildTimelineViews(const PipelineRun &run,
                                 int64_t verifyStates = kWindowVerifyStates);

/// The view of one simulated model (what buildTimelineViews does for each
/// step's first kernel), also for benchmarks with made-up models.
TimelineView makeTimelineView(const sim::ProtocolModel &model,
                              sim::Timeline timeline, int step,
                              std::string stepName);

/// A round step for an axis over `span` with at most `maxTicks` ticks:
/// 1, 2, 2.5 or 5 times a power of ten.
double niceTickStep(double span, double maxTicks);
/// A tick's value as the axis writes it: "7500", "12.5k", "1.2M" (as many
/// decimals as the step needs).
std::string formatTick(double value, double step);

/// The source line of an IR line of snapshot `step`, 0 when unknown.
unsigned sourceLineOf(const PipelineRun &run, int step, unsigned irLine);

} // namespace klx::app

#endif // KLX_APP_VIEWS_TIMELINEVIEW_H
