//===- CriticalChain.cpp - The waits that set a CTA's end -----------------===//
//
// A CTA ends when its last warp does. Walking back from there: while the
// warp was not waiting, its own work set the pace; where it had waited on
// a barrier, whatever completed the barrier did: the copy that filled the
// stage (a load in flight from its issue to the wait's end), the release
// that emptied it, the turn the other consumer passed. The walk follows
// that event's warp back in turn, down to the CTA's start. A wait that
// did not block records nothing (Trace.cpp), and then the warp's work
// runs on through it, which is what happened. A signal is matched by
// kind, stage and pipeline, and is the latest one recorded before the
// wait's end; a release stamped late (at its warp's next event, Trace.h)
// counts as before the wait's end when its lower bound is, and is placed
// at its stamp or the wait's end, whichever came first: its stretch or,
// where that has no length, the work before it is flagged (lateRelease).
// On an H200 (ping-pong at 2048^3, 6,784 blocking producer waits) 6,660
// waits ended before the stamp of the release that ended them, each with
// exactly one release straddling its end; the next round's lower bound
// came at least 1.35 us after it. In a cluster a stage is full when every CTA's
// share has landed and empty when every CTA's consumers have released it, so a
// load's or a release's signal is the latest among the cluster's CTAs
// (their clocks compared on globaltimer's axis), and the walk may go on in
// another CTA than the one it started in. Two CTAs' events are compared
// through each SM's clock mapped onto globaltimer, which ticks every 32 ns
// on the H100: signals of two CTAs closer than that may be taken in the
// wrong order. What the trace cannot say: a release is recorded by a
// warpgroup's first thread, and the barrier completes with the last of
// its threads' arrives, a little later; a CTA of the cluster that was not
// traced (--trace-ctas) has no signals to offer.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/CriticalPath.h"

#include "klx/Runtime/ChainWalk.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace klx::rt;

namespace {

/// How far back one search for a wait's signal looks in a warp: the
/// signal of a stage's wait is a few k steps back at most, and an
/// unbounded search would make a chain of a long kernel quadratic.
constexpr long kSignalSearchEvents = 4096;

/// What completes a wait ending in `end`, and what its stretch is called.
struct SignalKind {
  TraceKind kind;
  bool sameStage;
  ChainPart part;
};
SignalKind signalKindOf(TraceKind end) {
  switch (end) {
  case TraceKind::WaitFullEnd:
    return {TraceKind::CopyIssue, true, ChainPart::Load};
  case TraceKind::WaitEmptyEnd:
    return {TraceKind::ReleaseEmpty, true, ChainPart::Release};
  default:
    return {TraceKind::PassTurn, false, ChainPart::Turn};
  }
}

/// The index of `w`'s last event at or before `ns`, or -1.
long lastAtOrBefore(const WarpTrace &w, double ns) {
  auto it = std::upper_bound(
      w.events.begin(), w.events.end(), ns,
      [](double at, const TraceEvent &e) { return at < e.ns; });
  return long(it - w.events.begin()) - 1;
}

/// The index of `w`'s last event that may have happened before `ns`: at
/// or before it, or stamped late and after an event before it. A release
/// stamped late may carry a time past the wait it ended; the release of
/// the stage's next round cannot have happened before that wait's end
/// (the stage is refilled after it, and the consumer's MMA stamp, the
/// release's lower bound, comes after the refill's wait), so the latest
/// release whose lower bound is before the wait's end is the one.
long lastPossiblyBefore(const WarpTrace &w, double ns) {
  long last = lastAtOrBefore(w, ns);
  while (size_t(last + 1) < w.events.size() &&
         w.events[size_t(last + 1)].late &&
         w.events[size_t(last + 1)].earliestNs < ns)
    ++last;
  return last;
}

/// A CTA's trace (and its cluster's) as the chain walk reads it: each
/// warp that recorded something is a lane.
class TraceRecording final : public ChainRecording {
public:
  /// `warps`: those of the cluster `cta` ran in (only its own without
  /// clusters) that recorded something; `starts`: when each of their CTAs
  /// started.
  TraceRecording(std::vector<const WarpTrace *> warps,
                 std::map<int, double> starts)
      : warps(std::move(warps)), starts(std::move(starts)) {}

  const WarpTrace &warp(int lane) const { return *warps[size_t(lane)]; }

  /// The lane of `cta`'s warp that recorded last, at its last event.
  ChainPlace last(int cta) const {
    int lane = -1;
    for (size_t i = 0; i < warps.size(); ++i)
      if (warps[i]->cta == cta &&
          (lane < 0 ||
           warps[i]->events.back().ns > warps[size_t(lane)]->events.back().ns))
        lane = int(i);
    const WarpTrace &w = warp(lane);
    return {lane, long(w.events.size()) - 1, w.events.back().ns};
  }

  std::optional<ChainWait> lastWait(const ChainPlace &at) const override {
    const WarpTrace &w = warp(at.lane);
    long j = at.index;
    while (j >= 0 && !isWaitEnd(w.events[size_t(j)].kind))
      --j;
    if (j < 0)
      return std::nullopt;
    const TraceEvent &end = w.events[size_t(j)];
    bool paired = j > 0 && isWaitBegin(w.events[size_t(j - 1)].kind) &&
                  waitEndOf(w.events[size_t(j - 1)].kind) == end.kind;
    double begin = paired ? w.events[size_t(j - 1)].ns : end.ns;
    return ChainWait{j, begin, end.ns, end.stage,
                     ChainPlace{at.lane, paired ? j - 2 : j - 1, begin}};
  }

