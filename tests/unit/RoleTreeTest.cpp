//===- RoleTreeTest.cpp - The warp-role tree and its checks ---------------===//

#include "TestSupport.h"

#include "klx/Analysis/RoleTree/RoleTree.h"
#include "klx/Analysis/RoleTree/RoleTreeFormat.h"
#include "klx/Pipeline/Compiler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"

using namespace klx;

namespace {

/// A hand-written kernel of `threads` threads whose body is `body`; `attrs`
/// are extra gpu.func attributes. %tid, %wg (tid / 128), %warp (tid / 32),
/// %lane (tid % 32) and %bar (two mbarriers) are defined for the body.
std::string kernel(const std::string &body, unsigned threads = 384,
                   const std::string &attrs = ", nvvm.minctasm = 1 : i32") {
  return "!bar = !nvgpu.mbarrier.group<memorySpace = "
         "#gpu.address_space<workgroup>, num_barriers = 2>\n"
         "module attributes {gpu.container_module} {\n"
         "gpu.module @m {\n"
         "gpu.func @k() kernel attributes {known_block_size = array<i32: " +
         std::to_string(threads) + ", 1, 1>" + attrs +
         "} {\n"
         "  %c0 = arith.constant 0 : index\n"
         "  %c1 = arith.constant 1 : index\n"
         "  %c2 = arith.constant 2 : index\n"
         "  %c32 = arith.constant 32 : index\n"
         "  %c128 = arith.constant 128 : index\n"
         "  %ticks = arith.constant 1000 : index\n"
         "  %false = arith.constant false\n"
         "  %tid = gpu.thread_id x\n"
         "  %wg = arith.divui %tid, %c128 : index\n"
         "  %warp = arith.divui %tid, %c32 : index\n"
         "  %lane = arith.remui %tid, %c32 : index\n"
         "  %bar = nvgpu.mbarrier.create -> !bar\n" +
         body +
         "  gpu.return\n"
         "}\n}\n}\n";
}

/// A role split on warpgroup 2: the producer (one elected thread issues a
/// wait and an expect_tx) and the consumers (wait, arrive).
const std::string kProducerConsumer =
    "  %isProducer = arith.cmpi eq, %wg, %c2 : index\n"
    "  scf.if %isProducer {\n"
    "    nvvm.setmaxregister decrease 40\n"
    "    %one = arith.remui %tid, %c128 : index\n"
    "    %lead = arith.cmpi eq, %one, %c0 : index\n"
    "    scf.if %lead {\n"
    "      nvgpu.mbarrier.try_wait.parity %bar[%c1], %false, %ticks : !bar\n"
    "      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %c128 : !bar\n"
    "    }\n"
    "  } else {\n"
    "    nvvm.setmaxregister increase 232\n"
    "    nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !bar\n"
    "    %t = nvgpu.mbarrier.arrive %bar[%c1] : !bar -> "
    "!nvgpu.mbarrier.token\n"
    "  } {klx.roles = [\"producer\", \"consumer\"]}\n";

std::vector<RoleTree> analyze(const std::string &source) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, context.get());
  REQUIRE(module);
  return analyzeRoles(module->getOperation());
}

const Role &roleNamed(const RoleTree &tree, const std::string &name) {
  for (const Role &role : tree.roles)
    if (role.name == name)
      return role;
  FAIL("no role named " << name);
  return tree.roles.front();
}

std::string checkText(const RoleTree &tree) {
  std::vector<std::string> lines;
  for (const RoleCheck &check : tree.checks)
    lines.push_back(severityName(check.severity).str() + ": " + check.message);
  return llvm::join(lines, "\n");
}

} // namespace

TEST_CASE("registers at entry follow .maxntid and .minnctapersm", "[roles]") {
  CHECK(registerCapAtEntry(384, 1) == 168);
  CHECK(registerCapAtEntry(256, 1) == 255 / 8 * 8);
  CHECK(registerCapAtEntry(128, 2) == 248);
  CHECK(registerCapAtEntry(0, 1) == 0);
}

