//===- BarrierSimTest.cpp - The mbarrier protocol simulator ---------------===//

#include "klx/Analysis/Protocol/BarrierSim.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace klx::sim;

namespace {

bool mentions(const Verdict &v, const std::string &text) {
  return std::any_of(
      v.findings.begin(), v.findings.end(),
      [&](const std::string &f) { return f.find(text) != std::string::npos; });
}

Op wait(int barrier, bool previous = false, std::string label = "wait") {
  Op op;
  op.kind = OpKind::Wait;
  op.barrier = barrier;
  op.previousPhase = previous;
  op.label = std::move(label);
  return op;
}
Op arrive(int barrier, int arrivals = 1) {
  Op op;
  op.kind = OpKind::Arrive;
  op.barrier = barrier;
  op.arrivals = arrivals;
  op.label = "arrive";
  return op;
}
Op expectTx(int barrier, int64_t bytes) {
  Op op;
  op.kind = OpKind::ArriveExpectTx;
  op.barrier = barrier;
  op.bytes = bytes;
  op.label = "arrive.expect_tx";
  return op;
}
Op copy(int barrier, int64_t bytes) {
  Op op;
  op.kind = OpKind::Copy;
  op.barrier = barrier;
  op.bytes = bytes;
  op.label = "copy";
  return op;
}
Op mma() {
  Op op;
  op.kind = OpKind::Compute;
  op.label = "mma";
  return op;
}

/// One producer and one consumer on a ring of `stages`: the CUTLASS
/// producer_acquire/commit, consumer_wait/release protocol.
ProtocolModel ring(int stages, int64_t steps, int emptyCount = 1,
                   int64_t expected = 32768, int64_t delivered = 16384) {
  ProtocolModel m;
  m.barriers = {{"full", stages, 1}, {"empty", stages, emptyCount}};
  m.roles.push_back({"producer",
                     steps,
                     {wait(0 + 1, true, "wait empty"), expectTx(0, expected),
                      copy(0, delivered), copy(0, 16384)}});
  m.roles.push_back(
      {"consumer", steps, {wait(0, false, "wait full"), mma(), arrive(1)}});
  return m;
}

} // namespace

TEST_CASE("barrier sim: a correct ring of 2, 4 and 7 stages completes",
          "[barrier-sim]") {
  for (int stages : {2, 4, 7}) {
    INFO(stages << " stages");
    Timeline t = simulate(ring(stages, 2 * stages + 3));
    CHECK(t.verdict.completes);
    CHECK(t.verdict.blocked.empty());
    CHECK(t.verdict.findings.empty());
    // Every k step: one wait, one MMA, one arrive on the consumer side.
    auto count = [&](int lane, Event::Kind kind) {
      return std::count_if(t.lanes[lane].begin(), t.lanes[lane].end(),
                           [&](const Event &e) { return e.kind == kind; });
    };
    CHECK(count(1, Event::Kind::Work) == 2 * stages + 3);
    // Every wait that blocked ends with a flow from what released it.
    REQUIRE_FALSE(t.flows.empty());
    for (const Flow &f : t.flows) {
      const Event &to = t.lanes[f.toRole][f.toEvent];
      const Event &from = t.lanes[f.fromRole][f.fromEvent];
      CHECK(to.kind == Event::Kind::Wait);
      CHECK(from.start <= to.end);
      CHECK((from.kind == Event::Kind::Arrive ||
             from.kind == Event::Kind::CopyDone));
    }
    CHECK(count(0, Event::Kind::Copy) == 2 * (2 * stages + 3));
    CHECK(count(0, Event::Kind::CopyDone) == 2 * (2 * stages + 3));
    // A phase flip per k step on each barrier: full (marked on the
    // producer's lane, whose bytes complete it) and empty (consumer's).
    CHECK(count(0, Event::Kind::PhaseDone) == 2 * stages + 3);
    CHECK(count(1, Event::Kind::PhaseDone) == 2 * stages + 3);
    CHECK(t.endTime > 0);
  }
}

TEST_CASE("barrier sim: one stage makes the producer wait far more",
          "[barrier-sim]") {
  Timeline one = simulate(ring(1, 16)), four = simulate(ring(4, 16));
  REQUIRE(one.verdict.completes);
  REQUIRE(four.verdict.completes);
  INFO("producer waits " << one.waitingCycles[0] << " cycles with 1 stage, "
                         << four.waitingCycles[0] << " with 4");
  CHECK(one.waitingCycles[0] > 2 * four.waitingCycles[0]);
  CHECK(one.endTime > 2 * four.endTime);
}

