//===- StepsTest.cpp - Ordered steps and the gather they lead to ----------===//
//
// The steps of the gather samples as the pipeline records them, the bridge
// that -D bridge_steps=1 adds, and everything klx-run does with a gather
// bundle before the driver: the manifest, sizes, arguments, the grid, the
// inputs and the reference.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Export/Bundle.h"
#include "klx/Pipeline/Compiler.h"
#include "views/StepsView.h"

#include "klx/Runtime/HostMath.h"
#include "klx/Runtime/Launch.h"
#include "klx/Runtime/Manifest.h"

using namespace klx;

namespace {

PipelineRun
compileGather(const std::string &name,
              std::vector<std::pair<std::string, std::string>> defines = {},
              EmitKind goal = EmitKind::MLIR) {
  CompileOptions options;
  options.emitGoal = goal;
  options.defines = std::move(defines);
  std::string path = "samples/nvidia/" + name + ".mlir";
  return runPipeline(test::readSource(path), path, options);
}

const KernelSteps &stepsAtDefault(const PipelineRun &run) {
  int index = run.stepsStep();
  REQUIRE(index >= 0);
  REQUIRE(run.snapshots[index].facts.steps.size() == 1);
  return run.snapshots[index].facts.steps.front();
}

} // namespace

TEST_CASE("steps: the indirect gather needs two, the direct one one",
          "[steps]") {
  PipelineRun indirect = compileGather("gather_indirect");
  REQUIRE(indirect.succeeded());
  const KernelSteps &two = stepsAtDefault(indirect);
  REQUIRE(two.steps.size() == 2);
  CHECK(two.steps[0].shape() == "load -> compute");
  CHECK(two.steps[1].shape() == "load -> compute -> store");
  CHECK(two.steps[0].why.empty());
  CHECK(two.steps[1].why.find("takes its address from data") !=
        std::string::npos);
  REQUIRE(two.crossings.size() == 1);
  CHECK(two.crossings[0].op == "arith.index_cast");
  CHECK(two.crossings[0].from == 0);
  CHECK(two.crossings[0].to == 1);

  PipelineRun direct = compileGather("gather_direct");
  const KernelSteps &one = stepsAtDefault(direct);
  REQUIRE(one.steps.size() == 1);
  CHECK(one.steps[0].shape() == "load -> compute -> store");
  CHECK(one.crossings.empty());
}

TEST_CASE("steps: bridged, the offset crosses through shared memory",
          "[steps]") {
  PipelineRun run = compileGather("gather_indirect", {{"bridge_steps", "1"}});
  REQUIRE(run.succeeded());
  REQUIRE(run.findSnapshot("klx-bridge-steps"));
  const KernelSteps &bridged = stepsAtDefault(run);
  REQUIRE(bridged.steps.size() == 2);
  CHECK(bridged.crossings.empty());
  CHECK(bridged.steps[0].has(StepRole::BridgeOut));
  CHECK(bridged.steps[1].has(StepRole::BridgeIn));
  CHECK(bridged.steps[1].why.find("gpu.barrier") != std::string::npos);
  // Before the pass the same run still shows the crossing.
  const Snapshot *input = &run.snapshots.front();
  REQUIRE(input->facts.steps.size() == 1);
  CHECK(input->facts.steps.front().crossings.size() == 1);
}

TEST_CASE("steps: a klx tile program is one load -> compute -> store step",
          "[steps]") {
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  std::string path = "samples/nvidia/gemm_ws_persistent.mlir";
  PipelineRun run = runPipeline(test::readSource(path), path, options);
  const Snapshot *schedule = run.findSnapshot("klx-materialize-schedule");
  REQUIRE(schedule);
  REQUIRE(schedule->facts.steps.size() == 1);
  const KernelSteps &gemm = schedule->facts.steps.front();
  REQUIRE(gemm.steps.size() == 1);
  CHECK(gemm.steps[0].shape() == "load -> compute -> store");
}

TEST_CASE("gather bundles: launch facts, sizes and the manifest",
          "[steps][bundle]") {
  PipelineRun run = compileGather("gather_indirect", {}, EmitKind::Cubin);
  REQUIRE(run.succeeded());
  llvm::Expected<BundleContents> bundle = bundleFromRun(run);
  REQUIRE(bool(bundle));
  const KernelLaunch &launch = bundle->launch;
  REQUIRE(launch.gather);
  CHECK(launch.gather->indirect);
  CHECK(launch.gather->offset == 2);
  CHECK(launch.gather->add == 1);
  CHECK(bundle->problem.isGather());
  CHECK(bundle->problem.m == kDefaultGatherSize.m);
  CHECK(checkProblemSize(launch, "sm_90a", {4096, 0, 0}).empty());
  CHECK(checkProblemSize(launch, "sm_90a", {4000, 0, 0}) ==
        "4000: N must be a positive multiple of the block (256 threads, one "
        "element each; the kernel does not mask)");
  CHECK(checkProblemSize(launch, "sm_90a", {64, 64, 64}) ==
        "64x64x64: @gather_indirect is a gather; give its element count N");
  CHECK(parseProblemSize("4096")->isGather());
  CHECK_FALSE(parseProblemSize("-4"));

  // What klx export writes, klx-run reads back.
  bundle->problem = {4096, 0, 0};
  std::string error;
  std::optional<rt::Manifest> manifest =
      rt::parseManifest(bundleManifest(*bundle), error);
  INFO(error);
  REQUIRE(manifest);
  REQUIRE(manifest->gather);
  CHECK(manifest->gather->formula() == "y[i] = x[idx[i] + 2] + 1");
  CHECK(manifest->problem.m == 4096);
  // The text's digest, XXH3-64 (of nothing it is XXH3's published value).
  CHECK(manifest->sourceDigest == sourceDigest(run.source));
  CHECK(sourceDigest("") == "xxh3:2d06800538d394c2");
  CHECK(sourceDigest(run.source + " ") != manifest->sourceDigest);
}

