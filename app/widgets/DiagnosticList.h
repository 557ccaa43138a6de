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

/// Every message of `run`, and the worst severity on each line of its
/// file that one points at (a line the editor marks).
void collectDiagnostics(const PipelineRun &run, std::vector<Diag> &diagnostics,
                        std::map<unsigned, Severity> &lineSeverity);

/// The messages on `line` of the file, as a tooltip.
void lineMessagesTooltip(const std::vector<Diag> &diagnostics, unsigned line);

} // namespace klx::app

#endif // KLX_APP_WIDGETS_DIAGNOSTICLIST_H
