//===- BarrierSim.cpp - Simulating the mbarrier protocol ------------------===//
//
// The simulation of BarrierSim.h: an event queue of the roles' next ops
// and the copies in flight, run under the latency model. The latency
// model's text form and the static checks are in BarrierChecks.cpp.
//
//===----------------------------------------------------------------------===//

#include "klx/Analysis/Protocol/BarrierSim.h"

#include "Analysis/Protocol/SimFindings.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>

using namespace klx::sim;

namespace {

struct SlotState {
  int pending = 0;
  int64_t tx = 0;
  int64_t completed = 0; // phases completed so far
};

struct RoleState {
  int64_t step = 0;
  size_t op = 0;
  double lastCopyDone = 0; // when the role's latest copy lands
  bool done = false;
  bool blocked = false;
  double waitStart = -1;
  double finishedAt = 0;
  double waited = 0;
};

struct Pending {
  double time;
  int64_t seq;
  int role = -1;               // a role's next op, or
  int barrier = -1, slot = -1; // a copy completing
  int64_t bytes = 0, phase = 0;
  int fromRole = -1;
  bool operator>(const Pending &o) const {
    return time != o.time ? time > o.time : seq > o.seq;
  }
};

class Simulator {
public:
  Simulator(const ProtocolModel &model, const LatencyModel &latency)
      : model(model), latency(latency), roles(model.roles.size()) {
    for (const BarrierGroup &g : model.barriers) {
      slots.emplace_back(g.slots);
      for (SlotState &s : slots.back())
        s.pending = g.count;
    }
    timeline.lanes.resize(model.roles.size());
    timeline.latency = latency;
    for (const RoleModel &r : model.roles)
      timeline.roleNames.push_back(r.name);
  }

  Timeline run(int64_t maxEvents) {
    timeline.verdict.findings = checkProtocol(model);
    for (size_t r = 0; r < roles.size(); ++r) {
      if (model.roles[r].steps <= 0 || model.roles[r].body.empty())
        roles[r].done = true;
      else
        schedule({latency.delayOf(model.roles[r].name), 0, int(r)});
    }
    int64_t events = 0;
    while (!queue.empty() && !faulted && events++ < maxEvents) {
      Pending p = queue.top();
      queue.pop();
      now = p.time;
      if (p.role >= 0)
        stepRole(p.role);
      else
        completeCopy(p);
    }
    finish(events >= maxEvents);
    return std::move(timeline);
  }

private:
  void schedule(Pending p) {
    p.seq = seq++;
    queue.push(p);
  }

  /// Where op `op` of a role stands at its current step: the slot and
  /// phase of its barrier (-1 without one) and the step it shows.
  struct OpAt {
    const Op &op;
    const BarrierGroup *group;
    int slot;
    int64_t phase, shown;
  };

  void stepRole(int r) {
    RoleState &st = roles[r];
    if (st.done)
      return;
    const Op &op = model.roles[r].body[st.op];
    if (!op.runsAt(st.step)) {
      advance(r, now);
      return;
    }
    if (op.barrier >= 0 && (op.barrier >= int(slots.size())))
      return; // malformed model: never moves (reported as blocked)
    int64_t pos = op.position(st.step);
    const BarrierGroup *g =
        op.barrier >= 0 ? &model.barriers[op.barrier] : nullptr;
    OpAt at{op, g, g ? int(pos % g->slots) : -1, g ? pos / g->slots : -1,
            op.shownStep >= 0 ? op.shownStep : st.step};
    double next = now + latency.issueCycles;
    switch (op.kind) {
    case OpKind::Wait:
      if (!passWait(r, at))
        return;
      break;
    case OpKind::Arrive:
    case OpKind::ArriveExpectTx:
      if (!arrive(r, at))
        return;
      break;
    case OpKind::Copy:
      issueCopy(r, at);
      break;
    case OpKind::ExpectTx:
      slots[op.barrier][at.slot].tx += op.bytes;
      add(r,
          {Event::Kind::Arrive, now, now, op.barrier, at.slot,
           model.phasesKnown ? at.phase : slots[op.barrier][at.slot].completed,
           at.shown, op.label, op.line});
      break;
    case OpKind::Read:
    case OpKind::MmaWait:
      break; // issue cost only: the MMA's cycles are on its Compute
    case OpKind::Compute: {
      double cycles = op.cycles > 0 ? op.cycles : latency.mmaCycles;
      add(r, {Event::Kind::Work, now, now + cycles, -1, -1, -1, at.shown,
              op.label, op.line});
      next = now + cycles;
      break;
    }
    }
    advance(r, next);
  }

