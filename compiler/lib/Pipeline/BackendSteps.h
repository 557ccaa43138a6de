//===- BackendSteps.h - Steps after the MLIR passes -------------*- C++ -*-===//

#ifndef KLX_LIB_PIPELINE_BACKENDSTEPS_H
#define KLX_LIB_PIPELINE_BACKENDSTEPS_H

#include "klx/Pipeline/Compiler.h"

#include "mlir/IR/BuiltinOps.h"

namespace klx {

/// Runs the first `stepCount` backend steps of run.target on every
/// gpu.module of `module`, appending snapshots and artifacts to `run`.
RunStatus runBackendSteps(mlir::ModuleOp module, const CompileOptions &options,
                          size_t stepCount, PipelineRun &run,
                          DiagnosticCollector &collector,
                          std::vector<Diag> &pending);

} // namespace klx

#endif // KLX_LIB_PIPELINE_BACKENDSTEPS_H