TEST_CASE("a warpgroup branch splits roles; tid == 0 only elects", "[roles]") {
  std::vector<RoleTree> trees = analyze(kernel(kProducerConsumer));
  REQUIRE(trees.size() == 1);
  const RoleTree &tree = trees.front();
  CHECK(tree.form == "thread-index branches");
  CHECK(tree.threads == 384);
  CHECK(tree.registersAtEntry == 168);
  REQUIRE(tree.roles.size() == 2);
  const Role &producer = roleNamed(tree, "producer");
  const Role &consumer = roleNamed(tree, "consumer");
  CHECK(producer.warps == std::vector<unsigned>{8, 9, 10, 11});
  CHECK(producer.activeThreads == 1);
  CHECK(producer.regs == 40u);
  CHECK_FALSE(producer.regsIncrease);
  CHECK(consumer.warps.size() == 8);
  CHECK(consumer.activeThreads == 256);
  CHECK(consumer.regs == 232u);
  CHECK(threadRanges(consumer.warps, tree.threads) == "0-255");
  REQUIRE(tree.warpgroups.size() == 3);
  CHECK(tree.warpgroups[2].regs == 40);
  CHECK(tree.warpgroups[2].warps[0].activeThreads == 1);
  CHECK(tree.warpgroups[2].warps[1].activeThreads == 0);
  CHECK(tree.registerTotal == 128 * 232 * 2 + 128 * 40);
  INFO(checkText(tree));
  CHECK(tree.checks.empty());
}

TEST_CASE("more registers than the register file is an error", "[roles]") {
  std::string body = kProducerConsumer;
  body.replace(body.find("increase 232"), 12, "increase 240");
  RoleTree tree = analyze(kernel(body)).front();
  CHECK(tree.registerTotal == 128 * 240 * 2 + 128 * 40);
  CHECK(tree.hasErrors());
  CHECK_THAT(checkText(tree), Catch::Contains("66560 registers, more than "
                                              "the 65536"));
}

TEST_CASE("setmaxnreg without a register cap at entry is ignored by ptxas",
          "[roles]") {
  RoleTree tree = analyze(kernel(kProducerConsumer, 384, "")).front();
  CHECK(tree.registersAtEntry == 0);
  CHECK_THAT(checkText(tree), Catch::Contains("C7508"));
}

TEST_CASE("setmaxnreg run by part of a warpgroup is an error", "[roles]") {
  std::string body = "  %one = arith.cmpi eq, %tid, %c0 : index\n"
                     "  scf.if %one {\n"
                     "    nvvm.setmaxregister increase 240\n"
                     "  }\n";
  RoleTree tree = analyze(kernel(body, 128)).front();
  CHECK(tree.form == "single role");
  CHECK_THAT(checkText(tree),
             Catch::Contains("run by 1 of the 128 threads of warpgroup 0"));
}

TEST_CASE("a wait no role arrives on is reported", "[roles]") {
  // The consumers no longer arrive on the empty barrier (index 1).
  std::string body = kProducerConsumer;
  size_t start = body.find("    %t = nvgpu.mbarrier.arrive");
  size_t end = body.find("token\n", start) + 6;
  body.erase(start, end - start);
  RoleTree tree = analyze(kernel(body)).front();
  INFO(body);
  CHECK_THAT(
      checkText(tree),
      Catch::Contains("role 'producer' waits on barrier 'mbarrier@16[1]'"));
}

TEST_CASE("a warp branch inside a role makes sub-roles", "[roles]") {
  // Two producer warps in warpgroup 1: warp 4 and warp 5, one elected
  // thread each. 256 threads start with 248 registers.
  std::string body =
      "  %isProducer = arith.cmpi eq, %wg, %c1 : index\n"
      "  scf.if %isProducer {\n"
      "    nvvm.setmaxregister decrease 40\n"
      "    %first = arith.cmpi eq, %lane, %c0 : index\n"
      "    %c160 = arith.constant 160 : index\n"
      "    %c192 = arith.constant 192 : index\n"
      "    %a = arith.cmpi ult, %tid, %c160 : index\n"
      "    scf.if %a {\n"
      "      scf.if %first {\n"
      "        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %c128 : !bar\n"
      "      }\n"
      "    } else {\n"
      "      %b = arith.cmpi ult, %tid, %c192 : index\n"
      "      scf.if %b {\n"
      "        scf.if %first {\n"
      "          nvgpu.mbarrier.arrive.expect_tx %bar[%c1], %c128 : !bar\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "  } else {\n"
      "    nvvm.setmaxregister increase 248\n"
      "    nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !bar\n"
      "  }\n";
  RoleTree tree =
      analyze(kernel(body, 256, ", nvvm.minctasm = 1 : i32")).front();
  INFO(checkText(tree));
  // warpgroup 1 (the producer), its warp 4 (A), warps 5-7 (B's branch,
  // where only warp 5 works), warpgroup 0 (consumer).
  REQUIRE(tree.roles.size() >= 3);
  const Role &top = tree.roles[0];
  CHECK(top.warps == std::vector<unsigned>{4, 5, 6, 7});
  CHECK(top.regs == 40u);
  int children = 0;
  for (const Role &role : tree.roles)
    if (role.parent == 0)
      ++children;
  CHECK(children == 2);
  const WarpgroupNode &producerGroup = tree.warpgroups[1];
  CHECK(producerGroup.regs == 40);
  CHECK(producerGroup.warps[0].activeThreads == 1);
  CHECK(producerGroup.warps[1].activeThreads == 1);
  CHECK(producerGroup.warps[2].activeThreads == 0);
  // Sub-roles take the budget of the role around them.
  CHECK(tree.registerTotal == 128 * 40 + 128 * 248);
  CHECK(tree.roles[1].name == "warp 4");
}

