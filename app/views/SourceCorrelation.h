//===- SourceCorrelation.h - The source line of each line -------*- C++ -*-===//
//
// MLIR locations travel through LLVM debug info into PTX .loc, AMDGCN .loc
// and nvdisasm's line info; these functions read them back so that a click
// on a source line can highlight what it became, and back.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_SOURCECORRELATION_H
#define KLX_APP_VIEWS_SOURCECORRELATION_H

#include "SyntaxTokens.h"

#include "klx/Pipeline/PipelineRun.h"

#include <cstdint>
#include <vector>

namespace klx::app {

/// For each line of a snapshot's text (0-based), the 1-based source line it
/// came from, or 0.
std::vector<uint32_t> sourceLinesOf(const Snapshot &snapshot);

/// The same for assembly or LLVM IR text alone.
std::vector<uint32_t> sourceLinesOfText(llvm::StringRef text,
                                        Language language);

} // namespace klx::app

#endif // KLX_APP_VIEWS_SOURCECORRELATION_H
