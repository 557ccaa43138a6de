//===- WaitComparisonTest.cpp - Each role's waits, GPU beside model -------===//

#include "TestSupport.h"

#include "klx/Pipeline/Comparison.h"
#include "klx/Pipeline/Compiler.h"
#include "views/ModelChain.h"
#include "views/TimelineView.h"
#include "views/WaitComparison.h"

using namespace klx;
using namespace klx::app;

namespace {

const RoleWaits *find(const std::vector<RoleWaits> &roles,
                      const std::string &role) {
  for (const RoleWaits &r : roles)
    if (r.role == role)
      return &r;
  return nullptr;
}

/// Two CTAs, a consumer and a producer warp each, times in cycles.
MeasuredTimeline twoCtas() {
  MeasuredTimeline t;
  t.eventNames = {"wait full[0]", "mma[0]", "wait empty[1] of pipeline 1",
                  "copy[1]", "wait turn"};
  MeasuredCta first, second;
  first.cta = 0;
  second.cta = 1;
  // From 0 to 300: 100 + 50 waiting on full, 30 on its turn.
  first.warps.push_back({"warp 0 (consumer)",
                         0,
                         {{0, 100, 0},
                          {100, 100, 1},
                          {120, 150, 4},
                          {200, 250, 0},
                          {300, 300, 1}},
                         100});
  // From 10 to 110: 10 waiting on empty.
  first.warps.push_back(
      {"warp 8 (producer)", 8, {{10, 20, 2}, {20, 20, 3}, {110, 110, 3}}, 10});
  // From 1000 to 1100: none waiting.
  second.warps.push_back(
      {"warp 0 (consumer)", 0, {{1000, 1000, 1}, {1100, 1100, 1}}, 0});
  t.ctas = {first, second};
  return t;
}

/// The simulated timelines of NVIDIA sample `name`, compiled with
/// `defines`, as the window makes them.
TimelineViews sampleViews(const std::string &name, Defines defines = {}) {
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  options.defines = std::move(defines);
  std::string path = "samples/nvidia/" + name + ".mlir";
  PipelineRun run = runPipeline(test::readSource(path), path, options);
  return buildTimelineViews(run);
}

} // namespace

TEST_CASE("Measured pane: each role's waits, summed over every CTA",
          "[app][measured]") {
  std::vector<RoleWaits> roles = compareWaits(twoCtas(), nullptr);
  REQUIRE(roles.size() == 2);
  CHECK(roles[0].role == "consumer");
  CHECK(roles[1].role == "producer");
  // Consumer: 180 waiting of 300 + 100 cycles.
  const WaitShare &consumer = roles[0].measured;
  REQUIRE(consumer.known);
  CHECK(consumer.share == Approx(180.0 / 400));
  REQUIRE(consumer.byBarrier.size() == 2);
  CHECK(consumer.byBarrier[0].first == "full");
  CHECK(consumer.byBarrier[0].second == Approx(150.0 / 400));
  CHECK(consumer.byBarrier[1].first == "turn");
  CHECK(consumer.describe() == "45% (full 38%, turn 8%)");
  // Producer: one barrier, so no parts; its pipeline does not split it.
  CHECK(roles[1].measured.share == Approx(0.1));
  CHECK(roles[1].measured.byBarrier[0].first == "empty");
  CHECK(roles[1].measured.describe() == "10%");
  CHECK_FALSE(roles[0].model.known);
  CHECK(roles[0].model.describe() == "-");
  CHECK(roleOfWarp("warp 4 (consumer1)") == "consumer1");
  CHECK(roleOfWarp("warp 4") == "warp 4");
}

TEST_CASE("Measured pane: the model's waits beside the GPU's",
          "[app][measured]") {
  TimelineViews views = sampleViews("gemm_ws_persistent");
  const TimelineView &view = views.pick("");
  REQUIRE(view.unavailable.empty());
  std::vector<RoleWaits> roles = compareWaits(twoCtas(), &view);
  // The model's share is the simulator's own (klx timeline: producer 96%,
  // consumer 35%), split by barrier; within 0.1%: the simulator counts to
  // the cycle after the role's last op, the lanes have the op's end.
  for (const TimelineLane &lane : view.lanes) {
    const RoleWaits *r = find(roles, lane.colourRole);
    REQUIRE(r);
    REQUIRE(r->model.known);
    CHECK(r->model.share == Approx(lane.waitingShare).margin(1e-3));
  }
  const RoleWaits *consumer = find(roles, "consumer");
  REQUIRE(consumer);
  CHECK(consumer->model.share == Approx(0.35).margin(0.01));
  CHECK(consumer->model.byBarrier[0].first == "full");
  CHECK(consumer->measured.known);
  const RoleWaits *producer = find(roles, "producer");
  REQUIRE(producer);
  CHECK(producer->model.share == Approx(0.96).margin(0.01));
  CHECK(producer->model.byBarrier[0].first == "empty");

  // A role the trace lacks still shows, measured unknown.
  MeasuredTimeline consumersOnly = twoCtas();
  for (MeasuredCta &cta : consumersOnly.ctas)
    cta.warps.resize(1);
  roles = compareWaits(consumersOnly, &view);
  producer = find(roles, "producer");
  REQUIRE(producer);
  CHECK_FALSE(producer->measured.known);
  CHECK(producer->model.known);
}

