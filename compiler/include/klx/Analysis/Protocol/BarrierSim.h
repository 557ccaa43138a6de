//===- BarrierSim.h - Simulating the mbarrier protocol ----------*- C++ -*-===//
//
// A warp-specialized kernel as its roles see it: each role runs the same
// few barrier operations once per k step, on a ring of stages, and the
// mbarriers between them decide who waits. This simulates that protocol
// under a stated latency model, as hardware runs it (an mbarrier phase
// completes when its pending arrivals reach zero and its transaction bytes
// are all in; a wait on parity p passes once the phase of that parity has
// completed), and says whether the kernel completes or where it blocks and
// why. No IR here: BarrierModel.cpp builds the model from a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_PROTOCOL_BARRIERSIM_H
#define KLX_ANALYSIS_PROTOCOL_BARRIERSIM_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace klx::sim {

/// Cycles, all of them; stated with every timeline.
struct LatencyModel {
  double tmaLatency = 500;       // issue to first byte in shared memory
  double tmaBytesPerCycle = 128; // the SM's copies share it, one at a time
  double mmaCycles = 256;        // one k step's MMAs of one warpgroup
  double issueCycles = 4;        // any other op
  double wakeCycles = 20;        // a completed phase to the waiter running
  /// Roles that start late, by name, and by how many cycles: one warp
  /// slowed down (a printf in it, a cache miss), as a timing that hides
  /// or shows a bug.
  std::vector<std::pair<std::string, double>> delays;
  std::string describe() const;
  double delayOf(llvm::StringRef role) const;
};

/// Sets the fields named in `spec`, "tma=800,mma=512": tma (latency),
/// tma_bytes (per cycle), mma, issue, wake, each a positive number of
/// cycles (bytes per cycle for tma_bytes), and delay.ROLE, the cycles role
/// ROLE starts late. Returns why it cannot, or an empty string.
std::string parseLatencyModel(llvm::StringRef spec, LatencyModel &model);

/// A group of mbarriers, one per stage ("slot"), each initialised for
/// `count` arrivals per phase.
struct BarrierGroup {
  std::string name;
  int slots = 1;
  int count = 1;
};

enum class OpKind {
  Wait,           // try_wait.parity until the phase completes
  Arrive,         // arrive (`arrivals` of them)
  ArriveExpectTx, // arrive.expect_tx `bytes`
  ExpectTx,       // expect_tx `bytes`, no arrival
  Copy,           // async copy whose `bytes` complete_tx on the barrier
  Compute,        // `cycles` of work (an MMA, an epilogue)
  Read,           // loads from shared memory (`reads`)
  MmaWait,        // wgmma.wait_group: until `asyncGroups` are in flight
};

/// Bytes of shared memory that copies write and MMAs and loads read, for
/// klx verify's stage races; buffers of one space overlap by their spans.
struct Buffer {
  std::string name; // "a[0]", "dynamic smem [1024, 17408)"
  int space = 0;
  int64_t offset = 0, bytes = 0;
  bool overlaps(const Buffer &o) const {
    return space == o.space && offset < o.offset + o.bytes &&
           o.offset < offset + bytes;
  }
};