  std::optional<ChainSignal> signalOf(const ChainPlace &at,
                                      const ChainWait &wait,
                                      std::string &) const override {
    const TraceEvent &end = warp(at.lane).events[size_t(wait.index)];
    SignalKind kind = signalKindOf(end.kind);
    std::optional<Signal> signal = find(kind, end, at.lane);
    // No signal in this cluster, or none that moves the walk back.
    if (!signal || (signal->lane == at.lane && signal->index >= wait.index))
      return std::nullopt;
    return ChainSignal{{signal->lane, signal->index, signal->ns},
                       kind.part,
                       signal->event(*this).late};
  }

  double firstEvent(int lane) const override {
    return warp(lane).events.front().ns;
  }
  double laneStart(int lane) const override {
    return starts.at(warp(lane).cta);
  }
  bool goesOnPastMissingSignals() const override { return true; }
  size_t stepLimit() const override {
    size_t steps = 16;
    for (const WarpTrace *each : warps)
      steps += each->events.size();
    return steps;
  }

private:
  struct Signal {
    int lane = 0;
    long index = 0;
    /// When it happened: its stamp; for one stamped late, its stamp or
    /// the wait's end, whichever came first (it had happened by both).
    double ns = 0;
    const TraceEvent &event(const TraceRecording &r) const {
      return r.warp(lane).events[size_t(index)];
    }
  };

  /// The latest event of `kind` at or before the wait's end among the
  /// warps of the cluster (the waiting warp among them: without roles one
  /// warp loads and multiplies). A turn comes from the other consumer of
  /// the waiter's own CTA.
  std::optional<Signal> find(const SignalKind &kind, const TraceEvent &end,
                             int waiterLane) const {
    const WarpTrace *waiter = warps[size_t(waiterLane)];
    std::optional<Signal> best;
    for (size_t lane = 0; lane < warps.size(); ++lane) {
      const WarpTrace *w = warps[lane];
      if (kind.kind == TraceKind::PassTurn &&
          (w == waiter || w->cta != waiter->cta))
        continue;
      long last = lastPossiblyBefore(*w, end.ns);
      for (long i = last; i >= 0 && last - i < kSignalSearchEvents; --i) {
        const TraceEvent &e = w->events[size_t(i)];
        if (e.kind != kind.kind ||
            (kind.sameStage &&
             (e.stage != end.stage || e.pipeline != end.pipeline)))
          continue;
        double at = e.late ? std::min(e.ns, end.ns) : e.ns;
        // Late releases of a cluster's CTAs may all be placed at the
        // wait's end: the one with the latest lower bound came last.
        bool later =
            !best || at > best->ns ||
            (at == best->ns && e.earliest() > best->event(*this).earliest());
        if (later)
          best = Signal{int(lane), i, at};
        break;
      }
    }
    return best;
  }

  std::vector<const WarpTrace *> warps;
  std::map<int, double> starts;
};

std::string whatOf(const ChainLink &link) {
  switch (link.part) {
  case ChainPart::Setup:
    return "before the first event (start-up)";
  case ChainPart::Work:
    return (link.role.empty() ? "warp" : link.role) + " working";
  case ChainPart::Load:
    return "loads in flight";
  case ChainPart::Release:
    return "released stages reaching the producer";
  case ChainPart::Turn:
    return "turns passed between consumers";
  case ChainPart::Unrecorded:
    return "waits on signals from outside the trace";
  case ChainPart::Epilogue:
    return "after the last event (the epilogue)";
  }
  return "";
}

} // namespace

std::vector<ChainLink> klx::rt::traceCriticalChain(const DecodedTrace &trace,
                                                   int ctaId) {
  auto cta = std::find_if(trace.ctas.begin(), trace.ctas.end(),
                          [&](const CtaTrace &c) { return c.cta == ctaId; });
  if (cta == trace.ctas.end())
    return {};
  int64_t cluster = trace.clusterOf(ctaId);
  std::map<int, double> starts;
  for (const CtaTrace &c : trace.ctas)
    if (trace.clusterOf(c.cta) == cluster)
      starts[c.cta] = c.startNs;
  std::vector<const WarpTrace *> warps;
  bool own = false;
  for (const WarpTrace &w : trace.warps)
    if (starts.count(w.cta) && !w.events.empty()) {
      warps.push_back(&w);
      own |= w.cta == ctaId;
    }
  if (!own)
    return {};
  TraceRecording recording(std::move(warps), std::move(starts));
  ChainPlace end = recording.last(ctaId);
  std::vector<ChainLink> links;
  auto link = [&](int lane, double start, double endNs, ChainPart part,
                  int stage, bool late) {
    const WarpTrace &w = recording.warp(lane);
    links.push_back({w.cta, w.warp, w.role, start, endNs, part, stage, late});
  };
  if (cta->endNs > end.t)
    link(end.lane, end.t, cta->endNs, ChainPart::Epilogue, 0, false);
  for (const ChainStretch &s : walkChainBack(recording, end).stretches)
    link(s.lane, s.start, s.end, s.part, s.stage, s.late);
  std::reverse(links.begin(), links.end());
  return links;
}

std::vector<ChainShare>
klx::rt::summarizeChain(const std::vector<ChainLink> &chain) {
  std::map<std::string, ChainShare> byWhat;
  for (const ChainLink &link : chain) {
    ChainShare &share = byWhat[whatOf(link)];
    share.what = whatOf(link);
    share.ns += link.ns();
    ++share.links;
  }
  std::vector<ChainShare> out;
  for (auto &[what, share] : byWhat)
    out.push_back(share);
  std::stable_sort(
      out.begin(), out.end(),
      [](const ChainShare &a, const ChainShare &b) { return a.ns > b.ns; });
  return out;
}
