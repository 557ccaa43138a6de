//===- ChainWalk.h - What set a recording's end, walked back ----*- C++ -*-===//
//
// The one critical-chain walk, for a GPU's trace (klx-run,
// CriticalChain.cpp) and for the protocol simulator's lanes (the window's
// Measured pane puts the model's answer beside the GPU's): from the lane
// that finished last, back along it to each wait that blocked; there, to
// what ended the wait (the copy that filled the stage, the release that
// emptied it, the turn passed), and on along that lane, until its first
// event. A recording says what a lane's waits and signals are
// (ChainRecording); the walk is the same for both. Std-only.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CHAINWALK_H
#define KLX_RUNTIME_CHAINWALK_H

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace klx::rt {

/// What one stretch of the chain was: a lane working (issuing, its MMAs
/// and their waits), a load in flight (a copy issued, the consumer
/// waiting for the stage), a released stage reaching the producer, a
/// ping-pong turn passed, a wait whose signal the recording does not hold
/// (a cluster's CTA that was not traced), or the lane before its first
/// event and (a trace's CTA) after its last.
enum class ChainPart { Setup, Work, Load, Release, Turn, Unrecorded, Epilogue };
const char *chainPartKey(ChainPart part); // "work", "load", ...

/// Where the walk is: on `lane` at time `t`, its events up to `index`
/// still before it.
struct ChainPlace {
  int lane = 0;
  long index = 0;
  double t = 0;
};

/// A wait that blocked, the last one before a place.
struct ChainWait {
  long index = 0; // the recording's: the event that ended it
  double begin = 0, end = 0;
  int stage = 0; // the stage waited for
  /// Where the lane goes on before the wait, for a wait whose signal is
  /// not recorded.
  ChainPlace before;
};

/// What ended a wait: the place the walk goes on from, and what the
/// stretch from there to the wait's end was.
struct ChainSignal {
  ChainPlace from;
  ChainPart part = ChainPart::Release;
  /// A release stamped late (TraceEvent::late): its stretch may have
  /// begun sooner, and where it has no length, the work before it may
  /// have ended sooner.
  bool late = false;
};

/// One stretch of the chain, on a lane.
struct ChainStretch {
  int lane = 0;
  double start = 0, end = 0;
  ChainPart part = ChainPart::Work;
  int stage = 0;
  bool late = false;
};

/// What the walk needs of a recording.
class ChainRecording {
public:
  virtual ~ChainRecording() = default;
  /// The last wait on `at`'s lane that blocked and had ended by `at`.
  virtual std::optional<ChainWait> lastWait(const ChainPlace &at) const = 0;
  /// What ended `wait` on `at`'s lane; nullopt where the recording does
  /// not hold it or it would not move the walk back, with `why` said
  /// where the recording can say it.
  virtual std::optional<ChainSignal> signalOf(const ChainPlace &at,
                                              const ChainWait &wait,
                                              std::string &why) const = 0;
  /// When the lane's first event was, and when its lane began (the setup
  /// before that event).
  virtual double firstEvent(int lane) const = 0;
  virtual double laneStart(int lane) const = 0;
  /// At a wait whose signal is missing: go on along the waiting lane
  /// before it (a trace: the signal came from outside it), or stop and
  /// say why (a model: it records every signal it simulates).
  virtual bool goesOnPastMissingSignals() const = 0;
  /// How many waits the walk may pass: a bound for a malformed recording.
  virtual size_t stepLimit() const = 0;
};

struct ChainWalk {
  /// From the end backwards; stretches of no length are left out.
  std::vector<ChainStretch> stretches;
  /// Where the walk stopped short: "unknown, because ..." from signalOf.
  std::string unknown;
};

/// Walks `recording` back from `end` (the lane that finished last, at its
/// last event).
ChainWalk walkChainBack(const ChainRecording &recording, ChainPlace end);

} // namespace klx::rt

#endif // KLX_RUNTIME_CHAINWALK_H
