//===- PipelineCommand.cpp - klx pipeline ---------------------------------===//
//
// One row per step, then what the backend reported: the CLI summary of a
// kernel, and what the README's main command shows when there is no
// display.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Pipeline/RunJson.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace klx;
using namespace klx::cli;

static void printStepTable(const PipelineRun &run, llvm::raw_ostream &os) {
  size_t nameWidth = 4, anchorWidth = 6;
  for (const Snapshot &s : run.snapshots) {
    nameWidth = std::max(nameWidth, s.displayName().size());
    anchorWidth = std::max(anchorWidth, s.anchor.size());
  }
  os << llvm::formatv("{0,3}  {1}  {2}  {3,9}  {4,7}  {5,7}\n", "#",
                      llvm::left_justify("step", nameWidth),
                      llvm::left_justify("anchor", anchorWidth), "ms",
                      "changed", "ops");
  for (size_t i = 0; i < run.snapshots.size(); ++i) {
    const Snapshot &s = run.snapshots[i];
    os << llvm::formatv("{0,3}  {1}  {2}  {3,9}  {4,7}  {5,7}", i,
                        llvm::left_justify(s.displayName(), nameWidth),
                        llvm::left_justify(s.anchor, anchorWidth),
                        llvm::formatv("{0:F3}", s.wallMs).str(),
                        s.failed ? "FAILED" : (s.changed ? "yes" : "-"),
                        s.opCount);
    if (!s.skippedReason.empty())
      os << "  skipped: " << s.skippedReason;
    os << "\n";
  }
}

static void printArtifactSummary(const DeviceArtifacts &artifacts,
                                 llvm::raw_ostream &os) {
  os << "gpu.module @" << artifacts.moduleName << "\n";
  if (artifacts.ptxas) {
    for (const PtxasFunctionReport &f : artifacts.ptxas->functions)
      os << llvm::formatv("  {0} ({1}): {2} registers, {3} bytes smem, {4} "
                          "bytes stack frame, {5}/{6} bytes spill "
                          "stores/loads, {7} barriers\n",
                          f.name, f.arch, f.registers, f.sharedBytes,
                          f.stackFrameBytes, f.spillStoreBytes,
                          f.spillLoadBytes, f.barriers);
    for (const PtxasMessage &m : artifacts.ptxas->messages)
      os << "  ptxas " << (m.isError ? "error" : "warning") << ": " << m.text
         << "\n";
  }
  if (artifacts.amdgcnMetadata)
    for (const AmdgcnKernelInfo &k : artifacts.amdgcnMetadata->kernels)
      os << llvm::formatv("  {0}: {1} VGPRs, {2} AGPRs, {3} SGPRs, {4} bytes "
                          "scratch, {5} bytes LDS, occupancy {6}\n",
                          k.name, k.vgprs, k.agprs, k.sgprs, k.scratchBytes,
                          k.ldsBytes, k.occupancy);
  for (const auto &[kind, counts] : artifacts.counts) {
    os << "  " << emitKindName(kind) << ": " << counts.total << " instructions";
    for (const InstructionClassCount &entry : counts.classes)
      os << ", " << entry.name << " " << entry.count;
    os << "\n";
  }
  if (!artifacts.sassMissingReason.empty())
    os << "  sass: " << artifacts.sassMissingReason << "\n";
}

int cli::runPipelineCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"json", "print-pass-pipeline",
                                             "stop-after"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  input->options.stopAfter = args.get("stop-after").value_or("");

  if (args.has("print-pass-pipeline")) {
    // The target may come from the file, so parse it (and only that).
    CompileOptions parseOnly = input->options;
    parseOnly.stopAfter = step::kParse.str();
    PipelineRun run = runPipeline(input->source, input->fileName, parseOnly);
    if (!run.succeeded()) {
      printDiagnostics(run, llvm::errs());
      return exitCodeFor(run);
    }
    llvm::outs() << textualPipeline(loweringSteps(run.lowering)) << "\n";
    return kExitSuccess;
  }

  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  printDiagnostics(run, llvm::errs());
  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    writeRunJson(json, run);
    llvm::outs() << "\n";
    return exitCodeFor(run);
  }
  llvm::outs() << run.fileName << " -> " << targetName(run.target) << "\n";
  printStepTable(run, llvm::outs());
  for (const DeviceArtifacts &artifacts : run.artifacts)
    printArtifactSummary(artifacts, llvm::outs());
  llvm::outs() << llvm::formatv("total {0:F1} ms, {1}\n", run.totalMs,
                                runStatusName(run.status));
  return exitCodeFor(run);
}