  /// Role `r`'s wait passes if its slot's phase has completed, else it
  /// blocks (false) until maybeComplete wakes it. Notes a wait whose phase
  /// has come and gone, and one that passes on a later phase than meant.
  bool passWait(int r, const OpAt &at) {
    RoleState &st = roles[r];
    const RoleModel &role = model.roles[r];
    const Op &op = at.op;
    SlotState &s = slots[op.barrier][at.slot];
    int parity = int((at.phase & 1) ^ (op.previousPhase ? 1 : 0));
    int64_t meant = op.previousPhase ? at.phase : at.phase + 1;
    int64_t shownPhase = op.previousPhase ? at.phase - 1 : at.phase;
    if ((s.completed & 1) == parity) {
      // Its phase has come and gone: parity only says "same as now", so
      // the wait holds until two more phases complete.
      if (model.phasesKnown && s.completed >= meant)
        note(timeline.verdict.findings,
             llvm::formatv("{0}: {1} waits for phase {2} to complete, but "
                           "{3} phases have completed already: the parity "
                           "it waits for comes round again only after "
                           "phase {4}",
                           slotName(*at.group, at.slot), role.name, shownPhase,
                           s.completed, s.completed));
      if (!st.blocked) {
        st.blocked = true;
        st.waitStart = now;
      }
      waiters[{op.barrier, at.slot}].insert(r);
      return false;
    }
    // A wait that passes on a phase other than the one it meant has been
    // fooled by parity: a slip.
    if (model.phasesKnown && s.completed != meant)
      note(timeline.verdict.findings,
           llvm::formatv("{0}: {1} waited for phase {2} to complete and "
                         "passed after phase {3}: the parity matched a "
                         "later phase",
                         slotName(*at.group, at.slot), role.name, shownPhase,
                         s.completed - 1));
    double start = st.blocked ? st.waitStart : now;
    st.waited += now - start;
    if (st.blocked)
      if (auto c = completer.find({op.barrier, at.slot}); c != completer.end())
        timeline.flows.push_back(
            {c->second.first, c->second.second, r, timeline.lanes[r].size()});
    st.blocked = false;
    add(r, {Event::Kind::Wait, start, now, op.barrier, at.slot,
            model.phasesKnown ? at.phase : s.completed - 1, at.shown, op.label,
            op.line});
    return true;
  }

  /// Role `r` arrives (and expects bytes); false where the phase has no
  /// pending count left: undefined on hardware, the simulation stops.
  bool arrive(int r, const OpAt &at) {
    const Op &op = at.op;
    const BarrierGroup &g = *at.group;
    SlotState &s = slots[op.barrier][at.slot];
    checkLanding(g, op.barrier, at.slot, at.phase, model.roles[r].name);
    if (s.pending - op.arrivals < 0) {
      note(timeline.verdict.findings,
           llvm::formatv("{0}: {1} arrives on phase {2}, which already has "
                         "its {3} arrival{4} (initialised for {3}): an "
                         "arrival with no pending count left is undefined "
                         "and the protocol stops here",
                         slotName(g, at.slot), model.roles[r].name, s.completed,
                         g.count, g.count == 1 ? "" : "s"));
      faulted = true;
      roles[r].blocked = false;
      return false;
    }
    if (op.kind == OpKind::ArriveExpectTx)
      s.tx += op.bytes;
    s.pending -= op.arrivals;
    add(r, {Event::Kind::Arrive, now, now, op.barrier, at.slot,
            model.phasesKnown ? at.phase : s.completed, at.shown, op.label,
            op.line});
    maybeComplete(op.barrier, at.slot);
    return true;
  }

