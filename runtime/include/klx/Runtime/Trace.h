//===- Trace.h - A measured timeline, decoded -------------------*- C++ -*-===//
//
// An instrumented kernel (klx export --trace) writes, per traced CTA, a
// header (globaltimer and clock64 at its start and end, its SM, its block
// id) and per warp its events as clock64's low 32 bits, stage and kind
// (BundleFormat.h, kTraceFormat). This turns the buffer into per-CTA spans
// and per-warp events on one time axis (each SM's clock mapped onto
// globaltimer through its CTA's two stamps) and writes Chrome trace JSON
// (Perfetto opens it): one process per CTA, one thread per warp that
// recorded anything, a slice per barrier wait, an instant per arrive, copy
// and MMA issue, and a process "SMs" with a thread per SM whose slices are
// the CTAs it ran.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_TRACE_H
#define KLX_RUNTIME_TRACE_H

#include "klx/Runtime/BundleFormat.h"
#include "klx/Runtime/Manifest.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace klx::rt {

struct CriticalPath;

struct TraceEvent {
  int64_t clock = 0; // the SM's clock64
  double ns = 0;     // since the first CTA started, on globaltimer's axis
  TraceKind kind = TraceKind::CopyIssue;
  int stage = 0;
  int pipeline = 0; // which producer's stages (two producers: 0 and 1)
  /// Stamped late (kTraceStampedLate): `clock` and `ns` are the warp's
  /// next event's, and it happened after `earliestNs`, its previous
  /// event's time (the CTA's start for a first event).
  bool late = false;
  double earliestNs = 0;
  double earliest() const { return late ? earliestNs : ns; }
};

struct WarpTrace {
  int cta = 0, warp = 0, sm = 0;
  std::string role;
  std::vector<TraceEvent> events;
  int64_t dropped = 0; // recorded past the buffer's end
};

/// When and where one CTA ran.
struct CtaTrace {
  int cta = 0, sm = 0;
  double startNs = 0, endNs = 0; // since the first CTA started
  bool ended = false;            // its end stamp was written
  /// Nanoseconds per clock64 cycle on its SM, from the two stamps (or the
  /// device's clock rate when the CTA has no end stamp).
  double nsPerCycle = 0;
};

/// Where the buffer's words go: `slots` CTAs of `warps` warps, `capacity`
/// events per warp.
struct TraceLayout {
  int64_t slots = 0, warps = 0, capacity = 0;
  int64_t ctaWords() const {
    return kTraceHeaderWords + warps * (1 + capacity);
  }
  int64_t words() const { return slots * ctaWords(); }
};

struct DecodedTrace {
  std::vector<CtaTrace> ctas;   // by block id
  std::vector<WarpTrace> warps; // that recorded something, by slot, then warp
  int64_t unknown = 0;          // events of a kind klx does not know
  /// The most events one warp recorded, written or not: the capacity that
  /// would have kept every event.
  int64_t mostRecorded = 0;
  /// The launch's clusters (CTAs along x and y) and its grid's width: a
  /// CTA's block id is x + y * gridX. 1 x 1 when the kernel has none.
  std::array<int64_t, 2> cluster{1, 1};
  int64_t gridX = 0;
  int64_t dropped() const;
  /// Which cluster block id `cta` ran in (its own id without clusters).
  int64_t clusterOf(int64_t cta) const;
};

/// `clockKHz` is the device's clock rate, used only for a CTA without an
/// end stamp.
DecodedTrace decodeTrace(const std::vector<int64_t> &buffer,
                         const TraceLayout &layout,
                         const std::vector<std::string> &warpRoles,
                         double clockKHz);

/// How many CTAs a launch of `grid` runs.
inline int64_t ctasIn(const std::array<unsigned, 3> &grid) {
  return int64_t(grid[0]) * grid[1] * grid[2];
}

/// The buffer for a launch of `grid` CTAs: a slot per traced CTA, room for
/// traceCapacityFor's events per warp.
TraceLayout traceLayoutFor(const Manifest &m, const TraceSection &t,
                           const ProblemSize &size,
                           const std::array<unsigned, 3> &grid);

/// The most a trace buffer may take on the GPU (and in klx-run's memory).
inline constexpr int64_t kMaxTraceBytes = int64_t(4) << 30;

/// How many SMs ran a traced CTA.
int64_t countSms(const DecodedTrace &trace);

/// Events per warp to make room for before a first recording: a k step
/// records at most 6 events per warp (a wait's two ends, two copies or an
/// MMA, an arrive), a tile a few more; `tilesPerCta` and `kSteps` from the
/// problem and the grid.
int64_t traceCapacityFor(int64_t tilesPerCta, int64_t kSteps);

/// What was recorded; how long each role waited is the critical path's
/// (CriticalPath::waitingByRole).
struct TraceSummary {
  int64_t events = 0;
  int64_t dropped = 0;
};

TraceSummary summarizeTrace(const std::vector<WarpTrace> &warps);

/// Chrome trace JSON, times in microseconds since the first CTA started;
/// `clockKHz` is stated in otherData (the window turns times into cycles).
/// `path`'s lines and its chain (as [warp, start us, end us, part, cta]
/// in "critical_chain", and a sixth element true where the link is
/// ChainLink::lateRelease) go into otherData for a reader of the file to
/// show,
/// and `bundle`'s source file, -D values and its text's digest ("source",
/// "defines", "source_digest" where the bundle says one): which build of
/// which kernel was recorded, for the window to tell whether the kernel
/// it compiles now is the one.
std::string chromeTraceJson(const DecodedTrace &trace, double clockKHz,
                            const std::string &kernel, const std::string &note,
                            const std::string &device = "",
                            const CriticalPath *path = nullptr,
                            const Manifest *bundle = nullptr);

} // namespace klx::rt

#endif // KLX_RUNTIME_TRACE_H