namespace {
double partOf(const ModelChain &chain, const std::string &part) {
  for (const auto &[name, cycles] : chain.parts)
    if (name == part)
      return cycles;
  return -1;
}
} // namespace

TEST_CASE("Measured pane: what set the model's end", "[app][measured]") {
  // A producer issues a copy at 100 whose bytes land at 580; the consumer
  // waits for them from 0 to 600 (woken 20 cycles later), then works to
  // 900. Back from 900: consumer working 300, the load in flight from its
  // issue to the wait's end 500, the producer working before it 100.
  using Kind = sim::Event::Kind;
  TimelineView view;
  view.barrierNames = {"full"};
  TimelineLane producer, consumer;
  producer.role = producer.colourRole = "producer";
  consumer.role = consumer.colourRole = "consumer";
  producer.events = {{Kind::Copy, 100, 100, 0, 0, 0, 0, "copy a"},
                     {Kind::CopyDone, 580, 580, 0, 0, 0, -1, "bytes in"}};
  consumer.events = {{Kind::Wait, 0, 600, 0, 0, 0, 0, "wait full"},
                     {Kind::Work, 600, 900, -1, -1, -1, 0, "mma"}};
  view.lanes = {producer, consumer};
  view.flowsByEnd = view.flowsByStart = {{0, 580, 1, 600}};
  ModelChain chain = modelCriticalChain(view);
  CHECK(chain.end == 900);
  CHECK(chain.unknown.empty());
  CHECK(partOf(chain, "consumer working") == 300);
  CHECK(partOf(chain, "loads in flight") == 500);
  CHECK(partOf(chain, "producer working") == 100);
  CHECK(chain.describe() ==
        "loads in flight 56%, consumer working 33%, producer working 11%");

  // Without the flow the walk cannot go on, and says so.
  view.flowsByEnd.clear();
  view.flowsByStart.clear();
  chain = modelCriticalChain(view);
  CHECK(partOf(chain, "consumer working") == 300);
  CHECK(chain.unknown ==
        "unknown, because the model did not record what ended consumer's "
        "wait at cycle 600");

  // The sample's model: its parts cover the whole run.
  TimelineViews views = sampleViews("gemm_ws_persistent");
  chain = modelCriticalChain(views.pick(""));
  INFO(chain.describe());
  CHECK(chain.unknown.empty());
  double sum = 0;
  for (const auto &part : chain.parts)
    sum += part.second;
  CHECK(sum == Approx(chain.end));
  // klx timeline says 14616 cycles: the simulator ends a role one op
  // (4 cycles) after its last op begins; the lanes end with the op.
  CHECK(chain.end == Approx(14616).margin(4));
  CHECK(partOf(chain, "loads in flight") > 0);
}

TEST_CASE("Measured pane: the model's chain of every sample's every model",
          "[app][measured]") {
  // klx's own kernels and the hand-written nvgpu one (MLIR's integration
  // tests' shape, read from its nvgpu ops): each model's chain covers its
  // whole run, or says where it stopped.
  for (const char *name :
       {"gemm_tma_wgmma", "gemm_ws_persistent", "gemm_pingpong",
        "gemm_two_producers", "gemm_bar_array"}) {
    TimelineViews views = sampleViews(name);
    for (const TimelineView &view : views.views) {
      if (!view.unavailable.empty())
        continue;
      ModelChain chain = modelCriticalChain(view);
      INFO(name << " read from " << view.readFrom << " after " << view.stepName
                << ": " << chain.describe());
      CHECK(chain.end > 0);
      double sum = 0;
      for (const auto &part : chain.parts)
        sum += part.second;
      if (chain.unknown.empty())
        CHECK(sum == Approx(chain.end));
      else
        CHECK(sum < chain.end);
    }
  }
}

TEST_CASE("Measured pane: a cluster's model lanes are one role each",
          "[app][measured]") {
  // The clustered sample's model has a lane per role per CTA ("consumer
  // (CTA 1)") and barriers per CTA ("full (CTA 1)"); the GPU's warps of
  // every CTA are one role, its waits name the barrier's kind.
  TimelineViews views = sampleViews("gemm_ws_persistent", {{"cluster_m", "2"}});
  const TimelineView &view = views.pick("");
  REQUIRE(view.unavailable.empty());
  REQUIRE(view.lanes.size() == 4);
  CHECK(view.lanes[1].colourRole == "consumer (CTA 0)");
  std::vector<RoleWaits> roles = compareWaits(twoCtas(), &view);
  REQUIRE(roles.size() == 2);
  for (const RoleWaits &r : roles) {
    CHECK(r.model.known);
    for (const auto &[barrier, share] : r.model.byBarrier)
      CHECK((barrier == "full" || barrier == "empty"));
  }
  ModelChain chain = modelCriticalChain(view);
  INFO(chain.describe());
  CHECK(chain.describe().find("(CTA") == std::string::npos);
  CHECK(barrierKind("full_a (CTA 1)") == "full");
  CHECK(barrierKind("turn") == "turn");
  CHECK(roleWithoutCta("producer (CTA 12)") == "producer");
}
