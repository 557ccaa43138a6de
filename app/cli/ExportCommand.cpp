//===- ExportCommand.cpp - klx export -------------------------------------===//
//
// Compiles to a cubin and writes a Bundle (kernel.cubin, kernel.ptx,
// manifest.json) that klx-run launches without MLIR.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Target/Bundle.h"

#include "llvm/Support/FormatVariadic.h"

using namespace klx;
using namespace klx::cli;

int cli::runExportCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"size", "trace"};
  std::optional<LoadedInput> input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return kExitUsageError;
  if (args.output.empty()) {
    llvm::errs() << "klx export: -o DIR is required (the bundle's folder)\n";
    return kExitUsageError;
  }
  ProblemSize size = kDefaultProblemSize;
  if (std::optional<std::string> text = args.get("size")) {
    std::optional<ProblemSize> parsed = parseProblemSize(*text);
    if (!parsed) {
      llvm::errs() << "klx export: --size=" << *text
                   << " is not MxNxK with positive integers\n";
      return kExitUsageError;
    }
    size = *parsed;
  }
  input->options.emitGoal = EmitKind::Cubin;
  input->options.codeObject = true; // AMD: the object ld.lld links
  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  printDiagnostics(run, llvm::errs());
  if (!run.succeeded())
    return exitCodeFor(run);
  for (const Snapshot &snapshot : run.snapshots)
    if (snapshot.kind == EmitKind::Cubin && !snapshot.skippedReason.empty()) {
      llvm::errs() << "klx export: no cubin: " << snapshot.skippedReason
                   << "\n";
      return kExitUsageError;
    }
  llvm::Expected<BundleContents> bundle = bundleFromRun(run);
  if (!bundle) {
    llvm::errs() << run.fileName << ": error: klx export: "
                 << llvm::toString(bundle.takeError()) << "\n";
    return kExitInputError;
  }
  if (bundle->isAmd()) {
    // klx-to-amdgpu's copies and epilogue do not mask.
    const std::array<int64_t, 3> &tile = bundle->launch.tile;
    if (size.m % tile[0] || size.n % tile[1] || size.k % tile[2]) {
      llvm::errs() << llvm::formatv(
          "klx export: --size={0}x{1}x{2}: for {3}, M, N and K must be "
          "multiples of the tile {4}x{5}x{6} (the AMD kernel does not mask "
          "its copies or its stores)\n",
          size.m, size.n, size.k, bundle->target, tile[0], tile[1], tile[2]);
      return kExitUsageError;
    }
  } else if (size.n % 8 || size.k % 8) {
    // TMA row strides (K elements of A, N of B) must be multiples of 16
    // bytes; ragged tiles are fine (klx-run pads D to whole tiles).
    llvm::errs() << "klx export: --size=" << size.m << "x" << size.n << "x"
                 << size.k
                 << ": N and K must be multiples of 8 (TMA needs "
                    "row strides of A and B in multiples of 16 bytes)\n";
    return kExitUsageError;
  }
  bundle->problem = size;
  if (args.has("trace")) {
    // The same kernel once more, recording its timeline.
    CompileOptions traced = input->options;
    traced.instrument = true;
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
               << " grid, " << size.m << "x" << size.n << "x" << size.k << ")"
               << (bundle->trace ? ", kernel.trace.cubin" : "") << "\n";
  return kExitSuccess;
}
