//===- TimelineFormat.h - Timelines as text, JSON and traces ----*- C++ -*-===//
//
// What `klx timeline` prints, beside the analysis as RoleTreeFormat.h is
// beside the role tree: the verdict and blocked waits for a terminal, the
// same as JSON, and the lanes as Chrome trace JSON that Perfetto opens.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_PROTOCOL_TIMELINEFORMAT_H
#define KLX_ANALYSIS_PROTOCOL_TIMELINEFORMAT_H

#include "klx/Analysis/Protocol/BarrierSim.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace klx::sim {

/// "@gemm", or "gpu.launch in @main": the kernel as the output names it.
std::string kernelLabel(const ProtocolModel &model);

/// "wait full[1]", "full[1] bytes in": an event as lanes and traces name it.
std::string eventName(const ProtocolModel &model, const Event &event);

/// The verdict in a few words, for a table cell: "completes in 14616
/// cycles", "DEADLOCK" or "DEADLOCK (protocol error)".
std::string verdictSummary(const Timeline &timeline);

/// A completed run's cycles per unit of the work the model covers; each is
/// nullopt where the run did not complete or the model lacks the unit
/// (tiles, k steps, a tile's output elements). One place computes them
/// for klx timeline, comparisons and sweeps.
struct WorkRates {
  std::optional<double> perTile, perKStep, per1kOutputs;
};
WorkRates workRates(const ProtocolModel &model, const Timeline &timeline);

/// The model's barriers, each role's waiting share and the verdict with
/// its blocked waits and findings, indented under a caller's heading.
void printTimeline(llvm::raw_ostream &os, const ProtocolModel &model,
                   const Timeline &timeline);

/// One kernel's entry of `klx timeline --json`.
void writeTimelineJson(llvm::json::OStream &json, const ProtocolModel &model,
                       const Timeline &timeline);

/// Chrome trace JSON: a process per kernel, a thread per role, flow arrows
/// from the arrive that completed a phase to the wait it released.
/// `processSuffix` names what the lanes are ("simulated").
void writeChromeTrace(llvm::raw_ostream &os,
                      llvm::ArrayRef<ProtocolModel> models,
                      llvm::ArrayRef<Timeline> timelines,
                      llvm::StringRef processSuffix = "simulated");

} // namespace klx::sim

#endif // KLX_ANALYSIS_PROTOCOL_TIMELINEFORMAT_H
