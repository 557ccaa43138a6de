//===- CriticalPath.h - What set a measured kernel's time -------*- C++ -*-===//
//
// From a whole-kernel trace: which role waited on which barrier and for
// how long (ranked), and what the kernel's end was made of: the CTA that
// finished last, how long it ran before its first MMA (its loads in
// flight), its main loop (first to last MMA), its epilogue (after its
// last MMA), and the tail (how long after most CTAs had ended it did).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CRITICALPATH_H
#define KLX_RUNTIME_CRITICALPATH_H

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

struct CriticalPath {
  std::vector<WaitRow> waits; // longest first
  KernelEnd end;
  bool known() const { return end.cta >= 0; }
};

CriticalPath analyzeCriticalPath(const DecodedTrace &trace);

/// The analysis as "critical path: ..." lines for klx-run's report.
std::string formatCriticalPath(const CriticalPath &path);

} // namespace klx::rt

#endif // KLX_RUNTIME_CRITICALPATH_H
