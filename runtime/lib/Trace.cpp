//===- Trace.cpp - A measured timeline, decoded ---------------------------===//

#include "klx/Runtime/Trace.h"

#include "klx/Runtime/CriticalPath.h"
#include "klx/Runtime/Json.h"
#include "klx/Runtime/Launch.h"

#include <algorithm>

using namespace klx::rt;

namespace {

bool knownKind(int64_t kind) { return kind >= 1 && kind <= 10; }

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

int64_t header(const std::vector<int64_t> &buffer, int64_t base,
               TraceHeader word) {
  return buffer[size_t(base + int64_t(word))];
}

/// One CTA's stamps, on globaltimer's axis less `origin` (the first CTA's
/// start): made relative in integers, because globaltimer counts
/// nanoseconds since 1970 and a double that large holds them only to
/// 256 ns.
CtaTrace readCta(const std::vector<int64_t> &buffer, int64_t base,
                 double clockKHz, int64_t origin) {
  CtaTrace cta;
  cta.cta = int(header(buffer, base, TraceHeader::BlockId) - 1);
  cta.sm = int(header(buffer, base, TraceHeader::SmId));
  int64_t startTimer = header(buffer, base, TraceHeader::StartTimer);
  int64_t startClock = header(buffer, base, TraceHeader::StartClock);
  int64_t endTimer = header(buffer, base, TraceHeader::EndTimer);
  int64_t endClock = header(buffer, base, TraceHeader::EndClock);
  cta.ended = endTimer > startTimer && endClock > startClock;
  cta.nsPerCycle =
      cta.ended ? double(endTimer - startTimer) / double(endClock - startClock)
      : clockKHz > 0 ? 1e6 / clockKHz
                     : 1.0;
  cta.startNs = double(startTimer - origin);
  cta.endNs = cta.ended ? double(endTimer - origin) : cta.startNs;
  return cta;
}

/// One warp's region: its events (clocks widened from 32 bits against the
/// CTA's start), or nothing when it recorded none.
WarpTrace readWarp(const std::vector<int64_t> &buffer, int64_t region,
                   int64_t capacity, int64_t startClock, double startNs,
                   double nsPerCycle, int64_t &unknown, int64_t &recorded) {
  WarpTrace trace;
  int64_t count = buffer[size_t(region)];
  int64_t written = 0;
  while (written < capacity && buffer[size_t(region + 1 + written)] != 0)
    ++written;
  recorded = count > 0 ? count : written;
  trace.dropped = recorded - written;
  // Each event's 32 clock bits are widened against the one before (one
  // thread writes a warp's events in order), so a CTA may run past 2^32
  // cycles as long as no two of a warp's events are that far apart.
  int64_t previous = startClock;
  for (int64_t i = 0; i < written; ++i) {
    uint64_t word = uint64_t(buffer[size_t(region + 1 + i)]);
    int64_t kind = int64_t(word & 0xFF & ~kTraceStampedLate);
    if (!knownKind(kind)) {
      ++unknown;
      continue;
    }
    uint32_t clock32 = uint32_t(word >> 32);
    int64_t clock =
        previous + int64_t(uint32_t(clock32 - uint32_t(uint64_t(previous))));
    previous = clock;
    TraceEvent event{clock, startNs + double(clock - startClock) * nsPerCycle,
                     TraceKind(kind), int((word >> 8) & 0xFFFF),
                     int((word >> 24) & 0xFF)};
    if (word & kTraceStampedLate) {
      event.late = true;
      event.earliestNs =
          trace.events.empty() ? startNs : trace.events.back().ns;
    }
    trace.events.push_back(event);
  }
  // One writer per warp records in order; sorted anyway for safety.
  std::stable_sort(trace.events.begin(), trace.events.end(),
                   [](const TraceEvent &a, const TraceEvent &b) {
                     return a.clock < b.clock;
                   });
  return trace;
}

} // namespace

int64_t DecodedTrace::dropped() const {
  int64_t n = 0;
  for (const WarpTrace &w : warps)
    n += w.dropped;
  return n;
}

int64_t DecodedTrace::clusterOf(int64_t cta) const {
  auto [cx, cy] = cluster;
  if (gridX <= 0 || cx < 1 || cy < 1 || cx * cy == 1)
    return cta;
  int64_t x = cta % gridX, y = cta / gridX;
  int64_t clustersAlongX = (gridX + cx - 1) / cx;
  return (y / cy) * clustersAlongX + x / cx;
}

int64_t klx::rt::traceCapacityFor(int64_t tilesPerCta, int64_t kSteps) {
  return std::max<int64_t>(tilesPerCta, 1) *
             (std::max<int64_t>(kSteps, 1) * 6 + 8) +
         16;
}

