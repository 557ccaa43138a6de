//===- TimelineCommand.cpp - klx timeline ---------------------------------===//
//
// The simulated barrier timeline of each warp-specialized klx kernel: the
// protocol model read after klx-circular-buffer (BarrierModel), run under
// the stated latency model (BarrierSim). Exit 3 when a kernel deadlocks,
// with the blocked waits and the reasons printed.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Analysis/Protocol/TimelineFormat.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace klx;
using namespace klx::cli;

int cli::runTimelineCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"json", "trace", "latency"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  sim::LatencyModel latency;
  if (std::optional<std::string> spec = args.get("latency")) {
    std::string error = sim::parseLatencyModel(*spec, latency);
    if (!error.empty()) {
      llvm::errs() << "klx timeline: --latency=" << *spec << ": " << error
                   << "\n";
      return kExitUsageError;
    }
  }
  input->options.emitGoal = EmitKind::MLIR;
  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  printDiagnostics(run, llvm::errs());
  int step = run.timelineStep();
  const Snapshot *snapshot = step >= 0 ? &run.snapshots[step] : nullptr;
  if (!snapshot) {
    if (!run.succeeded())
      return exitCodeFor(run);
    for (const Snapshot &s : run.snapshots)
      for (const std::string &note : s.protocolNotes) {
        llvm::errs() << "klx timeline: " << run.fileName << ": " << note
                     << "\n";
        return kExitUsageError;
      }
    llvm::errs() << "klx timeline: " << run.fileName
                 << ": no kernel with a barrier protocol at any step (the "
                    "timeline is read from a warp-specialized klx kernel "
                    "from klx-circular-buffer on, or from nvgpu mbarrier ops "
                    "before convert-nvgpu-to-nvvm)\n";
    return kExitUsageError;
  }

  std::vector<sim::Timeline> timelines;
  bool deadlock = false;
  for (const sim::ProtocolModel &model : snapshot->protocols) {
    timelines.push_back(sim::simulate(model, latency));
    deadlock |= !timelines.back().verdict.completes;
  }
  if (std::optional<std::string> path = args.get("trace")) {
    std::error_code ec;
    llvm::raw_fd_ostream os(*path, ec);
    if (ec) {
      llvm::errs() << "klx timeline: " << *path
                   << ": cannot write: " << ec.message() << "\n";
      return kExitUsageError;
    }
    sim::writeChromeTrace(os, snapshot->protocols, timelines);
  }

  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", run.fileName);
      json.attribute("step", snapshot->displayName());
      json.attribute("latency", timelines.front().latency.describe());
      json.attributeArray("kernels", [&] {
        for (size_t k = 0; k < timelines.size(); ++k) {
          const sim::Timeline &t = timelines[k];
          const sim::ProtocolModel &m = snapshot->protocols[k];
          json.object([&] { sim::writeTimelineJson(json, m, t); });
        }
      });
    });
    llvm::outs() << "\n";
    return deadlock ? kExitDeadlock : kExitSuccess;
  }

  llvm::raw_ostream &os = llvm::outs();
  for (size_t k = 0; k < timelines.size(); ++k) {
    const sim::Timeline &t = timelines[k];
    const sim::ProtocolModel &m = snapshot->protocols[k];
    os << run.fileName << ": simulated barrier timeline of @" << m.kernel
       << " after " << snapshot->displayName() << ", read from " << m.readFrom
       << "\n";
    sim::printTimeline(os, m, t);
  }
  return deadlock ? kExitDeadlock : kExitSuccess;
}