/// One op of a role's k step. Step s of the role addresses ring position
/// pos = s * ringStride + ringOffset, or, with runLength > 0 (a ping-pong
/// consumer taking runs of k steps), (s / runLength) * runStride +
/// s % runLength + ringOffset; slot pos % slots, phase pos / slots.
struct Op {
  OpKind kind = OpKind::Compute;
  int barrier = -1; // index into ProtocolModel::barriers
  int64_t ringStride = 1, ringOffset = 0;
  int64_t runLength = 0, runStride = 0;
  /// Ops done once per `period` steps (at step % period == `at`), such as
  /// a ping-pong turn per tile: position (step / period) * ringStride +
  /// ringOffset.
  int64_t period = 0, at = 0;
  /// Ops done only at steps with step % guardPeriod < guardBelow: a refill
  /// that stops `ahead` steps before the end of each tile.
  int64_t guardPeriod = 0, guardBelow = 0;
  /// Wait for the phase before (parity ^ 1): a producer acquiring an empty
  /// slot, which passes on a fresh barrier.
  bool previousPhase = false;
  int arrivals = 1;
  int64_t bytes = 0;
  double cycles = 0; // Compute; 0 takes the latency model's MMA cycles
  /// Shared memory: a Copy writes `buffer`, a Compute or Read reads
  /// `reads`; with bufferSlots > 0 each names a ring of that many buffers
  /// and the op at ring position p uses the one at p % bufferSlots.
  int buffer = -1;
  std::vector<int> reads;
  int64_t bufferSlots = 0;
  /// Compute: asynchronous MMA groups it leaves in flight, its own among
  /// them (wgmma.wait_group N after the commit); -1: done when it ends.
  /// MmaWait: the groups its wait leaves in flight.
  int64_t asyncGroups = -1;
  std::string label; // "wait full", "copy a", ...
  unsigned line = 0; // source line, when known
  /// A Copy of the same bytes as the Copy before it, multicast to another
  /// CTA: it lands when that one does and takes no bandwidth of its own.
  bool multicast = false;
  /// The k step its events show; -1: the role's step. A role read from
  /// nvgpu IR runs its whole trace as one step and numbers its own.
  int64_t shownStep = -1;

  bool runsAt(int64_t step) const {
    if (guardPeriod > 0 && step % guardPeriod >= guardBelow)
      return false;
    return period <= 0 || step % period == at;
  }
  /// The buffer `base` names at `step`.
  int bufferAt(int base, int64_t step) const {
    if (base < 0 || bufferSlots <= 0)
      return base;
    return base + int(position(step) % bufferSlots);
  }
  int64_t position(int64_t step) const {
    if (period > 0)
      return (step / period) * ringStride + ringOffset;
    if (runLength > 0)
      return (step / runLength) * runStride + step % runLength + ringOffset;
    return step * ringStride + ringOffset;
  }
};

struct RoleModel {
  std::string name;
  int64_t steps = 0;
  std::vector<Op> body;
  /// > 0: the body is the role's whole run, unrolled (steps == 1), and
  /// covers this many loop iterations.
  int64_t unrolledSteps = 0;
  /// The SM it runs on (its CTA in a cluster): roles of one SM stream
  /// their copies one after another; other SMs' copies do not wait.
  int sm = 0;
  /// Loop iterations the role runs, for summaries.
  int64_t loopSteps() const {
    return unrolledSteps > 0 ? unrolledSteps : steps;
  }
};

struct ProtocolModel {
  std::string kernel;
  /// What it was read from: "klx pipelines" (before klx-to-nvgpu, with
  /// the barriers that pass will create) or "nvgpu ops" (the barriers
  /// as written, one thread of each class run through the kernel).
  std::string readFrom = "klx pipelines";
  /// How the model was sized and what it assumed, in words.
  std::string assumptions;
  /// The problem it covers, "2 tiles x 9 k steps": klx verify's bound.
  std::string bound;
  /// The same as numbers: output tiles per CTA and k steps per tile, 0
  /// where the model has none (a kernel without a k loop, or one whose own
  /// constants bound it). Comparisons simulate variants on equal ones.
  int64_t tiles = 0, kSteps = 0;
  /// Output elements of one tile (tile_m x tile_n; 0 when unknown): tiles
  /// of two sizes are different work, compared per element.
  int64_t tileElements = 0;
  /// Whether each op's ring position is the phase its author meant (klx
  /// knows it from the pipeline state). Read from nvgpu ops, only the
  /// parity of a wait is known: the simulation is still what hardware
  /// does, but it cannot tell a parity slip from an intended skip, so the
  /// checks are per barrier over the whole run rather than per phase.
  bool phasesKnown = true;
  std::vector<BarrierGroup> barriers;
  std::vector<RoleModel> roles;
  std::vector<Buffer> buffers;
  /// Why some copies or reads have no buffer (where they point is not
  /// known): the stage race checks are then incomplete. Empty: complete.
  std::string buffersUnknown;
};

