//===- TimelineCommand.cpp - klx timeline ---------------------------------===//
//
// The simulated barrier timeline of each kernel with a barrier protocol:
// the model read after klx-circular-buffer (BarrierModel) or from nvgpu
// ops, run under the stated latency model (BarrierSim). Exit 3 when a
// kernel deadlocks, with the blocked waits and the reasons printed. A run
// that completes is checked against every timing (klx verify): the
// timeline never calls a protocol fine where verify finds a failure.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Analysis/Protocol/TimelineFormat.h"
#include "klx/Analysis/Protocol/Verify.h"
#include "klx/Analysis/Protocol/VerifyFormat.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace klx;
using namespace klx::cli;

namespace {

/// What klx verify says of a model whose simulation completed (nullopt
/// when the simulation already failed: nothing to add).
std::optional<sim::Verification> crossCheck(const sim::ProtocolModel &model,
                                            const sim::Timeline &timeline) {
  if (!timeline.verdict.completes)
    return std::nullopt;
  return sim::verifyProtocol(model);
}

/// The line under a completed simulation that verify contradicts or could
/// not decide; empty when verify agrees.
std::string crossCheckLine(const sim::ProtocolModel &model,
                           const sim::Verification &v) {
  if (v.fails())
    return "completes under this latency model; klx verify finds a failure "
           "for another timing: " +
           sim::failureKindName(v.kind).str() + ": " + v.summary +
           " (klx verify prints the counterexample)";
  if (!v.verified())
    return "klx verify could not decide every timing: " + v.unknownWhy;
  return "";
}

} // namespace

int cli::runTimelineCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"json", "trace", "latency",
                                             "k-steps", "tiles"};
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
  ProtocolRun read = runForProtocols(args, *input, "timeline");
  if (!read.snapshot)
    return read.exitCode;
  const PipelineRun &run = read.run;
  const Snapshot *snapshot = read.snapshot;
  int exitCode = kExitSuccess;

  // A role that starts late must be one of the kernel's.
  for (const auto &[role, cycles] : latency.delays) {
    std::string known;
    bool found = false;
    for (const sim::ProtocolModel &model : snapshot->facts.protocols)
      for (const sim::RoleModel &r : model.roles) {
        found |= r.name == role;
        known += (known.empty() ? "" : ", ") + r.name;
      }
    if (!found) {
      llvm::errs() << "klx timeline: --latency: no role named '" << role
                   << "' (roles: " << known << ")\n";
      return kExitUsageError;
    }
  }
  std::vector<sim::Timeline> timelines;
  std::vector<std::optional<sim::Verification>> checks;
  for (const sim::ProtocolModel &model : snapshot->facts.protocols) {
    timelines.push_back(sim::simulate(model, latency));
    checks.push_back(crossCheck(model, timelines.back()));
    bool fails = !timelines.back().verdict.completes ||
                 (checks.back() && checks.back()->fails());
    if (fails)
      exitCode = kExitDeadlock;
  }
  if (std::optional<std::string> path = args.get("trace"))
    if (!writeTraceFile(*path, "timeline", [&](llvm::raw_ostream &os) {
          sim::writeChromeTrace(os, snapshot->facts.protocols, timelines);
        }))
      return kExitUsageError;

  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", run.fileName);
      json.attribute("step", snapshot->label(run.severalModules()));
      json.attribute("latency", timelines.front().latency.describe());
      json.attributeArray("kernels", [&] {
        for (size_t k = 0; k < timelines.size(); ++k)
          json.object([&] {
            const sim::ProtocolModel &m = snapshot->facts.protocols[k];
            sim::writeTimelineJson(json, m, timelines[k]);
            if (checks[k])
              json.attributeObject("verify", [&] {
                json.attribute("result", checks[k]->verified() ? "verified"
                                         : checks[k]->fails()  ? "fails"
                                                               : "unknown");
                json.attribute("verdict", sim::verdictLine(m, *checks[k]));
                json.attribute("states", checks[k]->states);
                json.attribute("seconds", checks[k]->seconds);
              });
          });
      });
    });
    llvm::outs() << "\n";
    return exitCode;
  }

  llvm::raw_ostream &os = llvm::outs();
  for (size_t k = 0; k < timelines.size(); ++k) {
    const sim::ProtocolModel &m = snapshot->facts.protocols[k];
    os << run.fileName << ": simulated barrier timeline of "
       << sim::kernelLabel(m) << " after "
       << snapshot->label(run.severalModules()) << ", read from " << m.readFrom
       << "\n";
    sim::printTimeline(os, m, timelines[k]);
    if (checks[k])
      if (std::string line = crossCheckLine(m, *checks[k]); !line.empty())
        os << "  but: " << line << "\n";
  }
  return exitCode;
}