TEST_CASE("conditions on the block index are not role splits", "[roles]") {
  std::string body = "  %b = gpu.block_id x\n"
                     "  %c = arith.cmpi eq, %b, %c0 : index\n"
                     "  scf.if %c {\n"
                     "    nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %c128 : "
                     "!bar\n"
                     "  }\n";
  RoleTree tree = analyze(kernel(body, 128)).front();
  CHECK(tree.form == "single role");
  REQUIRE(tree.roles.size() == 1);
  CHECK(tree.roles[0].activeThreads == 128);
}

TEST_CASE("the warp-specialized sample has its roles at every step from "
          "klx-warp-specialize until scf is lowered",
          "[roles]") {
  std::string path = "samples/nvidia/gemm_ws_persistent.mlir";
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  PipelineRun run = runPipeline(test::readSource(path), path, options);
  REQUIRE(run.succeeded());
  const Snapshot *parse = run.findSnapshot("parse");
  REQUIRE(parse);
  CHECK(parse->facts.roles.empty());
  for (const char *step : {"klx-warp-specialize", "klx-circular-buffer",
                           "klx-to-nvgpu", "convert-nvgpu-to-nvvm"}) {
    INFO(step);
    const Snapshot *s = run.findSnapshot(step);
    REQUIRE(s);
    REQUIRE(s->facts.roles.size() == 1);
    const RoleTree &tree = s->facts.roles.front();
    CHECK(roleNamed(tree, "producer").regs == 40u);
    CHECK(roleNamed(tree, "consumer").regs == 232u);
    CHECK(roleNamed(tree, "producer").activeThreads == 1);
    CHECK(tree.registerTotal == 64512);
    INFO(checkText(tree));
    CHECK_FALSE(tree.hasErrors());
  }
  const Snapshot *buffered = run.findSnapshot("klx-circular-buffer");
  const Role &consumer = roleNamed(buffered->facts.roles.front(), "consumer");
  std::string barriers;
  for (const BarrierUse &use : consumer.barriers)
    barriers += barrierActionName(use.action).str() + " " + use.barrier + ";";
  CHECK(barriers == "wait full;arrive empty;");
  // The role's ops point into the snapshot's text.
  unsigned mmaLine = 0;
  for (const RoleOpRef &op : consumer.ops)
    if (op.name == "klx.mma")
      mmaLine = op.irLine;
  REQUIRE(mmaLine != 0);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(buffered->text).split(lines, '\n');
  CHECK(lines[mmaLine - 1].contains("klx.mma"));
  const Snapshot *cf = run.findSnapshot("convert-scf-to-cf");
  REQUIRE(cf);
  CHECK(cf->facts.roles.empty());
}

TEST_CASE("two producers sharing one full barrier are caught before "
          "anything runs",
          "[roles]") {
  std::string path = "samples/nvidia/gemm_two_producers.mlir";
  for (bool shared : {false, true}) {
    INFO("shared_full_barrier = " << shared);
    CompileOptions options;
    options.emitGoal = EmitKind::MLIR;
    options.defines = {{"shared_full_barrier", shared ? "1" : "0"}};
    PipelineRun run = runPipeline(test::readSource(path), path, options);
    REQUIRE(run.succeeded());
    for (const char *step : {"klx-circular-buffer", "klx-to-nvgpu"}) {
      INFO(step);
      const Snapshot *s = run.findSnapshot(step);
      REQUIRE(s);
      REQUIRE(s->facts.roles.size() == 1);
      const RoleTree &tree = s->facts.roles.front();
      CHECK(roleNamed(tree, "producer_a").warps == std::vector<unsigned>{8});
      CHECK(roleNamed(tree, "producer_b").warps == std::vector<unsigned>{9});
      CHECK(tree.registerTotal == 64512);
      std::string checks = checkText(tree);
      INFO(checks);
      if (!shared) {
        CHECK(tree.checks.empty());
        CHECK(tree.expectedArrivals.at("full_a") == 1);
        CHECK(tree.expectedArrivals.at("empty_b") == 256);
        continue;
      }
      CHECK(tree.hasErrors());
      CHECK_THAT(checks, Catch::Contains("barrier 'full' is initialised for "
                                         "1 arrival per phase, but "
                                         "producer_a and producer_b arrive "
                                         "on it: 2 per phase"));
    }
  }
}

