//===- ExportCommand.cpp - klx export -------------------------------------===//
//
// Compiles to a cubin and writes a Bundle (kernel.cubin, kernel.ptx,
// manifest.json) that klx-run launches without MLIR.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Export/Bundle.h"
#include "klx/Export/Sweep.h"

#include "llvm/Support/FormatVariadic.h"

using namespace klx;
using namespace klx::cli;

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
  llvm::Expected<BundleContents> bundle = bundleFromRun(run);
  if (!bundle) {
    llvm::errs() << run.fileName << ": error: klx export: "
                 << llvm::toString(bundle.takeError()) << "\n";
    return kExitInputError;
  }
  ProblemSize size = asked.value_or(bundle->problem);
  if (std::string why = checkProblemSize(bundle->launch, bundle->target, size);
      !why.empty()) {
    llvm::errs() << "klx export: --size=" << why << "\n";
    return kExitUsageError;
  }
  bundle->problem = size;
  if (args.has("trace")) {
    // The same kernel once more, recording its timeline.
    CompileOptions traced = input->options;
    traced.lowering.instrument = true;
    traced.lowering.traceCtas = args.get("trace-ctas").value_or("all");
    if (std::string why = checkTraceCtas(traced.lowering.traceCtas);
        !why.empty()) {
      llvm::errs() << "klx export: --trace-ctas=" << traced.lowering.traceCtas
                   << ": " << why << "\n";
      return kExitUsageError;
    }
    PipelineRun tracedRun = runPipeline(input->source, input->fileName, traced);
    printDiagnostics(tracedRun, llvm::errs());
    llvm::Expected<TraceBundle> trace = traceBundleFromRun(tracedRun);
    if (!trace) {
      llvm::errs() << run.fileName << ": error: klx export --trace: "
                   << llvm::toString(trace.takeError()) << "\n";
      return kExitInputError;
    }
    bundle->trace = std::move(*trace);
  }
  for (const auto &[name, value] : input->options.defines)
    bundle->defines[name] = value;
  if (llvm::Error error = writeBundle(args.output, *bundle)) {
    llvm::errs() << "klx export: " << llvm::toString(std::move(error)) << "\n";
    return kExitUsageError;
  }
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
