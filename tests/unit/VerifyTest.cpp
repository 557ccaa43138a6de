//===- VerifyTest.cpp - Every interleaving of a barrier protocol ----------===//
//
// klx verify on hand-built models (what each check finds, and that a
// correct ring verifies for every timing), and the Barrier timeline
// pane's view of its verdict and counterexample.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Analysis/Protocol/Verify.h"
#include "klx/Pipeline/Compiler.h"
#include "views/TimelineView.h"

using namespace klx;
using namespace klx::sim;

namespace {

Op wait(int barrier, bool previous, std::string label) {
  Op op;
  op.kind = OpKind::Wait;
  op.barrier = barrier;
  op.previousPhase = previous;
  op.label = std::move(label);
  return op;
}
Op arrive(int barrier, int arrivals, std::string label) {
  Op op;
  op.kind = OpKind::Arrive;
  op.barrier = barrier;
  op.arrivals = arrivals;
  op.label = std::move(label);
  return op;
}

/// A producer and a consumer on a ring of `stages` with stage buffers:
/// producer_acquire (wait empty, expect_tx full), a copy into stage s,
/// consumer_wait, an MMA reading stage s, consumer_release.
ProtocolModel ring(int stages, int64_t steps, int64_t announced = 16384,
                   bool acquire = true, bool releaseAfterRead = true) {
  ProtocolModel m;
  m.barriers = {{"full", stages, 1}, {"empty", stages, 1}};
  for (int s = 0; s < stages; ++s)
    m.buffers.push_back({"a[" + std::to_string(s) + "]", 0, s * 16384, 16384});
  std::vector<Op> producer;
  if (acquire)
    producer.push_back(wait(1, true, "wait empty"));
  Op expect;
  expect.kind = OpKind::ArriveExpectTx;
  expect.barrier = 0;
  expect.bytes = announced;
  expect.label = "arrive.expect_tx full";
  producer.push_back(expect);
  Op copy;
  copy.kind = OpKind::Copy;
  copy.barrier = 0;
  copy.bytes = 16384;
  copy.buffer = 0;
  copy.bufferSlots = stages;
  copy.label = "copy a";
  producer.push_back(copy);
  Op mma;
  mma.kind = OpKind::Compute;
  mma.reads = {0};
  mma.bufferSlots = stages;
  mma.label = "mma";
  std::vector<Op> consumer = {wait(0, false, "wait full")};
  if (releaseAfterRead) {
    consumer.push_back(mma);
    consumer.push_back(arrive(1, 1, "arrive empty"));
  } else {
    consumer.push_back(arrive(1, 1, "arrive empty"));
    consumer.push_back(mma);
  }
  m.roles.push_back({"producer", steps, producer});
  m.roles.push_back({"consumer", steps, consumer});
  m.bound = std::to_string(steps) + " k steps";
  return m;
}

} // namespace

TEST_CASE("verify: a correct ring verifies for every timing", "[verify]") {
  for (int stages : {1, 2, 4}) {
    INFO(stages << " stages");
    Verification v = verifyProtocol(ring(stages, 2 * stages + 1));
    CHECK(v.verified());
    CHECK(v.states > 1);
    CHECK(v.counterexample.empty());
  }
}