  /// Copies stream one after another through the SM's share of bandwidth,
  /// each after its own latency; a multicast one takes none of its own and
  /// lands with the role's last copy.
  void issueCopy(int r, const OpAt &at) {
    const Op &op = at.op;
    double &busyUntil = copiesBusyUntil[model.roles[r].sm];
    double done = roles[r].lastCopyDone;
    if (!op.multicast) {
      double start = std::max(now + latency.tmaLatency, busyUntil);
      done = start + double(op.bytes) / latency.tmaBytesPerCycle;
      busyUntil = done;
      roles[r].lastCopyDone = done;
    }
    schedule({done, 0, -1, op.barrier, at.slot, op.bytes, at.phase, r});
    add(r, {Event::Kind::Copy, now, now, op.barrier, at.slot, at.phase,
            at.shown, op.label, op.line});
  }

  /// Next op, next step.
  void advance(int r, double next) {
    RoleState &st = roles[r];
    if (++st.op == model.roles[r].body.size()) {
      st.op = 0;
      if (++st.step == model.roles[r].steps) {
        st.done = true;
        st.finishedAt = next;
        return;
      }
    }
    schedule({next, 0, r});
  }

  void completeCopy(const Pending &p) {
    const BarrierGroup &g = model.barriers[p.barrier];
    checkLanding(g, p.barrier, p.slot, p.phase,
                 model.roles[p.fromRole].name + "'s copy");
    slots[p.barrier][p.slot].tx -= p.bytes;
    add(p.fromRole, {Event::Kind::CopyDone, now, now, p.barrier, p.slot,
                     p.phase, -1, "bytes in"});
    maybeComplete(p.barrier, p.slot);
  }

  /// An arrive or bytes meant for phase `phase` that land in another one.
  void checkLanding(const BarrierGroup &g, int barrier, int slot, int64_t phase,
                    const std::string &who) {
    int64_t current = slots[barrier][slot].completed;
    if (model.phasesKnown && current != phase)
      note(timeline.verdict.findings,
           llvm::formatv("{0} completed phase {1} early: {2} arrived for it "
                         "after it had completed, and counted towards phase "
                         "{3}",
                         slotName(g, slot), phase, who, current));
  }

  void maybeComplete(int barrier, int slot) {
    SlotState &s = slots[barrier][slot];
    const BarrierGroup &g = model.barriers[barrier];
    if (s.pending > 0 || s.tx != 0)
      return;
    ++s.completed;
    s.pending = g.count;
    completer[{barrier, slot}] = lastAdded;
    // The phase flip, on the lane of the role whose arrive (or copy)
    // completed it, after that event so flows still point at the arrive.
    int role = lastAdded.first;
    timeline.lanes[role].push_back(
        {Event::Kind::PhaseDone, now, now, barrier, slot, s.completed - 1, -1,
         g.name + "[" + std::to_string(slot) + "] phase " +
             std::to_string(s.completed - 1) + " done"});
    auto it = waiters.find({barrier, slot});
    if (it == waiters.end())
      return;
    for (int r : it->second)
      schedule({now + latency.wakeCycles, 0, r});
    waiters.erase(it);
  }

  void add(int role, Event e) {
    lastAdded = {role, timeline.lanes[role].size()};
    timeline.lanes[role].push_back(std::move(e));
  }

