//===- Trace.cpp - A measured timeline, decoded ---------------------------===//

#include "klx/Runtime/Trace.h"

#include "klx/Runtime/Json.h"

#include <algorithm>
#include <map>

using namespace klx::rt;

namespace {

bool knownKind(int64_t kind) { return kind >= 1 && kind <= 10; }

const char *waitName(TraceKind begin) {
  switch (begin) {
  case TraceKind::WaitFullBegin:
    return "wait full";
  case TraceKind::WaitEmptyBegin:
    return "wait empty";
  default:
    return "wait turn";
  }
}

const char *instantName(TraceKind kind) {
  switch (kind) {
  case TraceKind::CopyIssue:
    return "copy";
  case TraceKind::MmaIssue:
    return "mma";
  case TraceKind::ReleaseEmpty:
    return "arrive empty";
  case TraceKind::PassTurn:
    return "pass turn";
  default:
    return "?";
  }
}

bool isBegin(TraceKind k) {
  return k == TraceKind::WaitFullBegin || k == TraceKind::WaitEmptyBegin ||
         k == TraceKind::WaitTurnBegin;
}

/// The end that closes a begin.
TraceKind endOf(TraceKind begin) { return TraceKind(int(begin) + 1); }

bool isEnd(TraceKind k) {
  return k == TraceKind::WaitFullEnd || k == TraceKind::WaitEmptyEnd ||
         k == TraceKind::WaitTurnEnd;
}

} // namespace

std::vector<WarpTrace> klx::rt::decodeTrace(
    const std::vector<int64_t> &buffer, const TraceLayout &layout,
    const std::vector<std::string> &warpRoles, int64_t &unknown) {
  std::vector<WarpTrace> out;
  unknown = 0;
  int64_t region = 1 + 2 * layout.events;
  for (int64_t cta = 0; cta < layout.ctas; ++cta)
    for (int64_t warp = 0; warp < layout.warps; ++warp) {
      int64_t base = (cta * layout.warps + warp) * region;
      if (base + region > int64_t(buffer.size()))
        return out;
      int64_t count = buffer[base];
      if (count <= 0)
        continue;
      WarpTrace trace;
      trace.cta = int(cta);
      trace.warp = int(warp);
      trace.role = warp < int64_t(warpRoles.size()) ? warpRoles[warp] : "";
      int64_t kept = std::min(count, layout.events);
      trace.dropped = count - kept;
      for (int64_t i = 0; i < kept; ++i) {
        int64_t clock = buffer[base + 1 + 2 * i];
        int64_t what = buffer[base + 2 + 2 * i];
        if (!knownKind(what & 0xFF)) {
          ++unknown;
          continue;
        }
        trace.events.push_back(
            {clock, TraceKind(what & 0xFF), int((what >> 8) & 0xFFFF)});
      }
      // Atomics order the slots, not the clocks: sort by time.
      std::stable_sort(trace.events.begin(), trace.events.end(),
                       [](const TraceEvent &a, const TraceEvent &b) {
                         return a.clock < b.clock;
                       });
      out.push_back(std::move(trace));
    }
  return out;
}

TraceSummary klx::rt::summarizeTrace(const std::vector<WarpTrace> &warps) {
  TraceSummary summary;
  std::map<std::string, std::pair<double, double>> byRole; // waiting, total
  for (const WarpTrace &w : warps) {
    summary.events += int64_t(w.events.size());
    summary.dropped += w.dropped;
    if (w.events.empty())
      continue;
    double waiting = 0;
    int64_t openAt = -1;
    for (const TraceEvent &e : w.events) {
      if (isBegin(e.kind))
        openAt = e.clock;
      else if (isEnd(e.kind) && openAt >= 0) {
        waiting += double(e.clock - openAt);
        openAt = -1;
      }
    }
    double total = double(w.events.back().clock - w.events.front().clock);
    auto &entry = byRole[w.role.empty() ? "warp" : w.role];
    entry.first += waiting;
    entry.second += total;
  }
  for (const auto &[role, times] : byRole)
    summary.waitingShare.push_back(
        {role, times.second > 0 ? times.first / times.second : 0});
  return summary;
}

std::string klx::rt::chromeTraceJson(const std::vector<WarpTrace> &warps,
                                     double clockKHz, const std::string &kernel,
                                     const std::string &note) {
  std::map<int, int64_t> ctaStart;
  for (const WarpTrace &t : warps)
    if (!t.events.empty()) {
      auto it = ctaStart.find(t.cta);
      int64_t first = t.events.front().clock;
      if (it == ctaStart.end() || first < it->second)
        ctaStart[t.cta] = first;
    }
  double perCycleUs = clockKHz > 0 ? 1e3 / clockKHz : 1e-3;
  auto us = [&](int cta, int64_t clock) {
    return double(clock - ctaStart[cta]) * perCycleUs;
  };
  // Written one event at a time: a whole kernel's trace holds millions, too
  // many to build as one document first.
  std::string out = "{\"traceEvents\":[";
  bool first = true;
  auto emit = [&](const Json &event) {
    out += first ? "" : ",";
    out += event.dump();
    first = false;
  };
  for (const auto &[cta, start] : ctaStart)
    emit({{"name", "process_name"},
          {"ph", "M"},
          {"pid", cta},
          {"args", {{"name", "CTA " + std::to_string(cta)}}}});
  for (const WarpTrace &t : warps) {
    emit({{"name", "thread_name"},
          {"ph", "M"},
          {"pid", t.cta},
          {"tid", t.warp},
          {"args",
           {{"name", "warp " + std::to_string(t.warp) +
                         (t.role.empty() ? "" : " (" + t.role + ")")}}}});
    const TraceEvent *open = nullptr;
    for (const TraceEvent &e : t.events) {
      if (isBegin(e.kind)) {
        open = &e;
        continue;
      }
      // An end without its begin (the begin fell past the buffer's end).
      if (isEnd(e.kind) && (!open || endOf(open->kind) != e.kind)) {
        open = nullptr;
        continue;
      }
      std::string stage = "[" + std::to_string(e.stage) + "]";
      if (isEnd(e.kind)) {
        emit({{"name", std::string(waitName(open->kind)) +
                           (e.kind == TraceKind::WaitTurnEnd ? "" : stage)},
              {"ph", "X"},
              {"ts", us(t.cta, open->clock)},
              {"dur", double(e.clock - open->clock) * perCycleUs},
              {"pid", t.cta},
              {"tid", t.warp}});
        open = nullptr;
      } else {
        emit({{"name", std::string(instantName(e.kind)) +
                           (e.kind == TraceKind::PassTurn ? "" : stage)},
              {"ph", "i"},
              {"s", "t"},
              {"ts", us(t.cta, e.clock)},
              {"pid", t.cta},
              {"tid", t.warp}});
      }
    }
  }
  Json other = {{"kernel", kernel},
                {"clock", "clock64 cycles at " +
                              std::to_string(int64_t(clockKHz)) +
                              " kHz; each CTA from its first event"},
                {"note", note}};
  out += "],\"displayTimeUnit\":\"ns\",\"otherData\":" + other.dump() + "}";
  return out + "\n";
}
