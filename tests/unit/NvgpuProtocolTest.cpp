//===- NvgpuProtocolTest.cpp - Barrier protocols read from nvgpu ops ------===//

#include "TestSupport.h"

#include "klx/Analysis/Protocol/BarrierSim.h"
#include "klx/Pipeline/Compiler.h"
#include "views/TimelineView.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace klx;

namespace {

/// A producer thread and a consumer warp on a ring of two full/empty
/// pairs, written by hand; the placeholders make it wrong in one way.
std::string ringKernel(llvm::StringRef fullCount = "1",
                       llvm::StringRef producerTest = "eq",
                       llvm::StringRef steps = "%c5",
                       llvm::StringRef launch = "", bool initEmpty = true) {
  std::string text = R"(
!g = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @ring(%steps: index) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>LAUNCH} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %c32 = arith.constant 32 : index
      %full_count = arith.constant FULL : index
      %timeout = arith.constant 1000000 : index
      %tid = gpu.thread_id x
      %full = nvgpu.mbarrier.create -> !g
      %empty = nvgpu.mbarrier.create -> !g
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %full[%c0], %full_count : !g
        nvgpu.mbarrier.init %full[%c1], %full_count : !g
        INIT_EMPTY
      }
      gpu.barrier
      %producer = arith.cmpi PRODUCER, %tid, %c32 : index
      %consumer = arith.cmpi ult, %tid, %c32 : index
      scf.if %producer {
        scf.for %k = %c0 to STEPS step %c1 {
          %s = arith.remui %k, %c2 : index
          %round = arith.divui %k, %c2 : index
          %p = arith.remui %round, %c2 : index
          %previous = arith.xori %p, %c1 : index
          %parity = arith.index_cast %previous : index to i1
          nvgpu.mbarrier.try_wait.parity %empty[%s], %parity, %timeout : !g
          %t = nvgpu.mbarrier.arrive %full[%s] : !g -> !nvgpu.mbarrier.token
        }
      }
      scf.if %consumer {
        scf.for %k = %c0 to STEPS step %c1 {
          %s = arith.remui %k, %c2 : index
          %round = arith.divui %k, %c2 : index
          %p = arith.remui %round, %c2 : index
          %parity = arith.index_cast %p : index to i1
          nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %timeout : !g
          %t = nvgpu.mbarrier.arrive %empty[%s] : !g -> !nvgpu.mbarrier.token
        }
      }
      gpu.return
    }
  }
}
)";
  auto replace = [&](llvm::StringRef key, llvm::StringRef value) {
    size_t at;
    while ((at = text.find(key.str())) != std::string::npos)
      text.replace(at, key.size(), value.str());
  };
  replace("FULL", fullCount);
  replace("PRODUCER", producerTest);
  replace("STEPS", steps);
  replace("LAUNCH", launch);
  replace("INIT_EMPTY",
          initEmpty ? "nvgpu.mbarrier.init %empty[%c0], %c32 : !g\n"
                      "        nvgpu.mbarrier.init %empty[%c1], %c32 : !g"
                    : "");
  return text;
}

/// What klx reads at the parse step of `source`.
struct Read {
  std::vector<sim::ProtocolModel> models;
  std::vector<std::string> notes;
};

Read readKernel(const std::string &source) {
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  options.stopAfter = "parse";
  PipelineRun run = runPipeline(source, "ring.mlir", options);
  REQUIRE(!run.snapshots.empty());
  return {run.snapshots.front().facts.protocols,
          run.snapshots.front().facts.protocolNotes};
}

bool mentions(const std::vector<std::string> &lines, const std::string &text) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string &l) {
    return l.find(text) != std::string::npos;
  });
}

} // namespace

