//===- BackendSteps.h - Steps after the MLIR passes -------------*- C++ -*-===//

#ifndef KLX_LIB_PIPELINE_BACKENDSTEPS_H
#define KLX_LIB_PIPELINE_BACKENDSTEPS_H

#include "klx/Pipeline/Compiler.h"

#include "mlir/IR/BuiltinOps.h"

namespace klx {

/// Runs the first `stepCount` backend steps of run.target on every
/// gpu.module of `module`, appending snapshots and artifacts to `run`.
/// The first is step `firstIndex` of a plan of `planCount` (enterStep).
RunStatus runBackendSteps(mlir::ModuleOp module, const CompileOptions &options,
                          size_t stepCount, size_t firstIndex, size_t planCount,
                          PipelineRun &run, DiagnosticCollector &collector,
                          std::vector<Diag> &pending);

/// Before step `index` of `count`: false (and a diagnostic in `pending`)
/// if options.stop asks the run to end here, else tells options.onStep.
bool enterStep(const CompileOptions &options, size_t index, size_t count,
               llvm::StringRef name, std::vector<Diag> &pending);

} // namespace klx

#endif // KLX_LIB_PIPELINE_BACKENDSTEPS_H