TEST_CASE("barrier sim: an arrive count that does not match the init count",
          "[barrier-sim]") {
  // empty initialised for 2 arrivals; the one consumer arrives once.
  Timeline t = simulate(ring(2, 8, /*emptyCount=*/2));
  CHECK_FALSE(t.verdict.completes);
  REQUIRE(t.verdict.blocked.size() >= 1);
  const BlockedWait &b = t.verdict.blocked.front();
  CHECK(b.role == "producer");
  CHECK(b.barrier == "empty");
  CHECK(b.slot == 0);
  CHECK(b.pendingArrivals == 1);
  CHECK(b.completedPhases == 0);
  CHECK(mentions(t.verdict, "empty: 1 arrivals per phase (consumer 1) but it "
                            "is initialised for 2"));
}

TEST_CASE("barrier sim: expect_tx bytes the copies do not deliver",
          "[barrier-sim]") {
  Timeline t = simulate(ring(2, 4, 1, /*expected=*/65536));
  CHECK_FALSE(t.verdict.completes);
  REQUIRE(t.verdict.blocked.size() == 2);
  const BlockedWait &consumer = t.verdict.blocked[1];
  CHECK(consumer.role == "consumer");
  CHECK(consumer.barrier == "full");
  CHECK(consumer.slot == 0);
  CHECK(consumer.pendingBytes == 32768);
  CHECK(consumer.pendingArrivals == 0);
  CHECK(mentions(t.verdict, "full: expect_tx announces 65536 bytes per phase "
                            "but the copies deliver 32768"));
}

TEST_CASE("barrier sim: a wait on a barrier nothing arrives on",
          "[barrier-sim]") {
  ProtocolModel m = ring(2, 4);
  m.barriers.push_back({"turn", 2, 128});
  m.roles[1].body.insert(m.roles[1].body.begin(), wait(2, false, "take turn"));
  Timeline t = simulate(m);
  CHECK_FALSE(t.verdict.completes);
  CHECK(t.verdict.blocked.back().barrier == "turn");
  CHECK(mentions(t.verdict, "turn[0] phase 0 is waited on but no role "
                            "arrives on it"));
  // The consumer's lane ends in the wait, from when it began to the end:
  // a lane that read "consumer 100%" over nothing.
  const Event &stuck = t.lanes[1].back();
  CHECK(stuck.stuck);
  CHECK(stuck.kind == Event::Kind::Wait);
  CHECK(stuck.barrier == 2);
  CHECK(stuck.end == t.endTime);
  CHECK(stuck.label == "blocked: take turn (turn[0], phase 0)");
  // A run that completes has none.
  Timeline fine = simulate(ring(2, 4));
  for (const std::vector<Event> &lane : fine.lanes)
    for (const Event &e : lane)
      CHECK_FALSE(e.stuck);
}

TEST_CASE("barrier sim: two producers on one full barrier for one arrival",
          "[barrier-sim]") {
  // gemm_two_producers -D shared_full_barrier=1: A and B each announce
  // their bytes on full, initialised for one arrival.
  ProtocolModel m;
  m.barriers = {{"full", 2, 1}, {"empty_a", 2, 1}, {"empty_b", 2, 1}};
  m.roles.push_back(
      {"producer_a", 8, {wait(1, true), expectTx(0, 16384), copy(0, 16384)}});
  m.roles.push_back(
      {"producer_b", 8, {wait(2, true), expectTx(0, 16384), copy(0, 16384)}});
  m.roles.push_back({"consumer", 8, {wait(0), mma(), arrive(1), arrive(2)}});
  Timeline t = simulate(m);
  CHECK_FALSE(t.verdict.completes);
  CHECK(mentions(t.verdict, "full: 2 arrivals per phase (producer_a 1, "
                            "producer_b 1) but it is initialised for 1: the "
                            "phase completes before every role has arrived"));
  CHECK(mentions(t.verdict, "full[0]: producer_b arrives on phase 0, which "
                            "already has its 1 arrival"));
  // With a full barrier each, the same roles complete.
  m.barriers = {
      {"full_a", 2, 1}, {"full_b", 2, 1}, {"empty_a", 2, 1}, {"empty_b", 2, 1}};
  m.roles[0].body = {wait(2, true), expectTx(0, 16384), copy(0, 16384)};
  m.roles[1].body = {wait(3, true), expectTx(1, 16384), copy(1, 16384)};
  m.roles[2].body = {wait(0), wait(1), mma(), arrive(2), arrive(3)};
  Timeline fixed = simulate(m);
  CHECK(fixed.verdict.completes);
  CHECK(fixed.verdict.findings.empty());
}

