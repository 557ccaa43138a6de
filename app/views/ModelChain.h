//===- ModelChain.h - What set the simulated kernel's end -------*- C++ -*-===//
//
// klx-run walks a measured CTA back from its end to find what set it
// (runtime/lib/CriticalChain.cpp); this is the same walk (the runtime's
// walkChainBack, ChainWalk.h) on the Barrier timeline's simulation, so
// the Measured pane can put the model's answer beside the GPU's: from the
// role that finished last, back along its lane to each wait that blocked,
// then to the signal that ended the wait (a copy's bytes landing: back to
// that copy's issue, a load in flight; an arrive: a release reaching the
// waiter) and on along the signalling role's lane, until the start.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_MODELCHAIN_H
#define KLX_APP_VIEWS_MODELCHAIN_H

#include "views/TimelineView.h"

#include <string>
#include <utility>
#include <vector>

namespace klx::app {

struct ModelChain {
  /// Cycles by part ("consumer working", "loads in flight", "releases",
  /// "turns"), largest first; they add up to `end`.
  std::vector<std::pair<std::string, double>> parts;
  double end = 0;
  /// Where the walk stopped short: "unknown, because ..." (a wait whose
  /// signal the model did not record); the parts then cover less.
  std::string unknown;
  /// "consumer working 61%, loads in flight 33%, releases 6%".
  std::string describe() const;
};

ModelChain modelCriticalChain(const TimelineView &view);

} // namespace klx::app

#endif // KLX_APP_VIEWS_MODELCHAIN_H
