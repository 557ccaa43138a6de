//===- WaitComparison.cpp - Each role's waits, measured and modelled ------===//

#include "views/WaitComparison.h"

#include <algorithm>
#include <cstdio>
#include <map>

using namespace klx;
using namespace klx::app;

namespace {

/// Waiting and total time of one role, and the waiting by barrier.
struct Tally {
  double waiting = 0, total = 0;
  std::map<std::string, double> byBarrier;

  WaitShare share() const {
    WaitShare s;
    s.known = true;
    s.share = total > 0 ? waiting / total : 0;
    for (const auto &[barrier, time] : byBarrier)
      s.byBarrier.push_back({barrier, total > 0 ? time / total : 0});
    std::stable_sort(
        s.byBarrier.begin(), s.byBarrier.end(),
        [](const auto &a, const auto &b) { return a.second > b.second; });
    return s;
  }
};

/// "full" from "wait full[2]" or "wait full[2] of pipeline 1", "turn" from
/// "wait turn".
std::string barrierOfWait(const std::string &name) {
  return barrierKind(name.rfind("wait ", 0) == 0 ? name.substr(5) : name);
}

RoleWaits &entryFor(std::vector<RoleWaits> &roles, const std::string &role) {
  auto it = std::find_if(roles.begin(), roles.end(),
                         [&](const RoleWaits &r) { return r.role == role; });
  if (it != roles.end())
    return *it;
  roles.push_back({role, {}, {}});
  return roles.back();
}

void tallyMeasured(const MeasuredTimeline &t, std::vector<RoleWaits> &roles,
                   std::map<std::string, Tally> &tallies) {
  for (const MeasuredCta &cta : t.ctas)
    for (const MeasuredCtaLane &warp : cta.warps) {
      if (warp.events.empty())
        continue;
      std::string role = roleOfWarp(warp.name);
      entryFor(roles, role);
      Tally &tally = tallies[role];
      float last = 0;
      for (const MeasuredCtaEvent &e : warp.events) {
        last = std::max(last, e.end);
        if (e.end <= e.start)
          continue;
        tally.waiting += e.end - e.start;
        tally.byBarrier[barrierOfWait(t.eventNames[e.name])] += e.end - e.start;
      }
      tally.total += last - warp.events.front().start;
    }
}

/// The model's lanes of one role (a cluster's CTAs, "consumer (CTA 1)",
/// are one role, as the GPU's warps of all CTAs are) add up like the
/// GPU's warps, each barrier by its kind ("full_a (CTA 1)" is "full").
void tallyModel(const TimelineView &view, std::vector<RoleWaits> &roles,
                std::map<std::string, Tally> &tallies) {
  for (const TimelineLane &lane : view.lanes) {
    std::string role = roleWithoutCta(lane.colourRole);
    entryFor(roles, role);
    Tally &tally = tallies[role];
    // A producer done early does not wait for the consumers' end.
    tally.total += lastOwnOpEnd(lane);
    for (const sim::Event &e : lane.events) {
      if (e.kind != sim::Event::Kind::Wait || e.end <= e.start)
        continue;
      tally.waiting += e.end - e.start;
      std::string barrier =
          e.barrier >= 0 && size_t(e.barrier) < view.barrierNames.size()
              ? barrierKind(view.barrierNames[size_t(e.barrier)])
              : "barrier";
      tally.byBarrier[barrier] += e.end - e.start;
    }
  }
}

} // namespace

std::string WaitShare::describe() const {
  if (!known)
    return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.0f%%", 100 * share);
  std::string out = text;
  std::string parts;
  for (const auto &[barrier, part] : byBarrier) {
    if (part < 0.005)
      continue;
    std::snprintf(text, sizeof text, "%s%s %.0f%%", parts.empty() ? "" : ", ",
                  barrier.c_str(), 100 * part);
    parts += text;
  }
  // One barrier says nothing the total does not.
  if (byBarrier.size() > 1 && !parts.empty())
    out += " (" + parts + ")";
  return out;
}

std::string klx::app::roleWithoutCta(const std::string &lane) {
  size_t open = lane.rfind(" (CTA ");
  return open == std::string::npos || lane.back() != ')' ? lane
                                                         : lane.substr(0, open);
}

std::string klx::app::barrierKind(const std::string &name) {
  return name.substr(0, name.find_first_of("_ ["));
}

double klx::app::lastOwnOpEnd(const TimelineLane &lane) {
  double last = 0;
  for (const sim::Event &e : lane.events)
    if (e.kind != sim::Event::Kind::CopyDone &&
        e.kind != sim::Event::Kind::PhaseDone)
      last = std::max(last, e.end);
  return last;
}

std::string klx::app::roleOfWarp(const std::string &warpName) {
  size_t open = warpName.rfind(" (");
  if (open == std::string::npos || warpName.back() != ')')
    return warpName;
  return warpName.substr(open + 2, warpName.size() - open - 3);
}

std::vector<RoleWaits> klx::app::compareWaits(const MeasuredTimeline &measured,
                                              const TimelineView *model) {
  std::vector<RoleWaits> roles;
  std::map<std::string, Tally> gpu, modelled;
  tallyMeasured(measured, roles, gpu);
  if (model && model->unavailable.empty() && !model->moves)
    tallyModel(*model, roles, modelled);
  for (RoleWaits &r : roles) {
    if (auto it = gpu.find(r.role); it != gpu.end())
      r.measured = it->second.share();
    if (auto it = modelled.find(r.role); it != modelled.end())
      r.model = it->second.share();
  }
  return roles;
}
