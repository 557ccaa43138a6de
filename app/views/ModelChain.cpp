//===- ModelChain.cpp - What set the simulated kernel's end ---------------===//

#include "views/ModelChain.h"

#include "views/WaitComparison.h"

#include "klx/Runtime/ChainWalk.h"

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

/// The simulation's lanes as the chain walk reads them: each role (of
/// each CTA) is a lane, its time in cycles from 0.
class ModelRecording final : public rt::ChainRecording {
public:
  explicit ModelRecording(const TimelineView &view) : view(view) {}

  std::optional<rt::ChainWait>
  lastWait(const rt::ChainPlace &at) const override {
    const TimelineLane &lane = view.lanes[size_t(at.lane)];
    const sim::Event *wait = lastWaitBefore(lane, at.t);
    if (!wait)
      return std::nullopt;
    long index = long(wait - lane.events.data());
    return rt::ChainWait{index, wait->start, wait->end, wait->slot,
                         rt::ChainPlace{at.lane, index, wait->start}};
  }

  std::optional<rt::ChainSignal> signalOf(const rt::ChainPlace &at,
                                          const rt::ChainWait &found,
                                          std::string &why) const override {
    const TimelineLane &here = view.lanes[size_t(at.lane)];
    const sim::Event &wait = here.events[size_t(found.index)];
    std::vector<FlowArrow> flows = view.flowsOf(at.lane, wait);
    if (flows.empty()) {
      why = "unknown, because the model did not record what ended " +
            here.role + "'s wait at cycle " + std::to_string(int64_t(wait.end));
      return std::nullopt;
    }
    const FlowArrow &flow = *std::max_element(
        flows.begin(), flows.end(),
        [](const FlowArrow &a, const FlowArrow &b) { return a.from < b.from; });
    const TimelineLane &from = view.lanes[size_t(flow.fromLane)];
    const sim::Event *signal = signalAt(from, flow.from);
    // A copy's bytes landing: back to the copy's issue, a load in flight.
    const sim::Event *issue = signal && signal->kind == Kind::CopyDone
                                  ? copyIssueOf(from, *signal)
                                  : nullptr;
    double back = issue ? issue->start : flow.from;
    if (back >= at.t) {
      why = "unknown, because what ended " + here.role + "'s wait at cycle " +
            std::to_string(int64_t(wait.end)) +
            " came no earlier than the wait's end";
      return std::nullopt;
    }
    bool turn = wait.barrier >= 0 &&
                size_t(wait.barrier) < view.barrierNames.size() &&
                barrierKind(view.barrierNames[size_t(wait.barrier)]) == "turn";
    rt::ChainPart part = issue  ? rt::ChainPart::Load
                         : turn ? rt::ChainPart::Turn
                                : rt::ChainPart::Release;
    return rt::ChainSignal{{flow.fromLane, 0, back}, part, false};
  }

  // A role's work is counted from the kernel's start.
  double firstEvent(int) const override { return 0; }
  double laneStart(int) const override { return 0; }
  bool goesOnPastMissingSignals() const override { return false; }
  size_t stepLimit() const override { return 1000000; }

private:
  const TimelineView &view;
};

/// What a stretch of the model's chain is called.
std::string partName(const TimelineView &view, const rt::ChainStretch &s) {
  switch (s.part) {
  case rt::ChainPart::Load:
    return "loads in flight";
  case rt::ChainPart::Turn:
    return "turns";
  case rt::ChainPart::Release:
    return "releases";
  default:
    return roleWithoutCta(view.lanes[size_t(s.lane)].colourRole) + " working";
  }
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
  rt::ChainWalk walk =
      rt::walkChainBack(ModelRecording(view), {lane, 0, chain.end});
  std::map<std::string, double> parts;
  for (const rt::ChainStretch &stretch : walk.stretches)
    parts[partName(view, stretch)] += stretch.end - stretch.start;
  chain.unknown = std::move(walk.unknown);
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
