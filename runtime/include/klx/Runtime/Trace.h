//===- Trace.h - A measured timeline, decoded -------------------*- C++ -*-===//
//
// An instrumented kernel (klx export --trace) writes, for each warp of its
// first CTAs, a count and then (clock64, what) pairs, what = kind | stage
// << 8. This turns the buffer into per-warp events and writes Chrome trace
// JSON (Perfetto opens it): one process per CTA, one thread per warp that
// recorded anything, a slice per barrier wait, an instant per arrive,
// copy and MMA issue.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_TRACE_H
#define KLX_RUNTIME_TRACE_H

#include "klx/Runtime/BundleFormat.h"

#include <cstdint>
#include <string>
#include <vector>

namespace klx::rt {

struct TraceEvent {
  int64_t clock = 0;
  TraceKind kind = TraceKind::CopyIssue;
  int stage = 0;
};

struct WarpTrace {
  int cta = 0, warp = 0;
  std::string role;
  std::vector<TraceEvent> events;
  int64_t dropped = 0; // recorded past the buffer's end
};

struct TraceLayout {
  int64_t ctas = 0, warps = 0, events = 0;
  int64_t words() const { return ctas * warps * (1 + 2 * events); }
};

/// The warps that recorded something, in (cta, warp) order. Unknown kinds
/// are kept out and counted in `unknown`.
std::vector<WarpTrace> decodeTrace(const std::vector<int64_t> &buffer,
                                   const TraceLayout &layout,
                                   const std::vector<std::string> &warpRoles,
                                   int64_t &unknown);

struct TraceSummary {
  int64_t events = 0;
  int64_t dropped = 0;
  /// Per role: share of its recorded time spent waiting on barriers.
  std::vector<std::pair<std::string, double>> waitingShare;
};

TraceSummary summarizeTrace(const std::vector<WarpTrace> &warps);

/// Chrome trace JSON. `clockKHz` converts clock64 cycles to microseconds;
/// each CTA's time starts at its first event (SM clocks are not shared).
std::string chromeTraceJson(const std::vector<WarpTrace> &warps,
                            double clockKHz, const std::string &kernel,
                            const std::string &note);

} // namespace klx::rt

#endif // KLX_RUNTIME_TRACE_H