TEST_CASE("conditions are evaluated at their bit width", "[roles]") {
  // `not` as xori with true (i1 -1 must not leak into the lanes), an i32
  // thread index, and an unsigned compare of a wrapped subtraction.
  std::string body =
      "  %true = arith.constant true\n"
      "  %isProducer = arith.cmpi eq, %wg, %c2 : index\n"
      "  %isConsumer = arith.xori %isProducer, %true : i1\n"
      "  scf.if %isConsumer {\n"
      "    nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !bar\n"
      "  } else {\n"
      "    %t32 = arith.index_cast %tid : index to i32\n"
      "    %c256 = arith.constant 256 : i32\n"
      "    %off = arith.subi %t32, %c256 : i32\n"
      "    %c1_i32 = arith.constant 1 : i32\n"
      "    %first = arith.cmpi ult, %off, %c1_i32 : i32\n"
      "    scf.if %first {\n"
      "      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %c128 : !bar\n"
      "    }\n"
      "  }\n";
  RoleTree tree = analyze(kernel(body)).front();
  INFO(checkText(tree));
  REQUIRE(tree.roles.size() == 2);
  CHECK(tree.roles[0].warps.size() == 8); // then: the consumers
  CHECK(tree.roles[1].warps == std::vector<unsigned>{8, 9, 10, 11});
  CHECK(tree.roles[1].activeThreads == 1); // only thread 256
  CHECK_FALSE(tree.hasErrors());
}

TEST_CASE("block sizes the hardware cannot run give no tree", "[roles]") {
  CHECK(analyze(kernel("", 2048)).empty());
  std::string huge =
      kernel("", 128, ", nvvm.minctasm = 65536 : i32"); // no overflow
  REQUIRE(analyze(huge).size() == 1);
  CHECK(analyze(huge).front().registersAtEntry == 0);
}

TEST_CASE("ping-pong consumers take turns: one arriver per phase on the "
          "barriers they share",
          "[roles]") {
  std::string path = "samples/nvidia/gemm_pingpong.mlir";
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  PipelineRun run = runPipeline(test::readSource(path), path, options);
  REQUIRE(run.succeeded());
  for (const char *step : {"klx-circular-buffer", "klx-to-nvgpu"}) {
    INFO(step);
    const Snapshot *s = run.findSnapshot(step);
    REQUIRE(s);
    REQUIRE(s->facts.roles.size() == 1);
    const RoleTree &tree = s->facts.roles.front();
    INFO(checkText(tree));
    CHECK(tree.checks.empty());
    CHECK(roleNamed(tree, "consumer0").warps ==
          std::vector<unsigned>{0, 1, 2, 3});
    CHECK(roleNamed(tree, "consumer1").warps ==
          std::vector<unsigned>{4, 5, 6, 7});
    CHECK(tree.expectedArrivals.at("turn") == 128);
    CHECK(tree.expectedArrivals.at("empty") == 128);
    std::string turns;
    for (const BarrierUse &use : roleNamed(tree, "consumer1").barriers)
      if (use.barrier == "turn")
        turns +=
            barrierActionName(use.action).str() + " " + use.displayName() + ";";
    CHECK(turns == "wait turn[1];arrive turn[0];");
  }
  // Cooperative consumers both release every stage, so there the pipeline
  // expects both warpgroups.
  CompileOptions cooperative = options;
  cooperative.defines = {{"pingpong", "0"}};
  PipelineRun coop = runPipeline(test::readSource(path), path, cooperative);
  REQUIRE(coop.succeeded());
  const RoleTree &tree = coop.findSnapshot("klx-to-nvgpu")->facts.roles.front();
  CHECK(tree.expectedArrivals.at("empty") == 256);
  CHECK(tree.checks.empty());
}
