//===- TimelineView.cpp - What the Barrier timeline pane draws ------------===//

#include "TimelineView.h"

#include "RoleView.h"

#include "klx/Analysis/Protocol/VerifyFormat.h"
#include "klx/Export/Bundle.h"

#include <algorithm>
#include <atomic>
#include <cmath>

using namespace klx;
using namespace klx::app;

uint64_t klx::app::newTimelineViewId() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

size_t TimelineView::firstVisible(const TimelineLane &lane, double t) const {
  // Nothing that starts before t - longest can still be visible at t.
  double from = t - lane.longest;
  auto it = std::lower_bound(
      lane.events.begin(), lane.events.end(), from,
      [](const sim::Event &e, double value) { return e.start < value; });
  return size_t(it - lane.events.begin());
}

TimelineView klx::app::makeTimelineView(const sim::ProtocolModel &model,
                                        sim::Timeline t, int step,
                                        std::string stepName) {
  TimelineView view;
  view.kernel = model.kernel;
  view.step = step;
  view.stepName = std::move(stepName);
  for (const sim::BarrierGroup &g : model.barriers)
    view.barrierNames.push_back(g.name);
  for (const sim::Flow &f : t.flows) {
    if (size_t(f.fromRole) >= t.lanes.size() ||
        size_t(f.toRole) >= t.lanes.size() ||
        f.fromEvent >= t.lanes[f.fromRole].size() ||
        f.toEvent >= t.lanes[f.toRole].size())
      continue;
    view.flowsByEnd.push_back({f.fromRole,
                               t.lanes[f.fromRole][f.fromEvent].start, f.toRole,
                               t.lanes[f.toRole][f.toEvent].end});
  }
  view.flowsByStart = view.flowsByEnd;
  std::sort(view.flowsByEnd.begin(), view.flowsByEnd.end(),
            [](const FlowArrow &a, const FlowArrow &b) { return a.to < b.to; });
  std::sort(
      view.flowsByStart.begin(), view.flowsByStart.end(),
      [](const FlowArrow &a, const FlowArrow &b) { return a.from < b.from; });
  for (size_t r = 0; r < t.lanes.size(); ++r) {
    TimelineLane lane;
    lane.role = t.roleNames[r];
    lane.colourRole = lane.role;
    lane.events = std::move(t.lanes[r]);
    std::stable_sort(lane.events.begin(), lane.events.end(),
                     [](const sim::Event &a, const sim::Event &b) {
                       return a.start < b.start;
                     });
    for (const sim::Event &e : lane.events)
      lane.longest = std::max(lane.longest, e.end - e.start);
    lane.waitingShare = r < t.waitingShare.size() ? t.waitingShare[r] : 0;
    view.lanes.push_back(std::move(lane));
  }
  view.verdict = std::move(t.verdict);
  view.endTime = t.endTime;
  view.latency = t.latency.describe();
  view.readFrom = model.readFrom;
  view.assumptions = model.assumptions;
  return view;
}

/// Why a run has no timeline.
static TimelineView unavailableView(const PipelineRun &run) {
  TimelineView view;
  for (const Snapshot &s : run.snapshots)
    if (!s.facts.protocolNotes.empty()) {
      view.unavailable = s.facts.protocolNotes.front();
      return view;
    }
  view.unavailable = run.succeeded()
                         ? "No barrier protocol to simulate: the timeline is "
                           "read from a warp-specialized klx kernel (from "
                           "klx-circular-buffer on) or from nvgpu mbarrier "
                           "ops."
                         : "The kernel did not get as far as "
                           "klx-circular-buffer.";
  return view;
}

/// Explores `model` for every timing, or takes the result of the step
/// before when the model is the same (an unchanged snapshot keeps it).
static void addVerification(TimelineView &view, const sim::ProtocolModel &model,
                            const TimelineView *same, int64_t states) {
  view.bound = model.bound;
  if (same) {
    view.verification = same->verification;
    view.verifyVerdict = same->verifyVerdict;
    view.leavesOut = same->leavesOut;
    view.counterexample = same->counterexample;
    return;
  }
  sim::VerifyOptions options;
  options.maxStates = states;
  auto v =
      std::make_shared<sim::Verification>(sim::verifyProtocol(model, options));
  view.verifyVerdict = sim::verdictLine(model, *v);
  view.leavesOut = sim::verifyLeavesOut(model);
  if (v->fails()) {
    auto trace = std::make_shared<TimelineView>(
        makeTimelineView(model, v->trace, view.step, view.stepName));
    // The same lanes as the simulation's, in the same colours.
    for (size_t r = 0; r < trace->lanes.size() && r < view.lanes.size(); ++r)
      trace->lanes[r].colourRole = view.lanes[r].colourRole;
    trace->readFrom = model.readFrom + ", counterexample";
    trace->moves = true;
    view.counterexample = std::move(trace);
  }
  view.verification = std::move(v);
}

/// The innermost role warp `warp` runs in `tree` when it is a producer or
/// a consumer, or "".
static std::string roleOfWarp(const RoleTree &tree, unsigned warp) {
  for (const WarpgroupNode &group : tree.warpgroups)
    for (const WarpNode &node : group.warps)
      if (node.index == warp && !node.roles.empty()) {
        // Only a producer or a consumer: lanes of one role with no kind
        // ("all threads": thread 0 and threads 1-127 of a hand-written
        // kernel) keep colours of their own, by number.
        const Role &role = tree.roles[node.roles.front()];
        return role.kind.empty() ? "" : role.name;
      }
  return "";
}

