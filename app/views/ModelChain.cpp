//===- ModelChain.cpp - What set the simulated kernel's end ---------------===//

#include "views/ModelChain.h"

#include "views/WaitComparison.h"

#include <algorithm>
#include <cstdio>
#include <map>

using namespace klx;
using namespace klx::app;

namespace {

using Kind = sim::Event::Kind;

/// The last wait on `lane` that blocked and had ended by `t`.
const sim::Event *lastWaitBefore(const TimelineLane &lane, double t) {
  const sim::Event *found = nullptr;
  for (const sim::Event &e : lane.events)
    if (e.kind == Kind::Wait && e.end > e.start && e.end <= t &&
        (!found || e.end > found->end))
      found = &e;
  return found;
}

/// The event on `lane` at `at` that signalled (an arrive or a copy's
/// bytes landing).
const sim::Event *signalAt(const TimelineLane &lane, double at) {
  for (const sim::Event &e : lane.events)
    if ((e.kind == Kind::Arrive || e.kind == Kind::CopyDone) && e.start == at)
      return &e;
  return nullptr;
}

/// The issue of the copy whose bytes `landed`: the same barrier, slot and
/// phase, issued last before it landed.
const sim::Event *copyIssueOf(const TimelineLane &lane,
                              const sim::Event &landed) {
  const sim::Event *found = nullptr;
  for (const sim::Event &e : lane.events)
    if (e.kind == Kind::Copy && e.barrier == landed.barrier &&
        e.slot == landed.slot && e.phase == landed.phase &&
        e.start <= landed.start && (!found || e.start > found->start))
      found = &e;
  return found;
}

} // namespace

ModelChain klx::app::modelCriticalChain(const TimelineView &view) {
  ModelChain chain;
  if (!view.unavailable.empty() || view.moves || view.lanes.empty())
    return chain;
  int lane = -1;
  for (size_t r = 0; r < view.lanes.size(); ++r)
    if (double end = lastOwnOpEnd(view.lanes[r]); end > chain.end) {
      chain.end = end;
      lane = int(r);
    }
  if (lane < 0)
    return chain;
  std::map<std::string, double> parts;
  double t = chain.end;
  // Each step moves back in time; the guard only stops a malformed model.
  for (size_t guard = 0; guard < 1000000 && t > 0; ++guard) {
    const TimelineLane &here = view.lanes[size_t(lane)];
    const sim::Event *wait = lastWaitBefore(here, t);
    parts[roleWithoutCta(here.colourRole) + " working"] +=
        t - (wait ? wait->end : 0);
    if (!wait)
      break;
    std::vector<FlowArrow> flows = view.flowsOf(lane, *wait);
    if (flows.empty()) {
      chain.unknown = "unknown, because the model did not record what ended " +
                      here.role + "'s wait at cycle " +
                      std::to_string(int64_t(wait->end));
      break;
    }
    const FlowArrow &flow = *std::max_element(
        flows.begin(), flows.end(),
        [](const FlowArrow &a, const FlowArrow &b) { return a.from < b.from; });
    const TimelineLane &from = view.lanes[size_t(flow.fromLane)];
    const sim::Event *signal = signalAt(from, flow.from);
    const sim::Event *issue = signal && signal->kind == Kind::CopyDone
                                  ? copyIssueOf(from, *signal)
                                  : nullptr;
    double back = issue ? issue->start : flow.from;
    if (back >= t) {
      chain.unknown = "unknown, because what ended " + here.role +
                      "'s wait at cycle " + std::to_string(int64_t(wait->end)) +
                      " came no earlier than the wait's end";
      break;
    }
    bool turn = wait->barrier >= 0 &&
                size_t(wait->barrier) < view.barrierNames.size() &&
                barrierKind(view.barrierNames[size_t(wait->barrier)]) == "turn";
    parts[issue  ? "loads in flight"
          : turn ? "turns"
                 : "releases"] += wait->end - back;
    lane = flow.fromLane;
    t = back;
  }
  chain.parts.assign(parts.begin(), parts.end());
  std::stable_sort(
      chain.parts.begin(), chain.parts.end(),
      [](const auto &a, const auto &b) { return a.second > b.second; });
  return chain;
}

std::string ModelChain::describe() const {
  std::string out;
  for (const auto &[part, cycles] : parts) {
    if (end <= 0 || cycles / end < 0.005)
      continue;
    char text[96];
    std::snprintf(text, sizeof text, "%s%s %.0f%%", out.empty() ? "" : ", ",
                  part.c_str(), 100 * cycles / end);
    out += text;
  }
  if (!unknown.empty())
    out += (out.empty() ? "" : "; ") + unknown;
  return out;
}
