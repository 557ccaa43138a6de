//===- VerifyCommand.cpp - klx verify -------------------------------------===//
//
// Every interleaving of each kernel's barrier protocol up to a bound
// (--k-steps, --tiles): exit 0 verified, 3 with the shortest
// counterexample, 2 when klx cannot answer (no protocol it can read, or
// the state limit reached first).
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Analysis/Protocol/TimelineFormat.h"
#include "klx/Analysis/Protocol/VerifyFormat.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace klx;
using namespace klx::cli;

int cli::runVerifyCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"json", "trace", "k-steps",
                                             "tiles", "max-states"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  sim::VerifyOptions options;
  if (!readPositive(args, "max-states", "verify", options.maxStates,
                    llvm::errs()))
    return kExitUsageError;
  ProtocolRun read = runForProtocols(args, *input, "verify");
  if (!read.snapshot)
    return read.exitCode;
  const PipelineRun &run = read.run;
  const Snapshot *snapshot = read.snapshot;
  int exitCode = kExitSuccess;

  std::vector<sim::Verification> results;
  for (const sim::ProtocolModel &model : snapshot->facts.protocols) {
    results.push_back(sim::verifyProtocol(model, options));
    if (results.back().fails())
      exitCode = kExitDeadlock;
    else if (!results.back().verified() && exitCode == kExitSuccess)
      exitCode = kExitUsageError;
  }
  if (std::optional<std::string> path = args.get("trace")) {
    std::vector<sim::Timeline> traces;
    for (const sim::Verification &v : results)
      traces.push_back(v.trace);
    if (!writeTraceFile(*path, "verify", [&](llvm::raw_ostream &os) {
          sim::writeChromeTrace(os, snapshot->facts.protocols, traces,
                                "counterexample, one unit per move");
        }))
      return kExitUsageError;
  }
  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", run.fileName);
      json.attribute("step", snapshot->displayName());
      json.attributeArray("kernels", [&] {
        for (size_t k = 0; k < results.size(); ++k)
          json.object([&] {
            sim::writeVerificationJson(json, snapshot->facts.protocols[k],
                                       results[k]);
          });
      });
    });
    llvm::outs() << "\n";
    return exitCode;
  }
  for (size_t k = 0; k < results.size(); ++k) {
    const sim::ProtocolModel &m = snapshot->facts.protocols[k];
    llvm::outs() << run.fileName << ": klx verify " << sim::kernelLabel(m)
                 << " after " << snapshot->displayName() << ", read from "
                 << m.readFrom << "\n";
    sim::printVerification(llvm::outs(), m, results[k]);
  }
  return exitCode;
}
