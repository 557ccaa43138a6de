//===- Verify.h - Every interleaving of a barrier protocol ------*- C++ -*-===//
//
// The simulator runs one schedule under one latency model; a protocol that
// is broken only under some timings (the nvFuser hang our lessons start
// from, "mitigated by slowing down the kernel") can pass it. This explores
// every interleaving of the roles' barrier operations and every order in
// which asynchronous work completes (each TMA copy's complete_tx, each
// wgmma group at its wait), for the model's bounded k steps and tiles,
// breadth first with state hashing (so the counterexample it finds first
// is a shortest one) and a partial-order reduction: ops that touch only
// their own role and shared memory (MMAs, loads, issuing a copy) run at
// once instead of in every order, since no other role can observe the
// difference.
//
// It checks:
//  - deadlock: a role not done, and nothing can move;
//  - an arrival beyond the expected count (undefined on hardware);
//  - expect_tx against the bytes delivered: a phase that completes while a
//    copy issued for it is still in flight, bytes left over at the end;
//  - parity aliasing: a phase that completes twice before its waiter looks
//    (its wait then sees the same parity again, and blocks or slips);
//  - stage races, from happens-before through the barriers: a copy into
//    shared memory that a role read without the copier knowing the read
//    was done (released through a barrier), a read of shared memory whose
//    copy the reader does not know has landed.
//
// No IR here: the model comes from BarrierModel (klx kernels) or the nvgpu
// reader, as for the simulator.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_PROTOCOL_VERIFY_H
#define KLX_ANALYSIS_PROTOCOL_VERIFY_H

#include "klx/Analysis/Protocol/BarrierSim.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace klx::sim {

struct VerifyOptions {
  /// Distinct states before the search gives up (the answer is then
  /// "unknown": nothing found within the states it could explore).
  int64_t maxStates = 3'000'000;
};

enum class FailureKind {
  Deadlock,
  ArrivalOverflow,
  TxMismatch,
  ParityAliasing,
  StageRace,
};
/// "deadlock", "arrival beyond the expected count", ...
llvm::StringRef failureKindName(FailureKind kind);

/// One move of a counterexample: a role's op, or a copy landing.
struct CounterStep {
  int role = -1;        // the role whose op it is (for a copy: its issuer)
  bool landing = false; // a copy's bytes arriving, not an op of the role
  std::string what;     // "wait empty[0] (parity 1): passes"
  unsigned line = 0;    // the op's line in the IR the model was read from
  int64_t step = -1;    // the role's k step
};

struct Verification {
  enum class Result { Verified, Fails, Unknown };
  Result result = Result::Verified;
  FailureKind kind = FailureKind::Deadlock;
  /// The failure in one sentence, and what else it found on the way.
  std::string summary;
  std::vector<std::string> details;
  /// The shortest path to the failure, in order.
  std::vector<CounterStep> counterexample;
  /// The same path on the simulator's lanes: one time unit per move, so
  /// the timeline panes draw it as they draw a simulation.
  Timeline trace;
  int64_t states = 0;      // distinct states explored
  int64_t transitions = 0; // moves taken, the reduced ones included
  double seconds = 0;
  /// Why the search gave up (Result::Unknown).
  std::string unknownWhy;
  /// Why the stage race checks are incomplete (the model's
  /// buffersUnknown), or empty.
  std::string racesUnchecked;

  bool verified() const { return result == Result::Verified; }
  bool fails() const { return result == Result::Fails; }
};

Verification verifyProtocol(const ProtocolModel &model,
                            const VerifyOptions &options = {});

/// What the model leaves out, one sentence each: what `verified` does not
/// cover.
std::vector<std::string> verifyLeavesOut(const ProtocolModel &model);

} // namespace klx::sim

#endif // KLX_ANALYSIS_PROTOCOL_VERIFY_H