TEST_CASE("nvgpu protocol: a hand-written ring completes", "[nvgpu-protocol]") {
  Read read = readKernel(ringKernel());
  INFO(llvm::join(read.notes, "\n"));
  REQUIRE(read.models.size() == 1);
  const sim::ProtocolModel &m = read.models.front();
  CHECK(m.readFrom == "nvgpu ops");
  CHECK_FALSE(m.phasesKnown);
  // Thread 0 initialised the barriers, which makes no role of its own;
  // threads 33-63 only pass the CTA barrier. Warp 0 is the role tree's
  // "consumer" (its branch), thread 32 a thread of no role of the tree.
  REQUIRE(m.roles.size() == 2);
  CHECK(m.roles[0].name == "consumer");
  CHECK(m.roles[1].name == "thread 32");
  CHECK(m.roles[0].loopSteps() == 5);
  CHECK(mentions({m.assumptions}, "threads 33-63 only pass the CTA barriers"));
  REQUIRE(m.barriers.size() == 3);
  CHECK(m.barriers[0].count == 1);
  CHECK(m.barriers[1].count == 32);
  CHECK(m.barriers[2].name == "bar.sync");
  CHECK(m.barriers[2].count == 33);
  sim::Timeline t = sim::simulate(m);
  INFO(llvm::join(t.verdict.findings, "\n"));
  CHECK(t.verdict.completes);
  CHECK(t.verdict.findings.empty());
  // The consumer's waits are numbered by its loop's iterations.
  int64_t lastStep = -1;
  for (const sim::Event &e : t.lanes[0])
    if (e.kind == sim::Event::Kind::Wait &&
        e.label.find("bar.sync") == std::string::npos)
      lastStep = std::max(lastStep, e.step);
  CHECK(lastStep == 4);
}

TEST_CASE("nvgpu protocol: a count no role fills deadlocks",
          "[nvgpu-protocol]") {
  // full expects two arrivals per phase; one producer thread gives one.
  sim::ProtocolModel m = readKernel(ringKernel("2")).models.at(0);
  sim::Timeline t = sim::simulate(m);
  CHECK_FALSE(t.verdict.completes);
  REQUIRE_FALSE(t.verdict.blocked.empty());
  CHECK(t.verdict.blocked[0].role == "consumer");
  CHECK(t.verdict.blocked[0].waiting);
  CHECK(t.verdict.blocked[0].pendingArrivals == 1);
  CHECK(mentions(t.verdict.findings, "arrivals over the run (thread 32 3) "
                                     "are not a multiple of its count 2"));
}

TEST_CASE("nvgpu protocol: a warp arriving where one thread should",
          "[nvgpu-protocol]") {
  // tid >= 32: the whole second warp produces, 32 arrivals on a barrier
  // initialised for 1.
  sim::ProtocolModel m = readKernel(ringKernel("1", "uge")).models.at(0);
  REQUIRE(m.roles.size() == 2);
  // Named as the Warp roles pane names the branches (a role with neither
  // copies nor MMAs reads as a consumer there: "consumer 2" and
  // "consumer").
  CHECK(m.roles[0].name == "consumer 2");
  CHECK(m.roles[1].name == "consumer");
  sim::Timeline t = sim::simulate(m);
  CHECK_FALSE(t.verdict.completes);
  CHECK(t.verdict.protocolError);
  CHECK(mentions(t.verdict.findings, "which already has its 1 arrival"));
}

TEST_CASE("nvgpu protocol: what cannot be modelled says why",
          "[nvgpu-protocol]") {
  SECTION("a loop bound from an argument nothing names") {
    Read read = readKernel(ringKernel("1", "eq", "%steps"));
    CHECK(read.models.empty());
    CHECK(mentions(read.notes, "@ring: the barrier protocol is unknown"));
    CHECK(mentions(read.notes, "the loop's upper bound is not known: it is "
                               "kernel argument #0"));
    CHECK(mentions(read.notes, "(IR line"));
  }
  SECTION("a barrier never initialised") {
    Read read = readKernel(ringKernel("1", "eq", "%c5", "", false));
    CHECK(read.models.empty());
    CHECK(mentions(read.notes, "is used but never initialised"));
  }
}

