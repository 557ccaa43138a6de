//===- TimelineVerdict.h - The Barrier timeline's verdicts ------*- C++ -*-===//
//
// What the Barrier timeline pane says above and beside its lanes: the
// simulated verdict (completes, or the deadlock and why), klx verify's
// verdict for every timing with the button that draws its counterexample,
// and the counterexample's moves as a list of links.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_PANELS_TIMELINEVERDICT_H
#define KLX_APP_PANELS_TIMELINEVERDICT_H

#include "core/AppState.h"

namespace klx::app {

/// Where the model came from, on hover of the item drawn last.
void modelTooltip(const TimelineView &view);
/// "simulated: completes in N cycles", or the deadlock and its reasons.
void drawVerdict(const TimelineView &view);
/// klx verify's verdict under the simulated one, and the button that
/// swaps the lanes for its counterexample.
void drawVerification(const TimelineView &view, bool counter,
                      CommandQueue &commands);
void drawCounterexampleHeader(const TimelineView &view);
/// The counterexample as a list: move, role, what, line; a click selects
/// the model's step and the op's source line.
void drawMoves(const AppState &state, const TimelineView &view,
               CommandQueue &commands);

} // namespace klx::app

#endif // KLX_APP_PANELS_TIMELINEVERDICT_H
