//===- PipelineOverhead.cpp - What recording snapshots costs --------------===//
//
// Prints, for one sample (the largest by default), the median wall time of
// the klx pipeline with all snapshots against the same passes without
// snapshots, and against `klx-opt --mlir-print-ir-after-all` writing to a
// file, all measured in one run with the variants interleaved so that
// machine noise hits them alike. Goal: snapshots cost at most 1.3x.
//
// usage: klx-bench-pipeline [SAMPLE] [--rounds=N] [--klx-opt=PATH]
//
//===----------------------------------------------------------------------===//

#include "klx/Pipeline/Compiler.h"
#include "klx/Support/ExternalTool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <functional>

using namespace klx;

namespace {

struct Variant {
  std::string name;
  std::function<bool()> run;
  std::vector<double> ms = {};

  double median() const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    return sorted.empty() ? 0 : sorted[sorted.size() / 2];
  }
};

double timeMs(const std::function<bool()> &body, bool &ok) {
  auto start = std::chrono::steady_clock::now();
  ok = body();
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Reads [SAMPLE] [--rounds=N] [--klx-opt=PATH]; false (after saying why)
/// for a bad round count.
bool parseArguments(int argc, char **argv, std::string &samplePath,
                    std::string &klxOpt, unsigned &rounds) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("--rounds=")) {
      if (arg.getAsInteger(10, rounds) || rounds == 0) {
        llvm::errs() << "bad --rounds\n";
        return false;
      }
    } else if (arg.consume_front("--klx-opt=")) {
      klxOpt = arg.str();
    } else {
      samplePath = arg.str();
    }
  }
  return true;
}

/// Runs every variant once per round, interleaved so that machine noise
/// hits them alike; false (after saying which) when one fails.
bool timeRounds(std::vector<Variant> &variants, unsigned rounds) {
  for (unsigned round = 0; round < rounds + 1; ++round) {
    for (Variant &variant : variants) {
      bool ok = false;
      double ms = timeMs(variant.run, ok);
      if (!ok) {
        llvm::errs() << variant.name << " failed\n";
        return false;
      }
      if (round > 0) // the first round warms caches and the file system
        variant.ms.push_back(ms);
    }
  }
  return true;
}

/// The medians, then the ratios between the variants in the order main
/// lists them.
void printReport(const std::vector<Variant> &variants,
                 llvm::StringRef samplePath, size_t steps, unsigned rounds,
                 uint64_t printedBytes) {
  llvm::outs() << llvm::formatv(
      "klx pipeline overhead: {0}, {1} steps, median of {2} rounds\n",
      llvm::sys::path::filename(samplePath), steps, rounds);
  for (const Variant &variant : variants)
    llvm::outs() << llvm::formatv("  {0,-44} {1,9:F2} ms\n", variant.name,
                                  variant.median());
  auto ratio = [&](size_t a, size_t b) {
    return variants[a].median() / variants[b].median();
  };
  llvm::outs() << llvm::formatv(
      "ratios:\n"
      "  snapshots / plain, full pipeline          {0,6:F2}x   (goal <= "
      "1.30x)\n"
      "  snapshots / plain, MLIR passes only       {1,6:F2}x\n"
      "  klx snapshots (MLIR) / klx-opt print-after-all  {2,6:F2}x\n"
      "  klx-opt print-after-all / klx-opt plain   {3,6:F2}x   ({4} KB "
      "printed)\n",
      ratio(0, 1), ratio(2, 3), ratio(2, 4), ratio(4, 5), printedBytes / 1024);
}

} // namespace

int main(int argc, char **argv) {
  std::string samplePath = KLX_SOURCE_DIR "/samples/nvidia/gemm_tma_wgmma.mlir";
  std::string klxOpt = KLX_OPT_BINARY;
  unsigned rounds = 15;
  if (!parseArguments(argc, argv, samplePath, klxOpt, rounds))
    return 2;
  auto buffer = llvm::MemoryBuffer::getFile(samplePath);
  if (!buffer) {
    llvm::errs() << samplePath << ": cannot read\n";
    return 2;
  }
  std::string source = (*buffer)->getBuffer().str();

  CompileOptions withSnapshots;
  withSnapshots.nvdisasmPath = "/nonexistent"; // same steps on every machine
  CompileOptions without = withSnapshots;
  without.recordSnapshots = false;
  PipelineRun probe = runPipeline(source, samplePath, withSnapshots);
  if (!probe.succeeded()) {
    llvm::errs() << samplePath << " does not compile\n";
    return 1;
  }
  std::vector<std::string> names = plannedStepNames(probe.lowering);
  std::string lastPass =
      names[names.size() - backendSteps(probe.target).size() - 1];
  CompileOptions mlirWith = withSnapshots, mlirWithout = without;
  mlirWith.stopAfter = mlirWithout.stopAfter = lastPass;
  std::string pipeline = textualPipeline(loweringSteps(probe.lowering));

  llvm::SmallString<128> printed;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("klx-bench", "txt", fd, printed)) {
    llvm::errs() << "cannot create a temporary file\n";
    return 2;
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  auto runKlxOpt = [&](bool printAfterAll) {
    std::string pipelineArg = "--pass-pipeline=" + pipeline;
    std::vector<llvm::StringRef> args = {klxOpt, samplePath, pipelineArg, "-o",
                                         "/dev/null"};
    if (printAfterAll)
      args.push_back("--mlir-print-ir-after-all");
    std::optional<llvm::StringRef> redirects[] = {
        std::nullopt, llvm::StringRef("/dev/null"),
        llvm::StringRef(printAfterAll ? llvm::StringRef(printed)
                                      : llvm::StringRef("/dev/null"))};
    return llvm::sys::ExecuteAndWait(klxOpt, args, std::nullopt, redirects) ==
           0;
  };

  std::vector<Variant> variants = {
      {"full pipeline, all snapshots",
       [&] {
         return runPipeline(source, samplePath, withSnapshots).succeeded();
       }},
      {"full pipeline, no snapshots",
       [&] { return runPipeline(source, samplePath, without).succeeded(); }},
      {"MLIR passes only, all snapshots",
       [&] { return runPipeline(source, samplePath, mlirWith).succeeded(); }},
      {"MLIR passes only, no snapshots",
       [&] {
         return runPipeline(source, samplePath, mlirWithout).succeeded();
       }},
      {"klx-opt --mlir-print-ir-after-all > file",
       [&] { return runKlxOpt(true); }},
      {"klx-opt, no printing", [&] { return runKlxOpt(false); }},
  };
  if (!timeRounds(variants, rounds))
    return 1;
  uint64_t printedBytes = 0;
  llvm::sys::fs::file_size(printed, printedBytes);
  llvm::sys::fs::remove(printed);

  printReport(variants, samplePath, names.size(), rounds, printedBytes);
  return 0;
}