TEST_CASE("nvgpu protocol: klx.launch names the depth argument",
          "[nvgpu-protocol]") {
  std::string launch = R"(, klx.launch = {block = array<i64: 64, 1, 1>,
      params = [{name = "k_tiles", kind = "scalar"}]})";
  Read read = readKernel(ringKernel("1", "eq", "%steps", launch));
  INFO(llvm::join(read.notes, "\n"));
  REQUIRE(read.models.size() == 1);
  // Twice round the ring of 2, plus one: 5 k steps.
  CHECK(read.models[0].roles[0].loopSteps() == 5);
  CHECK(mentions({read.models[0].assumptions}, "k_tiles = 5"));
  CHECK(sim::simulate(read.models[0]).verdict.completes);
}

TEST_CASE("nvgpu protocol: the hand-written TMA + wgmma sample",
          "[nvgpu-protocol]") {
  Read read =
      readKernel(test::readSource("samples/nvidia/gemm_tma_wgmma.mlir"));
  REQUIRE(read.models.size() == 1);
  const sim::ProtocolModel &m = read.models.front();
  REQUIRE(m.roles.size() == 2);
  CHECK(m.roles[0].name == "thread 0");
  CHECK(m.roles[1].name == "threads 1-127");
  sim::Timeline t = sim::simulate(m);
  CHECK(t.verdict.completes);
  CHECK(t.verdict.findings.empty());
  // Thread 0 announces 32 KB per k step and its three copies deliver it.
  int64_t announced = 0, copied = 0;
  for (const sim::Op &op : m.roles[0].body) {
    if (op.kind == sim::OpKind::ArriveExpectTx)
      announced += op.bytes;
    if (op.kind == sim::OpKind::Copy)
      copied += op.bytes;
  }
  CHECK(announced == 5 * 32768);
  CHECK(copied == announced);
}

TEST_CASE("nvgpu protocol: the Barrier timeline pane's view of the sample",
          "[nvgpu-protocol]") {
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  std::string path = "samples/nvidia/gemm_tma_wgmma.mlir";
  PipelineRun run = runPipeline(test::readSource(path), path, options);
  REQUIRE(run.succeeded());
  // Read at parse: convert-nvgpu-to-nvvm, the next step, lowers the ops.
  REQUIRE(run.timelineStep() == 0);
  app::TimelineViews views = app::buildTimelineViews(run);
  REQUIRE(views.views.size() == 1);
  const app::TimelineView &view = views.pick("");
  CHECK(view.unavailable.empty());
  CHECK(view.readFrom == "nvgpu ops");
  CHECK(view.kernel == "gemm_tma_wgmma");
  REQUIRE(view.lanes.size() == 2);
  CHECK(view.lanes[0].role == "thread 0");
  CHECK(view.verdict.completes);
}

TEST_CASE("nvgpu protocol: a value from memory is not reused from an "
          "earlier iteration",
          "[nvgpu-protocol]") {
  // The slot comes from memory after the first k step: the run must stop
  // there, not wait on the slot the first step computed.
  const char *source = R"(
!g = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stale(%slots: memref<4xindex>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %timeout = arith.constant 1000000 : index
      %tid = gpu.thread_id x
      %g = nvgpu.mbarrier.create -> !g
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %g[%c0], %c1 : !g
        nvgpu.mbarrier.init %g[%c1], %c1 : !g
      }
      gpu.barrier
      %last = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %c0) -> (index) {
        %slot = arith.remui %s, %c2 : index
        nvgpu.mbarrier.try_wait.parity %g[%slot], %false, %timeout : !g
        %next = memref.load %slots[%k] : memref<4xindex>
        scf.yield %next : index
      }
      gpu.return
    }
  }
}
)";
  Read read = readKernel(source);
  CHECK(read.models.empty());
  INFO(llvm::join(read.notes, "\n"));
  CHECK(mentions(read.notes, "the mbarrier index is not known"));
}