TEST_CASE("gather bundles: klx-run's checks, arguments and reference",
          "[steps][runtime]") {
  PipelineRun run = compileGather("gather_indirect", {}, EmitKind::Cubin);
  llvm::Expected<BundleContents> bundle = bundleFromRun(run);
  REQUIRE(bool(bundle));
  std::string text = bundleManifest(*bundle), error;
  rt::Manifest m = *rt::parseManifest(text, error);

  CHECK(rt::checkProblemSize(m, {512, 0, 0}).empty());
  // klx-run says what klx export says: one check, BundleFormat.h's.
  for (ProblemSize size : {ProblemSize{500, 0, 0}, ProblemSize{512, 512, 512},
                           ProblemSize{1 << 31, 0, 0}})
    CHECK(rt::checkProblemSize(m, size) ==
          checkProblemSize(bundle->launch, bundle->target, size));
  CHECK(rt::checkProblemSize(m, {500, 0, 0}) ==
        "500: N must be a positive multiple of the block (256 threads, one "
        "element each; the kernel does not mask)");
  CHECK(rt::checkProblemSize(m, {512, 512, 512}) ==
        "512x512x512: @gather_indirect is a gather; give its element count N");
  CHECK(rt::gridFor(m, {1024, 0, 0}, 132) == std::array<unsigned, 3>{4, 1, 1});

  rt::DeviceOperands operands;
  operands.idx = 0x100;
  operands.x = 0x200;
  operands.y = 0x300;
  rt::PackedArguments packed = rt::packArguments(m, {1024, 0, 0}, operands);
  REQUIRE(packed.values.size() == 15);
  // idx (N), x (N + offset), y (N): allocated, aligned, offset, size, stride.
  std::vector<uint64_t> expected = {0x100, 0x100, 0, 1024, 1,
                                    0x200, 0x200, 0, 1026, 1,
                                    0x300, 0x300, 0, 1024, 1};
  CHECK(packed.values == expected);

  std::vector<int32_t> idx;
  std::vector<float> x;
  rt::randomGatherInputs(*m.gather, 1024, idx, x);
  REQUIRE(idx.size() == 1024);
  REQUIRE(x.size() == 1026);
  CHECK(std::all_of(idx.begin(), idx.end(),
                    [](int32_t i) { return i >= 0 && i < 1024; }));
  // Not the identity: the gather reads out of order.
  CHECK(std::count_if(idx.begin(), idx.end(),
                      [&](int32_t i) { return i != idx[0]; }) > 900);
  std::vector<float> y = rt::gatherReference(*m.gather, idx, x, 1024);
  CHECK(y[5] == x[idx[5] + 2] + 1.0f);

  // Hand-edited manifests say which field is wrong.
  auto broken = [&](const std::string &from, const std::string &to) {
    std::string edited = text;
    size_t at = edited.find(from);
    REQUIRE(at != std::string::npos);
    edited.replace(at, from.size(), to);
    std::string why;
    CHECK_FALSE(rt::parseManifest(edited, why));
    return why;
  };
  CHECK(broken("\"index\": \"idx\"", "\"index\": \"j\"") ==
        "manifest.json: problem.index must be \"idx\" (x[idx[i] + offset]) or "
        "\"i\" (x[i + offset]), got \"j\"");
  CHECK(broken("\"grid\": \"elements\"", "\"grid\": \"tiles\"") ==
        "manifest.json: grid must be \"elements\" for a gather");
  CHECK(broken("\"dtype\": \"i32\"", "\"dtype\": \"f32\"") ==
        "manifest.json: params has no i32 memref of rank 1 named idx (a "
        "gather y[i] = x[idx[i] + 2] + 1 needs it)");
}

TEST_CASE("Steps pane: follows the selected pass, else the default step",
          "[steps][app]") {
  PipelineRun run =
      compileGather("gather_indirect", {{"bridge_steps", "1"}}, EmitKind::PTX);
  int bridge = -1, last = int(run.snapshots.size()) - 1;
  for (int i = 0; i < int(run.snapshots.size()); ++i)
    if (run.snapshots[i].name == "klx-bridge-steps")
      bridge = i;
  REQUIRE(bridge > 0);
  app::StepsView atBridge = app::buildStepsView(run, bridge);
  CHECK(atBridge.followsSelection);
  CHECK(atBridge.step == bridge);
  REQUIRE(atBridge.kernels.size() == 1);
  const app::KernelStepsView &kernel = atBridge.kernels.front();
  REQUIRE(kernel.columns.size() == 2);
  CHECK(kernel.columns[0].title == "step 1: load -> compute -> store");
  CHECK(kernel.crossings.empty());
  // The shared store is the last row of step 1, at the line of its value.
  const app::StepsRow &out = kernel.columns[0].rows.back();
  CHECK(out.role == StepRole::BridgeOut);
  CHECK(app::sectionOf(out.role) == app::StepsSection::Store);
  CHECK(out.label.find("memref.store") == 0);
  CHECK(out.sourceLine > 0);

  // The PTX step has no body to read: the default step instead.
  REQUIRE(run.snapshots[last].name == "ptx");
  app::StepsView atEnd = app::buildStepsView(run, last);
  CHECK_FALSE(atEnd.followsSelection);
  CHECK(atEnd.step == run.stepsStep());
}
