//===- ComparisonTest.cpp - Two variants of a kernel ----------------------===//

#include "TestSupport.h"

#include "klx/Pipeline/Comparison.h"
#include "klx/Pipeline/Compiler.h"

using namespace klx;

namespace {

PipelineRun compile(const std::string &path, Defines defines,
                    EmitKind goal = EmitKind::Cubin) {
  CompileOptions options;
  options.emitGoal = goal;
  options.defines = std::move(defines);
  return runPipeline(test::readSource(path), path, options);
}

const ComparisonRow *row(const Comparison &c, const std::string &group,
                         const std::string &name) {
  for (const ComparisonRow &r : c.rows)
    if (r.group == group && r.name == name)
      return &r;
  return nullptr;
}

} // namespace

TEST_CASE("comparison: variants are -D values or a file", "[compare]") {
  std::string error;
  std::optional<VariantSpec> d =
      parseVariantSpec("stages=2, consumers=1", error);
  REQUIRE(d);
  CHECK(d->file.empty());
  CHECK(d->defines == Defines{{"stages", "2"}, {"consumers", "1"}});
  std::optional<VariantSpec> f =
      parseVariantSpec("samples/nvidia/gather_direct.mlir", error);
  REQUIRE(f);
  CHECK(f->file == "samples/nvidia/gather_direct.mlir");
  CHECK(f->defines.empty());
  CHECK_FALSE(parseVariantSpec("  ", error));
  CHECK_FALSE(parseVariantSpec("stages=2,=3", error));
  CHECK(error == "'=3' in variant 'stages=2,=3' is not NAME=VALUE");
  // The variant's values win over the base's, the rest stay.
  CHECK(applyVariant({{"stages", "4"}, {"dtype", "bf16"}}, *d) ==
        Defines{{"stages", "2"}, {"dtype", "bf16"}, {"consumers", "1"}});
}

TEST_CASE("comparison: two stage counts of the warp-specialized GEMM",
          "[compare]") {
  std::string path = "samples/nvidia/gemm_ws_persistent.mlir";
  PipelineRun a = compile(path, {{"stages", "2"}});
  PipelineRun b = compile(path, {{"stages", "4"}});
  REQUIRE(a.succeeded());
  REQUIRE(b.succeeded());
  Comparison c = compareRuns(a, b, "stages=2", "stages=4");
  CHECK(c.step == "klx-to-nvgpu");
  CHECK(c.stepA >= 0);
  CHECK(c.stepB >= 0);
  CHECK(c.irLinesB > c.irLinesA); // two more stages of barriers
  CHECK(c.irAdded > 0);

  const ComparisonRow *smem = row(c, "launch", "dynamic shared memory (@gemm)");
  REQUIRE(smem);
  CHECK(smem->a == "133120 bytes");
  CHECK(smem->b == "231424 bytes");
  CHECK(smem->differs());
  const ComparisonRow *regs = row(c, "resources", "registers (@gemm)");
  REQUIRE(regs);
  CHECK_FALSE(regs->differs());
  const ComparisonRow *waits = row(c, "timeline", "waits, consumer (@gemm)");
  REQUIRE(waits);
  CHECK(waits->differs());
  const ComparisonRow *roles = row(c, "roles", "role producer (@gemm)");
  REQUIRE(roles);
  CHECK(roles->a == "threads 256-383, 1 active, setmaxnreg.dec 40");
  CHECK(row(c, "ptx", "wgmma.mma_async"));
  CHECK(c.differing() > 0);
  CHECK(c.differing() < c.rows.size());
  // Groups stay together, in a fixed order.
  CHECK(c.rows.front().group == "status");
  CHECK(c.rows.back().group == "steps");
}

TEST_CASE("comparison: a deadlocking variant and a second file", "[compare]") {
  std::string path = "samples/nvidia/gemm_two_producers.mlir";
  PipelineRun sound = compile(path, {}, EmitKind::MLIR);
  PipelineRun shared =
      compile(path, {{"shared_full_barrier", "1"}}, EmitKind::MLIR);
  Comparison c =
      compareRuns(sound, shared, "as given", "shared_full_barrier=1");
  const ComparisonRow *verdict = row(c, "timeline", "verdict (@gemm)");
  REQUIRE(verdict);
  CHECK(llvm::StringRef(verdict->a).starts_with("completes in"));
  CHECK(verdict->b == "DEADLOCK (protocol error)");
  const ComparisonRow *checks = row(c, "roles", "checks (@gemm)");
  REQUIRE(checks);
  CHECK(checks->a == "pass");
  CHECK(checks->b != "pass");

  // Two files of one kernel each pair up under both names.
  PipelineRun indirect =
      compile("samples/nvidia/gather_indirect.mlir", {}, EmitKind::MLIR);
  PipelineRun direct =
      compile("samples/nvidia/gather_direct.mlir", {}, EmitKind::MLIR);
  Comparison files = compareRuns(indirect, direct, "indirect", "direct");
  const ComparisonRow *steps =
      row(files, "steps", "steps (@gather_indirect | @gather_direct)");
  REQUIRE(steps);
  CHECK(steps->a == "2: load -> compute | load -> compute -> store");
  CHECK(steps->b == "1: load -> compute -> store");
}
