//===- ChainWalkTest.cpp - The one critical-chain walk --------------------===//
//
// The walk on a recording of its own: lanes of waits, each with the
// signal that ended it or none, so what the walk does at each kind of
// place is seen without a trace or a simulation around it. The trace's
// and the model's recordings are tested where they are read
// (RuntimeTraceTest, WaitComparisonTest).
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/ChainWalk.h"

#include <catch2/catch.hpp>

#include <map>

using namespace klx::rt;

namespace {

/// Waits by lane (begin, end) in time order; a signal for some of them.
struct ToyRecording final : ChainRecording {
  struct Wait {
    double begin, end;
    std::optional<ChainSignal> signal;
  };
  std::map<int, std::vector<Wait>> waits;
  bool goesOn = false;

  std::optional<ChainWait> lastWait(const ChainPlace &at) const override {
    const std::vector<Wait> &lane = waits.at(at.lane);
    for (long i = long(lane.size()) - 1; i >= 0; --i)
      if (lane[size_t(i)].end <= at.t)
        return ChainWait{i, lane[size_t(i)].begin, lane[size_t(i)].end, 2,
                         ChainPlace{at.lane, i - 1, lane[size_t(i)].begin}};
    return std::nullopt;
  }
  std::optional<ChainSignal> signalOf(const ChainPlace &at,
                                      const ChainWait &wait,
                                      std::string &why) const override {
    const Wait &w = waits.at(at.lane)[size_t(wait.index)];
    if (!w.signal)
      why = "unknown, because lane " + std::to_string(at.lane) + " says so";
    return w.signal;
  }
  double firstEvent(int) const override { return 10; }
  double laneStart(int) const override { return 0; }
  bool goesOnPastMissingSignals() const override { return goesOn; }
  size_t stepLimit() const override { return 100; }
};

} // namespace

TEST_CASE("chain walk: back along waits and their signals", "[runtime]") {
  // Lane 0 waits 50-80 for a load lane 1 issued at 40; lane 1 waited
  // 20-30 for a release nobody recorded.
  ToyRecording r;
  r.waits[0] = {{50, 80, ChainSignal{{1, 0, 40}, ChainPart::Load, false}}};
  r.waits[1] = {{20, 30, std::nullopt}};
  ChainWalk walk = walkChainBack(r, {0, 5, 100});
  CHECK(walk.unknown == "unknown, because lane 1 says so");
  REQUIRE(walk.stretches.size() == 3);
  CHECK(walk.stretches[0].part == ChainPart::Work); // lane 0, 80-100
  CHECK(walk.stretches[0].start == 80);
  CHECK(walk.stretches[1].part == ChainPart::Load); // 40-80, stage 2
  CHECK(walk.stretches[1].lane == 1);
  CHECK(walk.stretches[1].stage == 2);
  CHECK(walk.stretches[2].part == ChainPart::Work); // lane 1, 30-40
  CHECK(walk.stretches[2].end == 40);

  // A trace goes on past the missing signal: the wait is a link, then
  // lane 1's work from its first event, and its setup before that.
  r.goesOn = true;
  walk = walkChainBack(r, {0, 5, 100});
  CHECK(walk.unknown.empty());
  REQUIRE(walk.stretches.size() == 6);
  CHECK(walk.stretches[3].part == ChainPart::Unrecorded);
  CHECK(walk.stretches[3].start == 20);
  CHECK(walk.stretches[4].part == ChainPart::Work);
  CHECK(walk.stretches[4].start == 10);
  CHECK(walk.stretches[5].part == ChainPart::Setup);
  CHECK(walk.stretches[5].end == 10);
}

TEST_CASE("chain walk: a release stamped late", "[runtime]") {
  // The release that ended lane 0's wait at 60 is placed at the wait's
  // end (its stretch has no length): the work before it on lane 1 is
  // flagged, since it may have ended sooner.
  ToyRecording r;
  r.waits[0] = {{40, 60, ChainSignal{{1, 0, 60}, ChainPart::Release, true}}};
  r.waits[1] = {};
  ChainWalk walk = walkChainBack(r, {0, 3, 70});
  REQUIRE(walk.stretches.size() == 3);
  CHECK(walk.stretches[0].part == ChainPart::Work);
  CHECK_FALSE(walk.stretches[0].late);
  CHECK(walk.stretches[1].part == ChainPart::Work); // lane 1, 10-60
  CHECK(walk.stretches[1].lane == 1);
  CHECK(walk.stretches[1].late);
  CHECK(walk.stretches[2].part == ChainPart::Setup);
}
