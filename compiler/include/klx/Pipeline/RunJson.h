//===- RunJson.h - A PipelineRun as JSON ------------------------*- C++ -*-===//
//
// The --json form of `klx compile` and `klx pipeline`; its keys are listed
// in docs/cli.md and tests read them.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_PIPELINE_RUNJSON_H
#define KLX_PIPELINE_RUNJSON_H

#include "klx/Pipeline/PipelineRun.h"

#include "llvm/Support/JSON.h"

namespace klx {

llvm::StringRef runStatusName(RunStatus status);

void writeDiagJson(llvm::json::OStream &json, const Diag &diag);

/// Writes the run as one JSON object: file, target, status, total_ms,
/// steps (without their text), diagnostics and artifacts. `extra` may add
/// more members to the object.
void writeRunJson(llvm::json::OStream &json, const PipelineRun &run,
                  llvm::function_ref<void(llvm::json::OStream &)> extra = {});

} // namespace klx

#endif // KLX_PIPELINE_RUNJSON_H
