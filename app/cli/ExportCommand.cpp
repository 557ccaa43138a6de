//===- ExportCommand.cpp - klx export -------------------------------------===//
//
// Compiles to a cubin and writes a Bundle (kernel.cubin, kernel.ptx,
// manifest.json) that klx-run launches without MLIR.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Export/Export.h"
#include "klx/Export/Sweep.h"

#include "llvm/Support/FormatVariadic.h"

using namespace klx;
using namespace klx::cli;

/// Says why no bundle was written, as klx export words each kind, and
/// returns the exit code: 2 for the caller's mistake, 1 for the kernel's.
static int reportExportError(llvm::Error error, llvm::StringRef fileName,
                             const BundleRequest &request) {
  int code = kExitInputError;
  llvm::handleAllErrors(std::move(error), [&](const ExportError &e) {
    using Kind = ExportError::Kind;
    switch (e.kind) {
    case Kind::Kernel:
      llvm::errs() << fileName << ": error: klx export: " << e.message << "\n";
      break;
    case Kind::Trace:
      llvm::errs() << fileName << ": error: klx export --trace: " << e.message
                   << "\n";
      break;
    case Kind::Size:
      llvm::errs() << "klx export: --size=" << e.message << "\n";
      break;
    case Kind::TraceCtas:
      llvm::errs() << "klx export: --trace-ctas=" << request.traceCtas << ": "
                   << e.message << "\n";
      break;
    case Kind::Write:
      llvm::errs() << "klx export: " << e.message << "\n";
      break;
    }
    code = e.isUsage() ? kExitUsageError : kExitInputError;
  });
  return code;
}

int cli::runExportCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"size", "trace", "trace-ctas"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  if (args.output.empty()) {
    llvm::errs() << "klx export: -o DIR is required (the bundle's folder)\n";
    return kExitUsageError;
  }
  std::optional<ProblemSize> asked;
  if (std::optional<std::string> text = args.get("size")) {
    asked = parseProblemSize(*text);
    if (!asked) {
      llvm::errs() << "klx export: --size=" << *text
                   << " is not MxNxK (a gemm) or N (a gather) with positive "
                      "integers\n";
      return kExitUsageError;
    }
  }
  input->options.emitGoal = EmitKind::Cubin;
  input->options.codeObject = true; // AMD: the object ld.lld links
  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  printDiagnostics(run, llvm::errs());
  if (!run.succeeded())
    return exitCodeFor(run);
  if (std::string why = missingCubin(run); !why.empty()) {
    llvm::errs() << "klx export: " << why << "\n";
    return kExitUsageError;
  }
  BundleRequest request;
  request.size = asked;
  request.defines = input->options.defines;
  request.trace = args.has("trace");
  request.traceCtas = args.get("trace-ctas").value_or("all");
  request.options = input->options;
  request.tracedRunDone = [](const PipelineRun &traced) {
    printDiagnostics(traced, llvm::errs());
  };
  llvm::Expected<BundleContents> bundle =
      exportBundle(run, request, args.output);
  if (!bundle)
    return reportExportError(bundle.takeError(), run.fileName, request);
  const ProblemSize &size = bundle->problem;
  llvm::outs() << "wrote " << args.output << ": "
               << (bundle->isAmd() ? "kernel.hsaco (" : "kernel.cubin (")
               << (bundle->isAmd() ? bundle->hsaco : bundle->cubin).size()
               << " bytes), " << (bundle->isAmd() ? "kernel.s" : "kernel.ptx")
               << ", manifest.json (" << bundle->target << ", "
               << bundle->launch.entry << ", block " << bundle->launch.block[0]
               << ", " << bundle->launch.dynamicSharedBytes
               << " bytes of dynamic shared memory, " << bundle->launch.grid
               << " grid, " << size.str() << ")"
               << (bundle->trace ? ", kernel.trace.cubin" : "") << "\n";
  return kExitSuccess;
}
