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
  std::string out;
  JsonWriter w(out);
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
  w.beginObject();
  w.key("traceEvents");
  w.beginArray();
  for (const auto &[cta, start] : ctaStart) {
    w.beginObject();
    w.key("name");
    w.value("process_name");
    w.key("ph");
    w.value("M");
    w.key("pid");
    w.value(int64_t(cta));
    w.key("args");
    w.beginObject();
    w.key("name");
    w.value("CTA " + std::to_string(cta));
    w.endObject();
    w.endObject();
  }
  for (const WarpTrace &t : warps) {
    w.beginObject();
    w.key("name");
    w.value("thread_name");
    w.key("ph");
    w.value("M");
    w.key("pid");
    w.value(int64_t(t.cta));
    w.key("tid");
    w.value(int64_t(t.warp));
    w.key("args");
    w.beginObject();
    w.key("name");
    w.value("warp " + std::to_string(t.warp) +
            (t.role.empty() ? "" : " (" + t.role + ")"));
    w.endObject();
    w.endObject();
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
      w.beginObject();
      if (isEnd(e.kind)) {
        w.key("name");
        w.value(std::string(waitName(open->kind)) +
                (e.kind == TraceKind::WaitTurnEnd ? "" : stage));
        w.key("ph");
        w.value("X");
        w.key("ts");
        w.value(us(t.cta, open->clock));
        w.key("dur");
        w.value(double(e.clock - open->clock) * perCycleUs);
        open = nullptr;
      } else {
        w.key("name");
        w.value(std::string(instantName(e.kind)) +
                (e.kind == TraceKind::PassTurn ? "" : stage));
        w.key("ph");
        w.value("i");
        w.key("s");
        w.value("t");
        w.key("ts");
        w.value(us(t.cta, e.clock));
      }
      w.key("pid");
      w.value(int64_t(t.cta));
      w.key("tid");
      w.value(int64_t(t.warp));
      w.endObject();
    }
  }
  w.endArray();
  w.key("displayTimeUnit");
  w.value("ns");
  w.key("otherData");
  w.beginObject();
  w.key("kernel");
  w.value(kernel);
  w.key("clock");
  w.value("clock64 cycles at " + std::to_string(int64_t(clockKHz)) +
          " kHz; each CTA from its first event");
  w.key("note");
  w.value(note);
  w.endObject();
  w.endObject();
  return out + "\n";
}
