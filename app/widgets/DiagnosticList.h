//===- DiagnosticList.h - The compile's messages, one row each --*- C++ -*-===//
//
// Under the Source editor: each message as file:line, its severity and its
// words (the whole of it on hover), its notes below it; a click takes the
// Source pane to its line.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_DIAGNOSTICLIST_H
#define KLX_APP_WIDGETS_DIAGNOSTICLIST_H

#include "core/AppState.h"

#include <vector>

namespace klx::app {

/// A child `height` pixels tall listing `diagnostics`.
void drawDiagnosticList(const std::vector<Diag> &diagnostics,
                        CommandQueue &commands, float height);

} // namespace klx::app

#endif // KLX_APP_WIDGETS_DIAGNOSTICLIST_H