/// Each lane's colour is its role's: a lane of part of a role takes that
/// role ("consumer (threads 0-127)": consumer); lanes named after threads
/// take the role their first thread runs in the tree that stands for the
/// view's step, so the consumers are the consumers' colour in every pane.
static void nameLaneColours(TimelineView &view, const PipelineRun &run) {
  RoleSource source = roleSourceFor(run, view.step);
  const RoleTree *tree =
      source.step >= 0 && !run.snapshots[source.step].facts.roles.empty()
          ? &run.snapshots[source.step].facts.roles.front()
          : nullptr;
  for (TimelineLane &lane : view.lanes) {
    llvm::StringRef name = lane.role; // colourRole starts as the role
    // "consumer (threads 0-127)": part of a role the tree names.
    if (size_t open = name.find(" (thread"); open != llvm::StringRef::npos) {
      lane.colourRole = name.take_front(open).str();
      continue;
    }
    if (!tree ||
        !(name.consume_front("threads ") || name.consume_front("thread ")))
      continue;
    unsigned thread = 0;
    if (name.consumeInteger(10, thread))
      continue;
    if (std::string role = roleOfWarp(*tree, thread / 32); !role.empty())
      lane.colourRole = role;
  }
}

TimelineViews klx::app::buildTimelineViews(const PipelineRun &run,
                                           int64_t verifyStates) {
  TimelineViews result;
  result.file = run.fileName;
  result.defines = run.defines;
  result.sourceDigest = sourceDigest(run.source);
  int preferred = run.timelineStep();
  for (int i = 0; i < int(run.snapshots.size()); ++i) {
    const Snapshot &s = run.snapshots[i];
    // A step that left the IR as it was (klx-lint) reads the same models
    // as the step before it: one view for both.
    if (s.facts.protocols.empty() || run.madeBy(i) != i)
      continue;
    if (i == preferred)
      result.preferred = result.views.size();
    const sim::ProtocolModel &model = s.facts.protocols.front();
    const TimelineView *same =
        !s.changed && !result.views.empty() && result.views.back().step == i - 1
            ? &result.views.back()
            : nullptr;
    TimelineView view =
        makeTimelineView(model, sim::simulate(model), i, s.displayName());
    nameLaneColours(view, run);
    addVerification(view, model, same, verifyStates);
    result.views.push_back(std::move(view));
  }
  if (result.views.empty())
    result.views.push_back(unavailableView(run));
  return result;
}

const TimelineView &TimelineViews::pick(const std::string &stepName) const {
  for (const TimelineView &view : views)
    if (!stepName.empty() && view.stepName == stepName)
      return view;
  return views[preferred];
}

unsigned klx::app::sourceLineOf(const PipelineRun &run, int step,
                                unsigned irLine) {
  if (step < 0 || step >= int(run.snapshots.size()) || irLine == 0)
    return 0;
  for (const LineOrigin &origin : run.snapshots[step].origins)
    if (origin.line == irLine)
      return origin.source.line;
  return 0;
}

double klx::app::niceTickStep(double span, double maxTicks) {
  if (!(span > 0) || !(maxTicks >= 1))
    return 1;
  double raw = span / maxTicks;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double mantissa : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (mantissa * power >= raw)
      return std::max(1.0, mantissa * power);
  return std::max(1.0, 10 * power);
}

std::string klx::app::formatTick(double value, double step) {
  char text[32];
  // A tick at zero reached by adding steps may be a hair below it: "-0".
  if (std::abs(value) < step * 1e-6)
    value = 0;
  double magnitude = std::abs(value);
  if (magnitude >= 1e6 && step >= 1e5)
    std::snprintf(text, sizeof text, "%gM", value / 1e6);
  else if (magnitude >= 1e4 && step >= 500)
    std::snprintf(text, sizeof text, "%gk", value / 1e3);
  else
    std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

std::vector<FlowArrow> TimelineView::flowsOf(int lane,
                                             const sim::Event &event) const {
  std::vector<FlowArrow> found;
  // Times are the simulator's own doubles, copied: equal, not near.
  if (event.kind == sim::Event::Kind::Wait) {
    auto first =
        std::lower_bound(flowsByEnd.begin(), flowsByEnd.end(), event.end,
                         [](const FlowArrow &f, double t) { return f.to < t; });
    for (auto it = first; it != flowsByEnd.end() && it->to == event.end; ++it)
      if (it->toLane == lane)
        found.push_back(*it);
  } else if (event.kind == sim::Event::Kind::Arrive ||
             event.kind == sim::Event::Kind::CopyDone) {
    // An arrive, or the copy whose bytes completed the phase.
    auto first = std::lower_bound(
        flowsByStart.begin(), flowsByStart.end(), event.start,
        [](const FlowArrow &f, double t) { return f.from < t; });
    for (auto it = first; it != flowsByStart.end() && it->from == event.start;
         ++it)
      if (it->fromLane == lane)
        found.push_back(*it);
  }
  return found;
}

int TimelineView::laneOf(const sim::Event *event) const {
  for (size_t r = 0; r < lanes.size(); ++r) {
    const std::vector<sim::Event> &events = lanes[r].events;
    if (!events.empty() && event >= events.data() &&
        event < events.data() + events.size())
      return int(r);
  }
  return -1;
}