  void finish(bool outOfEvents) {
    Verdict &v = timeline.verdict;
    timeline.endTime = now;
    for (size_t r = 0; r < roles.size(); ++r) {
      RoleState &st = roles[r];
      double end = st.done ? st.finishedAt : now;
      timeline.endTime = std::max(timeline.endTime, end);
      if (st.done)
        continue;
      v.completes = false;
      const Op &op = model.roles[r].body[st.op];
      BlockedWait b;
      b.role = model.roles[r].name;
      b.op = op.label;
      b.waiting = op.kind == OpKind::Wait && st.blocked;
      b.step = op.shownStep >= 0 ? op.shownStep : st.step;
      b.line = op.line;
      if (op.barrier >= 0 && op.barrier < int(slots.size())) {
        const BarrierGroup &g = model.barriers[op.barrier];
        int64_t pos = op.position(st.step);
        b.barrier = g.name;
        b.slot = int(pos % g.slots);
        b.expectedParity =
            int(((pos / g.slots) & 1) ^ (op.previousPhase ? 1 : 0));
        const SlotState &s = slots[op.barrier][b.slot];
        b.completedPhases = s.completed;
        b.pendingArrivals = s.pending;
        b.pendingBytes = s.tx;
        if (st.blocked)
          st.waited += now - st.waitStart;
      }
      v.blocked.push_back(b);
    }
    v.protocolError = faulted;
    // Stopped by the event limit, a role at a wait was about to go on.
    if (!outOfEvents) {
      std::vector<double> since;
      for (const RoleState &st : roles)
        since.push_back(st.waitStart);
      addStuckWaits(timeline, model, since);
    }
    if (outOfEvents)
      note(v.findings, "the simulation stopped after its event limit");
    for (size_t r = 0; r < roles.size(); ++r) {
      double end = roles[r].done ? roles[r].finishedAt : timeline.endTime;
      timeline.waitingShare.push_back(end > 0 ? roles[r].waited / end : 0);
      timeline.waitingCycles.push_back(roles[r].waited);
    }
  }

  const ProtocolModel &model;
  LatencyModel latency;
  std::vector<RoleState> roles;
  std::vector<std::vector<SlotState>> slots;
  std::map<std::pair<int, int>, std::set<int>> waiters;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>>
      queue;
  int64_t seq = 0;
  double now = 0;
  bool faulted = false;
  std::map<int, double> copiesBusyUntil; // per SM
  /// The event that completed each slot's latest phase, for flows.
  std::map<std::pair<int, int>, std::pair<int, size_t>> completer;
  std::pair<int, size_t> lastAdded{0, 0};
  Timeline timeline;
};

} // namespace

Timeline klx::sim::simulate(const ProtocolModel &model,
                            const LatencyModel &latency, int64_t maxEvents) {
  return Simulator(model, latency).run(maxEvents);
}

void klx::sim::addStuckWaits(Timeline &timeline, const ProtocolModel &model,
                             const std::vector<double> &since) {
  auto indexOf = [](const auto &items, const std::string &name) {
    for (size_t i = 0; i < items.size(); ++i)
      if (items[i].name == name)
        return int(i);
    return -1;
  };
  for (const BlockedWait &b : timeline.verdict.blocked) {
    int role = indexOf(model.roles, b.role);
    if (!b.waiting || role < 0 || size_t(role) >= timeline.lanes.size())
      continue;
    double start = size_t(role) < since.size() && since[size_t(role)] >= 0
                       ? since[size_t(role)]
                       : 0;
    // The phase whose completion it waits for: the next to complete when
    // its parity is the one waited for, else the one after.
    int64_t phase = b.completedPhases +
                    ((b.completedPhases & 1) != b.expectedParity ? 1 : 0);
    Event stuck{Event::Kind::Wait,
                start,
                std::max(start, timeline.endTime),
                indexOf(model.barriers, b.barrier),
                b.slot,
                phase,
                b.step,
                "blocked: " + b.op + " (" + b.barrier + "[" +
                    std::to_string(b.slot) + "], phase " +
                    std::to_string(phase) + ")",
                b.line};
    stuck.stuck = true;
    // Appended: the lanes' indices are the flows' (the view sorts by
    // start).
    timeline.lanes[size_t(role)].push_back(std::move(stuck));
  }
}