TEST_CASE("barrier sim: ping-pong consumers take runs of k steps",
          "[barrier-sim]") {
  // Two consumers, each every other tile of 3 k steps, on one ring.
  ProtocolModel m;
  m.barriers = {{"full", 4, 1}, {"empty", 4, 1}};
  m.roles.push_back(
      {"producer", 12, {wait(1, true), expectTx(0, 16384), copy(0, 16384)}});
  for (int c = 0; c < 2; ++c) {
    Op w = wait(0), r = arrive(1);
    for (Op *op : {&w, &r}) {
      op->runLength = 3;
      op->runStride = 6;
      op->ringOffset = 3 * c;
    }
    m.roles.push_back({"consumer" + std::to_string(c), 6, {w, mma(), r}});
  }
  Timeline t = simulate(m);
  CHECK(t.verdict.completes);
  CHECK(t.verdict.findings.empty());
}

// On the samples, through the real pipeline.
#include "TestSupport.h"

#include "klx/Pipeline/Compiler.h"

namespace {

/// The timeline of the sample's kernel, from its last step with a model.
Timeline
sampleTimeline(const std::string &sample,
               std::vector<std::pair<std::string, std::string>> defines) {
  std::string path = "samples/nvidia/" + sample;
  klx::CompileOptions options;
  options.emitGoal = klx::EmitKind::MLIR;
  options.defines = std::move(defines);
  klx::PipelineRun run =
      klx::runPipeline(klx::test::readSource(path), path, options);
  REQUIRE(run.succeeded());
  if (int step = run.timelineStep(); step >= 0)
    return simulate(run.snapshots[step].facts.protocols.front());
  FAIL("no step of " << sample << " has a protocol model");
  return {};
}

} // namespace

TEST_CASE("barrier sim: gemm_ws_persistent, one stage against four",
          "[barrier-sim]") {
  Timeline one = sampleTimeline("gemm_ws_persistent.mlir", {{"stages", "1"}});
  Timeline four = sampleTimeline("gemm_ws_persistent.mlir", {{"stages", "4"}});
  REQUIRE(one.verdict.completes);
  REQUIRE(four.verdict.completes);
  REQUIRE(one.roleNames[0] == "producer");
  INFO("producer waits " << one.waitingCycles[0] << " cycles per "
                         << one.lanes[0].size() << " events with 1 stage, "
                         << four.waitingCycles[0] << " per "
                         << four.lanes[0].size() << " with 4");
  // Per k step the producer waits far longer with one stage.
  double perStepOne = one.waitingCycles[0] / 3;   // 3 k steps per tile
  double perStepFour = four.waitingCycles[0] / 9; // 9 k steps per tile
  CHECK(perStepOne > 2 * perStepFour);
}

TEST_CASE("barrier sim: gemm_pingpong's consumers alternate on the MMA",
          "[barrier-sim]") {
  Timeline t = sampleTimeline("gemm_pingpong.mlir", {});
  REQUIRE(t.verdict.completes);
  REQUIRE(t.roleNames.size() == 3);
  // The MMA spans of each consumer, tile by tile: no two overlap.
  std::vector<std::pair<double, double>> spans[2];
  for (int c = 0; c < 2; ++c)
    for (const Event &e : t.lanes[1 + c])
      if (e.kind == Event::Kind::Work) {
        auto &s = spans[c];
        if (s.empty() || e.start - s.back().second > 1000)
          s.push_back({e.start, e.end});
        else
          s.back().second = e.end;
      }
  REQUIRE(spans[0].size() == 2);
  REQUIRE(spans[1].size() == 2);
  CHECK(spans[0][0].second <= spans[1][0].first);
  CHECK(spans[1][0].second <= spans[0][1].first);
  CHECK(spans[0][1].second <= spans[1][1].first);
}