TraceLayout klx::rt::traceLayoutFor(const Manifest &m, const TraceSection &t,
                                    const ProblemSize &size,
                                    const std::array<unsigned, 3> &grid) {
  auto ceilDiv = [](int64_t a, int64_t b) {
    return b > 0 ? (a + b - 1) / b : 0;
  };
  int64_t ctas = ctasIn(grid);
  TraceLayout layout;
  layout.warps = t.warps;
  layout.slots = !t.ctaList.empty() ? int64_t(t.ctaList.size())
                 : t.ctas == 0      ? ctas
                                    : std::min(t.ctas, ctas);
  int64_t tiles = ceilDiv(size.m, m.tile[0]) * ceilDiv(size.n, m.tile[1]);
  layout.capacity = traceCapacityFor(ceilDiv(tiles, ctas), kStepsFor(m, size));
  return layout;
}

int64_t klx::rt::countSms(const DecodedTrace &trace) {
  std::vector<bool> seen;
  int64_t n = 0;
  for (const CtaTrace &cta : trace.ctas) {
    if (size_t(cta.sm) >= seen.size())
      seen.resize(size_t(cta.sm) + 1);
    n += !seen[size_t(cta.sm)];
    seen[size_t(cta.sm)] = true;
  }
  return n;
}

DecodedTrace klx::rt::decodeTrace(const std::vector<int64_t> &buffer,
                                  const TraceLayout &layout,
                                  const std::vector<std::string> &warpRoles,
                                  double clockKHz) {
  DecodedTrace out;
  if (int64_t(buffer.size()) < layout.words())
    return out;
  // One time axis: nanoseconds since the first CTA started.
  int64_t origin = 0;
  bool first = true;
  for (int64_t slot = 0; slot < layout.slots; ++slot) {
    int64_t base = slot * layout.ctaWords();
    if (header(buffer, base, TraceHeader::BlockId) <= 0)
      continue;
    int64_t start = header(buffer, base, TraceHeader::StartTimer);
    origin = first ? start : std::min(origin, start);
    first = false;
  }
  for (int64_t slot = 0; slot < layout.slots; ++slot) {
    int64_t base = slot * layout.ctaWords();
    if (header(buffer, base, TraceHeader::BlockId) <= 0)
      continue; // a slot no CTA wrote (a listed CTA the grid lacks)
    CtaTrace cta = readCta(buffer, base, clockKHz, origin);
    int64_t startClock = header(buffer, base, TraceHeader::StartClock);
    for (int64_t warp = 0; warp < layout.warps; ++warp) {
      int64_t region = base + kTraceHeaderWords + warp * (1 + layout.capacity);
      int64_t recorded = 0;
      WarpTrace trace =
          readWarp(buffer, region, layout.capacity, startClock, cta.startNs,
                   cta.nsPerCycle, out.unknown, recorded);
      out.mostRecorded = std::max(out.mostRecorded, recorded);
      if (recorded == 0)
        continue;
      trace.cta = cta.cta;
      trace.sm = cta.sm;
      trace.warp = int(warp);
      trace.role = warp < int64_t(warpRoles.size()) ? warpRoles[warp] : "";
      if (!trace.events.empty())
        cta.endNs = std::max(cta.endNs, trace.events.back().ns);
      out.warps.push_back(std::move(trace));
    }
    out.ctas.push_back(cta);
  }
  std::sort(out.ctas.begin(), out.ctas.end(),
            [](const CtaTrace &a, const CtaTrace &b) { return a.cta < b.cta; });
  return out;
}

TraceSummary klx::rt::summarizeTrace(const std::vector<WarpTrace> &warps) {
  TraceSummary summary;
  for (const WarpTrace &w : warps) {
    summary.events += int64_t(w.events.size());
    summary.dropped += w.dropped;
  }
  return summary;
}