TEST_CASE("verify: each check finds its failure", "[verify]") {
  SECTION("no acquire: the producer arrives on a phase still in progress") {
    Verification v = verifyProtocol(ring(2, 5, 16384, /*acquire=*/false));
    REQUIRE(v.fails());
    // Which failure comes first depends on the timing; the shortest one
    // is an arrival on full[0] while its phase still waits for bytes.
    CHECK(v.kind == FailureKind::ArrivalOverflow);
    CHECK_THAT(v.summary, Catch::Contains("producer arrives on full[0]"));
    REQUIRE_FALSE(v.counterexample.empty());
    CHECK(v.counterexample.back().role == 0);
  }
  SECTION("a release before the read: the next copy races with it") {
    Verification v =
        verifyProtocol(ring(2, 5, 16384, true, /*releaseAfterRead=*/false));
    REQUIRE(v.fails());
    CHECK(v.kind == FailureKind::StageRace);
    CHECK_THAT(v.summary, Catch::Contains("producer copies into a[0] while "
                                          "consumer's read of a[0] may "
                                          "still be in progress"));
  }
  SECTION("expect_tx short of the bytes: the phase never completes") {
    Verification v = verifyProtocol(ring(2, 5, 8192));
    REQUIRE(v.fails());
    CHECK(v.kind == FailureKind::TxMismatch);
    CHECK_THAT(v.summary, Catch::Contains("the copies delivered 8192 bytes "
                                          "more than expect_tx announced"));
  }
  SECTION("parity aliasing, where the phases are known") {
    // The consumer waits on full at every other step only: by its second
    // wait on a slot, that slot has completed two phases.
    ProtocolModel m = ring(1, 4);
    m.roles[1].body[0].period = 2;
    m.roles[1].body[0].at = 0;
    m.roles[1].body[0].ringStride = 2;
    Verification v = verifyProtocol(m);
    REQUIRE(v.fails());
    INFO(v.summary);
    CHECK(v.kind == FailureKind::ParityAliasing);
    CHECK_THAT(v.summary, Catch::Contains("have both completed before it "
                                          "looked"));
  }
  SECTION("a wait nothing completes: a deadlock, with who is stuck") {
    ProtocolModel m = ring(2, 3);
    m.roles[1].body.pop_back(); // the consumer never releases
    Verification v = verifyProtocol(m);
    REQUIRE(v.fails());
    CHECK(v.kind == FailureKind::Deadlock);
    REQUIRE(v.trace.verdict.blocked.size() == 2);
    CHECK(v.trace.verdict.blocked[0].role == "producer");
    CHECK(v.trace.verdict.blocked[0].barrier == "empty");
    // The counterexample's lanes end in the producer's wait that never
    // ends, from its last move to the end.
    REQUIRE_FALSE(v.trace.lanes[0].empty());
    const Event &stuck = v.trace.lanes[0].back();
    CHECK(stuck.stuck);
    CHECK(stuck.kind == Event::Kind::Wait);
    CHECK(stuck.end == v.trace.endTime);
    CHECK_THAT(stuck.label, Catch::StartsWith("blocked: "));
  }
}

TEST_CASE("verify: a barrier only one role uses is not interleaved",
          "[verify]") {
  // Two roles that each sync their own threads (a consumer warpgroup's
  // named barrier: arrive + wait) 10 times: every order of the two is the
  // same protocol, so the search follows one path (about 40 states), not
  // the 21 x 21 grid of interleavings.
  ProtocolModel m;
  m.barriers = {{"bar 1", 1, 128}, {"bar 2", 1, 128}};
  for (int r = 0; r < 2; ++r) {
    std::string bar = "bar " + std::to_string(r + 1);
    m.roles.push_back(
        {"consumer " + std::to_string(r),
         10,
         {arrive(r, 128, "arrive " + bar), wait(r, false, "wait " + bar)}});
  }
  m.bound = "10 k steps";
  Verification v = verifyProtocol(m);
  REQUIRE(v.verified());
  CHECK(v.states <= 2 * 2 * 10 + 1);

  SECTION("too few arrivals on it still deadlock") {
    m.roles[1].body[0].arrivals = 64;
    Verification stuck = verifyProtocol(m);
    REQUIRE(stuck.fails());
    CHECK(stuck.kind == FailureKind::Deadlock);
    CHECK_THAT(stuck.summary, Catch::Contains("bar 2"));
  }
  SECTION("a barrier two roles use is still interleaved") {
    m.barriers = {{"bar 1", 1, 256}};
    m.roles[1].body = {arrive(0, 128, "arrive bar 1"),
                       wait(0, false, "wait bar 1")};
    m.roles[0].body[0].arrivals = 128;
    Verification shared = verifyProtocol(m);
    REQUIRE(shared.verified());
    CHECK(shared.states > 2 * 2 * 10 + 1);
  }
}

TEST_CASE("verify: the state limit gives 'unknown', not a verdict",
          "[verify]") {
  VerifyOptions options;
  options.maxStates = 5;
  Verification v = verifyProtocol(ring(4, 20), options);
  CHECK(v.result == Verification::Result::Unknown);
  CHECK_THAT(v.unknownWhy, Catch::Contains("limit of 5 states"));
}