/// What happened to a role, in order. PhaseDone marks a phase completing,
/// on the lane of the role whose arrive or copy completed it.
struct Event {
  enum class Kind { Wait, Work, Arrive, Copy, CopyDone, PhaseDone };
  Kind kind = Kind::Work;
  double start = 0, end = 0; // equal for instants
  int barrier = -1, slot = -1;
  /// The phase the op meant (ring position / slots); without known
  /// phases, the phase a wait saw complete and the one an arrive counts
  /// towards.
  int64_t phase = -1;
  int64_t step = -1;
  std::string label;
  unsigned line = 0; // the op's line in the IR the model was read from
  /// A wait that never ended: its role is still blocked on it when the
  /// run stops (a deadlock, or a protocol error that stopped the run);
  /// drawn from when it began to the end.
  bool stuck = false;
};

struct BlockedWait {
  std::string role;
  std::string op;       // the op it is stuck at ("wait full", "copy a")
  bool waiting = false; // at a wait (else stopped by a protocol error)
  std::string barrier;
  int slot = 0;
  int64_t step = 0;
  int expectedParity = 0;      // the parity it waits to see completed
  int64_t completedPhases = 0; // of that barrier so far
  int pendingArrivals = 0;
  int64_t pendingBytes = 0;
  unsigned line = 0;
};

struct Verdict {
  bool completes = true;
  /// The protocol broke (an arrival with no pending count left): the
  /// simulation stopped there; on hardware such a kernel faults or hangs.
  bool protocolError = false;
  std::vector<BlockedWait> blocked;
  /// Causes and protocol errors in words ("full[1] completed phase 0
  /// early: ..."), each at most once.
  std::vector<std::string> findings;
};

/// An arrive (or bytes landing) that completed the phase a wait was
/// blocked on, to the end of that wait: lanes[fromRole][fromEvent] ->
/// lanes[toRole][toEvent].
struct Flow {
  int fromRole = 0;
  size_t fromEvent = 0;
  int toRole = 0;
  size_t toEvent = 0;
};

struct Timeline {
  std::vector<std::vector<Event>> lanes; // one per role, as in the model
  std::vector<Flow> flows;
  std::vector<std::string> roleNames;
  Verdict verdict;
  double endTime = 0;
  /// Per role: share of its time from start to finish (or to the end)
  /// spent in waits.
  std::vector<double> waitingShare;
  std::vector<double> waitingCycles;
  LatencyModel latency;
};

/// Static checks of the model: per barrier and phase (per barrier over the
/// run when phases are not known), arrivals against the init count,
/// expect_tx bytes against the bytes copies deliver, and waits on barriers
/// nothing arrives on.
std::vector<std::string> checkProtocol(const ProtocolModel &model);

/// Puts each wait of `timeline.verdict.blocked` on its role's lane as an
/// Event::stuck wait from `since[role]` (when the role began to wait) to
/// the timeline's end, so a run that stopped shows who is stuck on which
/// barrier and phase rather than an empty lane.
void addStuckWaits(Timeline &timeline, const ProtocolModel &model,
                   const std::vector<double> &since);

/// Runs every role to its last step, or until nothing can move (a
/// deadlock), or `maxEvents`; unless it ran out of events, each role left
/// blocked at a wait ends in a stuck wait (addStuckWaits).
Timeline simulate(const ProtocolModel &model, const LatencyModel &latency = {},
                  int64_t maxEvents = 5'000'000);

} // namespace klx::sim

#endif // KLX_ANALYSIS_PROTOCOL_BARRIERSIM_H
