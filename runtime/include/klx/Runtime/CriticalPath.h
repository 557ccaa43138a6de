//===- CriticalPath.h - What set a measured kernel's time -------*- C++ -*-===//
//
// From a whole-kernel trace: which role waited on which barrier and for
// how long (ranked), and what the kernel's end was made of: the CTA that
// finished last, how long it ran before its first MMA (its loads in
// flight), its main loop (first to last MMA), its epilogue (after its
// last MMA), and the tail (how long after most CTAs had ended it did);
// and, in that CTA, the chain of work and waits that set its end, walked
// back from its end (CriticalChain.cpp, on ChainWalk.h's walk).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CRITICALPATH_H
#define KLX_RUNTIME_CRITICALPATH_H

#include "klx/Runtime/ChainWalk.h"
#include "klx/Runtime/Trace.h"

#include <string>
#include <vector>

namespace klx::rt {

/// One role's waits on one kind of barrier, over every traced CTA.
struct WaitRow {
  std::string role;    // "consumer", "producer", ...
  std::string barrier; // "full", "empty", "turn"
  double ns = 0;       // summed over the role's warps
  int64_t waits = 0;
  double share = 0; // of the role's recorded time (first to last event)
};

/// The CTA whose end was the kernel's end, cut where its MMAs began and
/// ended.
struct KernelEnd {
  int cta = -1, sm = -1;
  double startNs = 0, endNs = 0;
  double firstMmaNs = 0, lastMmaNs = 0; // -1 when it recorded no MMA
  double medianEndNs = 0;               // half the CTAs had ended by
  double beforeMmaNs() const { return firstMmaNs - startNs; }
  double mainLoopNs() const { return lastMmaNs - firstMmaNs; }
  double afterMmaNs() const { return endNs - lastMmaNs; }
  double tailNs() const { return endNs - medianEndNs; }
};

/// One stretch of the chain, on the warp that was on it then.
struct ChainLink {
  int cta = 0; // the CTA the warp is in: in a cluster, perhaps another's
  int warp = 0;
  std::string role;
  double startNs = 0, endNs = 0;
  ChainPart part = ChainPart::Work;
  int stage = 0; // the stage loaded or released
  /// A boundary of it is a release stamped late (TraceEvent::late), which
  /// happened after its warp's event before and by its stamp: a release's
  /// stretch starts at the stamp and may have begun sooner; where the
  /// stamp came after the wait's end (the stretch of no length), the work
  /// before the release runs to the wait's end and may have ended sooner.
  bool lateRelease = false;
  double ns() const { return endNs - startNs; }
};

/// The chain's time by what it was ("consumer working", "loads in
/// flight", ...), longest first.
struct ChainShare {
  std::string what;
  double ns = 0;
  int64_t links = 0;
};
std::vector<ChainShare> summarizeChain(const std::vector<ChainLink> &chain);

/// Walks back from the end of `cta`: along the warp that recorded last;
/// where it had waited on a barrier, to the event that completed the
/// barrier (the copy that filled a stage, the release that emptied it,
/// the turn passed), and on along that warp, to the CTA's start. In a
/// cluster a stage's copies and releases come from every CTA of it, so
/// the latest may be another CTA's, and the walk goes on there. The
/// links come out in time order.
std::vector<ChainLink> traceCriticalChain(const DecodedTrace &trace, int cta);

/// One output tile of a CTA: from its first MMA to the next tile's first
/// (or the CTA's end), its last MMA between, and the chain's time then.
struct TileSpan {
  int index = 0; // in the CTA's order
  double startNs = 0, lastMmaNs = 0, endNs = 0;
  std::vector<ChainShare> chain;
  double ns() const { return endNs - startNs; }
};
struct TileBreakdown {
  std::vector<TileSpan> tiles;
  std::string unknown; // why there are no tiles, when it is known why
};

/// The tiles of `cta` from its consumers' MMAs, `kSteps` to a tile
/// (CriticalTiles.cpp), each with `chain` cut to its time.
TileBreakdown splitByTile(const DecodedTrace &trace, int cta, int64_t kSteps,
                          const std::vector<ChainLink> &chain);

struct CriticalPath {
  std::vector<WaitRow> waits; // longest first
  /// Per role that recorded, by name: its rows' shares summed (0 for a
  /// role whose waits never blocked).
  std::vector<std::pair<std::string, double>> waitingByRole;
  KernelEnd end;
  std::vector<ChainLink> chain; // back from the CTA that ended the kernel
  TileBreakdown tiles;          // ... and its tiles, when k steps are known
  bool known() const { return end.cta >= 0; }
};

/// `kSteps` (K / tile_k; 0 when unknown) splits the last CTA into tiles.
CriticalPath analyzeCriticalPath(const DecodedTrace &trace, int64_t kSteps = 0);

/// The analysis as "critical path: ..." lines for klx-run's report.
std::string formatCriticalPath(const CriticalPath &path);
/// ... a line each, without the newlines (the trace's otherData).
std::vector<std::string> criticalPathLines(const CriticalPath &path);

} // namespace klx::rt

#endif // KLX_RUNTIME_CRITICALPATH_H