TEST_CASE("verify: the Barrier timeline pane's verdicts", "[verify][app]") {
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  std::string path = "samples/nvidia/gemm_two_producers.mlir";
  std::string source = test::readSource(path);
  SECTION("verified, with the bound") {
    PipelineRun run = runPipeline(source, path, options);
    app::TimelineViews views = app::buildTimelineViews(run);
    const app::TimelineView &view = views.pick("");
    REQUIRE(view.verification);
    CHECK(view.verification->verified());
    CHECK(view.bound == "4 tiles x 9 k steps");
    CHECK_FALSE(view.counterexample);
    CHECK_FALSE(view.leavesOut.empty());
  }
  SECTION("can fail, with the counterexample on the same lanes") {
    options.defines = {{"shared_full_barrier", "1"}};
    PipelineRun run = runPipeline(source, path, options);
    app::TimelineViews views = app::buildTimelineViews(run);
    const app::TimelineView &view = views.pick("");
    REQUIRE(view.verification);
    REQUIRE(view.verification->fails());
    REQUIRE(view.counterexample);
    const app::TimelineView &trace = *view.counterexample;
    CHECK(trace.moves);
    CHECK(trace.lanes.size() == view.lanes.size());
    CHECK(trace.endTime == double(view.verification->counterexample.size()));
    CHECK(view.verifyVerdict.rfind("FAILS for some timing", 0) == 0);
  }
  SECTION("read from the nvgpu ops: roles by name, moves at their loads") {
    // At klx-to-nvgpu the model is read from the threads themselves: its
    // roles are the Warp roles tab's (they were "thread 256/288" and
    // "threads 0-127"), and the producers' arrive.expect_tx is the loads'
    // (source lines 66 and 67), not the tile loop's (line 59).
    options.defines = {{"shared_full_barrier", "1"}};
    PipelineRun run = runPipeline(source, path, options);
    app::TimelineViews views = app::buildTimelineViews(run);
    const app::TimelineView &view = views.pick("klx-to-nvgpu");
    REQUIRE(view.stepName == "klx-to-nvgpu");
    REQUIRE(view.verification);
    REQUIRE(view.verification->fails());
    const sim::Timeline &trace = view.verification->trace;
    CHECK(llvm::is_contained(trace.roleNames, "producer_a"));
    CHECK(llvm::is_contained(trace.roleNames, "producer_b"));
    CHECK(llvm::is_contained(trace.roleNames, "consumer (threads 0-127)"));
    std::vector<unsigned> arriveLines;
    for (const CounterStep &move : view.verification->counterexample)
      if (move.what.rfind("arrive.expect_tx full", 0) == 0)
        arriveLines.push_back(app::sourceLineOf(run, view.step, move.line));
    CHECK(arriveLines == std::vector<unsigned>{66, 67});
  }
}

TEST_CASE("verify: a cluster's two CTAs, and a release that forgets the other",
          "[verify][cluster]") {
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  options.defines = {{"cluster_m", "2"}};
  std::string path = "samples/nvidia/gemm_ws_persistent.mlir";
  PipelineRun run = runPipeline(test::readSource(path), path, options);
  REQUIRE(run.succeeded());
  int step = run.timelineStep();
  REQUIRE(step >= 0);
  ProtocolModel model = run.snapshots[step].facts.protocols.front();
  REQUIRE(model.roles.size() == 4);
  CHECK(model.roles[0].name == "producer (CTA 0)");
  CHECK(model.roles[3].name == "consumer (CTA 1)");
  CHECK(model.roles[3].sm == 1);
  // One tile of 5 k steps: the ring of 4 wraps, and the search stays small.
  for (RoleModel &role : model.roles)
    role.steps = 5;
  Verification sound = verifyProtocol(model);
  CHECK(sound.verified());

  // Each CTA's consumers release only their own CTA's stage (all 256
  // arrivals there), as a kernel without a cluster does: a producer then
  // multicasts into the other CTA's stage while its consumers read it.
  for (RoleModel &role : model.roles) {
    if (role.name.rfind("consumer", 0) != 0)
      continue;
    int own = -1;
    for (size_t b = 0; b < model.barriers.size(); ++b)
      if (model.barriers[b].name ==
          "empty (CTA " + std::to_string(role.sm) + ")")
        own = int(b);
    REQUIRE(own >= 0);
    std::vector<Op> body;
    for (Op op : role.body) {
      if (op.kind == OpKind::Arrive && op.barrier != own)
        continue;
      if (op.kind == OpKind::Arrive)
        op.arrivals = 256;
      body.push_back(op);
    }
    role.body = body;
  }
  Verification broken = verifyProtocol(model);
  REQUIRE(broken.fails());
  CHECK(broken.kind == FailureKind::StageRace);
  CHECK_THAT(broken.summary, Catch::Contains("(CTA "));
}
