//===- ChainWalk.cpp - What set a recording's end, walked back ------------===//

#include "klx/Runtime/ChainWalk.h"

using namespace klx::rt;

namespace {

class Walk {
public:
  explicit Walk(const ChainRecording &recording) : recording(recording) {}

  ChainWalk run(ChainPlace at) {
    // The walk came to `at` by a release stamped late whose own stretch
    // was of no length: the work before it ends at that bound instead.
    bool lateBound = false;
    for (size_t steps = recording.stepLimit(); steps > 0; --steps) {
      std::optional<ChainWait> wait = recording.lastWait(at);
      if (!wait) {
        double first = recording.firstEvent(at.lane);
        add(at.lane, first, at.t, ChainPart::Work, 0, lateBound);
        add(at.lane, recording.laneStart(at.lane), first, ChainPart::Setup);
        break;
      }
      add(at.lane, wait->end, at.t, ChainPart::Work, 0, lateBound);
      lateBound = false;
      std::string why;
      std::optional<ChainSignal> signal = recording.signalOf(at, *wait, why);
      if (!signal) {
        if (!recording.goesOnPastMissingSignals()) {
          walk.unknown = why;
          break;
        }
        // The wait itself is the link.
        add(at.lane, wait->begin, wait->end, ChainPart::Unrecorded,
            wait->stage);
        at = wait->before;
        continue;
      }
      bool added = add(signal->from.lane, signal->from.t, wait->end,
                       signal->part, wait->stage, signal->late);
      lateBound = signal->late && !added;
      at = signal->from;
    }
    return std::move(walk);
  }

private:
  /// Whether it was added: a stretch of no length is not.
  bool add(int lane, double start, double end, ChainPart part, int stage = 0,
           bool late = false) {
    if (end <= start)
      return false;
    walk.stretches.push_back({lane, start, end, part, stage, late});
    return true;
  }

  const ChainRecording &recording;
  ChainWalk walk;
};

} // namespace

ChainWalk klx::rt::walkChainBack(const ChainRecording &recording,
                                 ChainPlace end) {
  return Walk(recording).run(end);
}

const char *klx::rt::chainPartKey(ChainPart part) {
  switch (part) {
  case ChainPart::Setup:
    return "setup";
  case ChainPart::Work:
    return "work";
  case ChainPart::Load:
    return "load";
  case ChainPart::Release:
    return "release";
  case ChainPart::Turn:
    return "turn";
  case ChainPart::Unrecorded:
    return "unrecorded";
  case ChainPart::Epilogue:
    return "epilogue";
  }
  return "";
}
