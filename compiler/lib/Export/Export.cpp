//===- Export.cpp - From a compile to a bundle on disk --------------------===//

#include "klx/Export/Export.h"

using namespace klx;

char ExportError::ID = 0;

static llvm::Error exportError(ExportError::Kind kind, std::string message) {
  return llvm::make_error<ExportError>(kind, std::move(message));
}

llvm::Expected<ProblemSize> klx::bundleSize(const PipelineRun &run,
                                            std::optional<ProblemSize> asked) {
  llvm::Expected<const KernelLaunch &> launch = bundleLaunch(run);
  if (!launch)
    return exportError(ExportError::Kind::Kernel,
                       llvm::toString(launch.takeError()));
  ProblemSize size = asked.value_or(defaultProblemSize(*launch));
  if (std::string why = checkProblemSize(*launch, targetName(run.target), size);
      !why.empty())
    return exportError(ExportError::Kind::Size, why);
  return size;
}

/// The same kernel compiled once more, recording its timeline.
static llvm::Expected<TraceBundle> instrumentedBuild(const PipelineRun &run,
                                                     const BundleRequest &r) {
  if (std::string why = checkTraceCtas(r.traceCtas); !why.empty())
    return exportError(ExportError::Kind::TraceCtas, why);
  CompileOptions traced = r.options;
  traced.lowering.instrument = true;
  traced.lowering.traceCtas = r.traceCtas;
  PipelineRun tracedRun = runPipeline(run.source, run.fileName, traced);
  if (r.tracedRunDone)
    r.tracedRunDone(tracedRun);
  llvm::Expected<TraceBundle> trace = traceBundleFromRun(tracedRun);
  if (!trace)
    return exportError(ExportError::Kind::Trace,
                       llvm::toString(trace.takeError()));
  return trace;
}

llvm::Expected<BundleContents> klx::makeBundle(const PipelineRun &run,
                                               const BundleRequest &request) {
  llvm::Expected<ProblemSize> size = bundleSize(run, request.size);
  if (!size)
    return size.takeError();
  llvm::Expected<BundleContents> bundle = bundleFromRun(run);
  if (!bundle)
    return exportError(ExportError::Kind::Kernel,
                       llvm::toString(bundle.takeError()));
  bundle->problem = *size;
  for (const auto &[name, value] : request.defines)
    bundle->defines[name] = value;
  if (request.trace) {
    llvm::Expected<TraceBundle> trace = instrumentedBuild(run, request);
    if (!trace)
      return trace.takeError();
    bundle->trace = std::move(*trace);
  }
  return bundle;
}

llvm::Expected<BundleContents> klx::exportBundle(const PipelineRun &run,
                                                 const BundleRequest &request,
                                                 llvm::StringRef dir) {
  llvm::Expected<BundleContents> bundle = makeBundle(run, request);
  if (!bundle)
    return bundle.takeError();
  if (llvm::Error error = writeBundle(dir, *bundle))
    return exportError(ExportError::Kind::Write,
                       llvm::toString(std::move(error)));
  return bundle;
}