namespace {

double us(double ns) { return ns / 1e3; }

/// A Chrome trace written one event at a time: a whole kernel's trace
/// holds millions, too many to build as one document first.
struct ChromeWriter {
  std::string out = "{\"traceEvents\":[";
  bool first = true;
  void emit(const Json &event) {
    out += first ? "" : ",";
    out += dumpJson(event);
    first = false;
  }
};

/// The SMs' process, each SM a thread whose slices are the CTAs it ran
/// (waves, the tail), and each CTA's own process.
void writeSms(ChromeWriter &w, const DecodedTrace &trace) {
  w.emit({{"name", "process_name"},
          {"ph", "M"},
          {"pid", kTraceSmsPid},
          {"args", {{"name", "SMs"}}}});
  w.emit({{"name", "process_sort_index"},
          {"ph", "M"},
          {"pid", kTraceSmsPid},
          {"args", {{"sort_index", -1}}}});
  std::vector<bool> named;
  for (const CtaTrace &cta : trace.ctas) {
    if (size_t(cta.sm) >= named.size())
      named.resize(size_t(cta.sm) + 1);
    if (!named[size_t(cta.sm)])
      w.emit({{"name", "thread_name"},
              {"ph", "M"},
              {"pid", kTraceSmsPid},
              {"tid", cta.sm},
              {"args", {{"name", "SM " + std::to_string(cta.sm)}}}});
    named[size_t(cta.sm)] = true;
    w.emit({{"name", "CTA " + std::to_string(cta.cta)},
            {"ph", "X"},
            {"ts", us(cta.startNs)},
            {"dur", us(cta.endNs - cta.startNs)},
            {"pid", kTraceSmsPid},
            {"tid", cta.sm},
            {"args", {{"cta", cta.cta}, {"sm", cta.sm}}}});
    w.emit({{"name", "process_name"},
            {"ph", "M"},
            {"pid", cta.cta},
            {"args",
             {{"name", "CTA " + std::to_string(cta.cta) + " (SM " +
                           std::to_string(cta.sm) + ")"}}}});
  }
}

/// One warp's thread: each wait a slice from its begin to its end, every
/// other event an instant.
void writeWarp(ChromeWriter &w, const WarpTrace &t) {
  w.emit({{"name", "thread_name"},
          {"ph", "M"},
          {"pid", t.cta},
          {"tid", t.warp},
          {"args",
           {{"name", "warp " + std::to_string(t.warp) +
                         (t.role.empty() ? "" : " (" + t.role + ")")}}}});
  const TraceEvent *open = nullptr;
  for (const TraceEvent &e : t.events) {
    if (isWaitBegin(e.kind)) {
      open = &e;
      continue;
    }
    // An end without its begin (the begin fell past the buffer's end).
    if (isWaitEnd(e.kind) && (!open || waitEndOf(open->kind) != e.kind)) {
      open = nullptr;
      continue;
    }
    // "[2]", or "[2] of pipeline 1" where a second producer fills its own.
    std::string stage =
        "[" + std::to_string(e.stage) + "]" +
        (e.pipeline ? " of pipeline " + std::to_string(e.pipeline) : "");
    if (isWaitEnd(e.kind)) {
      w.emit({{"name", "wait " + std::string(waitBarrier(open->kind)) +
                           (e.kind == TraceKind::WaitTurnEnd ? "" : stage)},
              {"ph", "X"},
              {"ts", us(open->ns)},
              {"dur", us(e.ns - open->ns)},
              {"pid", t.cta},
              {"tid", t.warp}});
      open = nullptr;
    } else {
      // Stamped late: drawn at the next event's time, when it had happened
      // by; args say since when it could have.
      Json instant = {
          {"name", std::string(instantName(e.kind)) +
                       (e.kind == TraceKind::PassTurn ? "" : stage) +
                       (e.late ? ", stamped at the next event" : "")},
          {"ph", "i"},
          {"s", "t"},
          {"ts", us(e.ns)},
          {"pid", t.cta},
          {"tid", t.warp}};
      if (e.late)
        instant["args"] = {{"after_us", us(e.earliestNs)}};
      w.emit(instant);
    }
  }
}

/// otherData: the kernel, the clock, the build recorded and klx-run's
/// critical path.
Json otherData(const DecodedTrace &trace, double clockKHz,
               const std::string &kernel, const std::string &note,
               const std::string &device, const CriticalPath *path,
               const Manifest *bundle) {
  Json other = {{"kernel", kernel},
                {"clock", "clock64 cycles at " +
                              std::to_string(int64_t(clockKHz)) +
                              " kHz, every SM's mapped onto globaltimer; "
                              "times from the first CTA's start"},
                {"ctas", trace.ctas.size()},
                {"device", device},
                {"critical_path", Json::array()},
                {"note", note}};
  if (bundle) {
    other["source"] = bundle->source;
    Json defines = Json::object();
    for (const auto &[name, value] : bundle->defines)
      defines[name] = value;
    other["defines"] = defines;
    if (!bundle->sourceDigest.empty())
      other[bundlefile::kSourceDigest] = bundle->sourceDigest;
  }
  if (path) {
    other["critical_path"] = criticalPathLines(*path);
    Json links = Json::array();
    for (const ChainLink &link : path->chain) {
      Json entry = {link.warp, us(link.startNs), us(link.endNs),
                    chainPartKey(link.part), link.cta};
      if (link.lateRelease) // sixth, only where it holds (Trace.h)
        entry.push_back(true);
      links.push_back(entry);
    }
    other["critical_chain"] = {{"cta", path->end.cta}, {"links", links}};
  }
  return other;
}

} // namespace

std::string klx::rt::chromeTraceJson(const DecodedTrace &trace, double clockKHz,
                                     const std::string &kernel,
                                     const std::string &note,
                                     const std::string &device,
                                     const CriticalPath *path,
                                     const Manifest *bundle) {
  ChromeWriter w;
  writeSms(w, trace);
  for (const WarpTrace &t : trace.warps)
    writeWarp(w, t);
  Json other = otherData(trace, clockKHz, kernel, note, device, path, bundle);
  w.out +=
      "],\"displayTimeUnit\":\"ns\",\"otherData\":" + dumpJson(other) + "}";
  return w.out + "\n";
}