TEST_CASE("barrier sim: a parity slip, a phase missed by its waiter",
          "[barrier-sim]") {
  // The producer completes two phases of `ready` per k step (two arrivals
  // on a barrier initialised for one); the consumer, counting one phase
  // per step, waits for phase 0 after phases 0 and 1 are done, and its
  // parity will not come round until phase 2 completes, which needs it.
  ProtocolModel m;
  m.barriers = {{"ready", 1, 1}, {"done", 1, 1}};
  Op first = arrive(0), second = arrive(0);
  second.ringOffset = 1; // its own phase: 2 per step
  first.ringStride = second.ringStride = 2;
  Op readyWait = wait(0, false, "wait ready");
  m.roles.push_back(
      {"producer", 4, {wait(1, true, "wait done"), first, second}});
  m.roles.push_back({"consumer", 4, {readyWait, mma(), arrive(1)}});
  Timeline t = simulate(m);
  CHECK_FALSE(t.verdict.completes);
  CHECK(mentions(t.verdict, "ready[0]: consumer waits for phase 0 to "
                            "complete, but 2 phases have completed already"));
}

TEST_CASE("barrier sim: an arrival with no pending count left stops it",
          "[barrier-sim]") {
  // `ready` is initialised for one arrival; the producer's one arrive op
  // counts two (a warpgroup's arrive where one thread was meant).
  ProtocolModel m;
  m.barriers = {{"ready", 1, 1}};
  m.roles.push_back({"producer", 2, {arrive(0, 2)}});
  m.roles.push_back({"consumer", 2, {wait(0), mma()}});
  Timeline t = simulate(m);
  CHECK_FALSE(t.verdict.completes);
  CHECK(mentions(t.verdict, "ready[0]: producer arrives on phase 0, which "
                            "already has its 1 arrival (initialised for 1)"));
}

TEST_CASE("barrier sim: the lowered kernels agree with klx's own model",
          "[barrier-sim]") {
  // klx's model is read from the pipelines before klx-to-nvgpu; the same
  // kernel after it is read from the nvgpu ops the pass wrote. Both must
  // reach the same verdict.
  using Defines = std::vector<std::pair<std::string, std::string>>;
  struct Case {
    std::string sample;
    Defines defines;
    bool completes;
  } cases[] = {
      {"gemm_ws_persistent.mlir", {}, true},
      {"gemm_ws_persistent.mlir", {{"stages", "1"}}, true},
      {"gemm_ws_persistent.mlir", {{"warp_specialize", "0"}}, true},
      {"gemm_two_producers.mlir", {}, true},
      {"gemm_two_producers.mlir", {{"shared_full_barrier", "1"}}, false},
      {"gemm_pingpong.mlir", {}, true},
  };
  for (const Case &c : cases) {
    std::string path = "samples/nvidia/" + c.sample;
    klx::CompileOptions options;
    options.emitGoal = klx::EmitKind::MLIR;
    options.defines = c.defines;
    klx::PipelineRun run =
        klx::runPipeline(klx::test::readSource(path), path, options);
    REQUIRE(run.succeeded());
    const klx::Snapshot *lowered = run.findSnapshot("klx-to-nvgpu");
    REQUIRE(lowered);
    INFO(c.sample << " " << (c.defines.empty() ? "" : c.defines[0].first));
    REQUIRE(lowered->facts.protocols.size() == 1);
    REQUIRE(lowered->facts.protocols[0].readFrom == "nvgpu ops");
    int step = run.timelineStep();
    REQUIRE(step >= 0);
    REQUIRE(run.snapshots[step].facts.protocols[0].readFrom == "klx pipelines");
    Timeline own = simulate(run.snapshots[step].facts.protocols[0]);
    Timeline read = simulate(lowered->facts.protocols[0]);
    CHECK(own.verdict.completes == c.completes);
    CHECK(read.verdict.completes == c.completes);
    CHECK(read.verdict.protocolError == own.verdict.protocolError);
  }
}

TEST_CASE("barrier sim: the latency model from a --latency spec",
          "[barrier-sim]") {
  LatencyModel model;
  CHECK(parseLatencyModel("tma=800, mma=1024,tma_bytes=64", model).empty());
  CHECK(model.tmaLatency == 800);
  CHECK(model.mmaCycles == 1024);
  CHECK(model.tmaBytesPerCycle == 64);
  CHECK(model.issueCycles == 4); // untouched
  CHECK(parseLatencyModel("mma=0", model) ==
        "'mma=0' is not name=positive number");
  CHECK(parseLatencyModel("wake", model) ==
        "'wake' is not name=positive number");
  CHECK(parseLatencyModel("clock=3", model).find("unknown latency 'clock'") !=
        std::string::npos);
  CHECK(parseLatencyModel("", model) ==
        "expects name=cycles pairs, e.g. tma=800,mma=512");
}
