//===- EpilogueTest.cpp - What a kernel that computes stores, checked -----===//
//
// The epilogue klx-materialize-schedule writes down (klx.epilogue) rides
// in the bundle to klx-run, which evaluates it on the CPU: the linear
// layer's bias and GELU, the classifier head's softmax along rows with its
// mask and reductions, and a check that tells a bias along rows from one
// along columns.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Export/Export.h"
#include "klx/Runtime/Epilogue.h"
#include "klx/Runtime/EpilogueOps.h"
#include "klx/Runtime/HostMath.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <random>

using namespace klx;
using namespace klx::rt;

namespace {

/// The manifest klx export writes for `sample`, parsed by klx-run.
Manifest exportedManifest(const char *sample) {
  CompileOptions options;
  options.emitGoal = EmitKind::Cubin;
  PipelineRun run = runPipeline(test::readSource(sample), sample, options);
  REQUIRE(run.succeeded());
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-epilogue", dir));
  std::string bundle = std::string(dir) + "/b";
  BundleRequest request;
  request.size = ProblemSize{256, 200, 128};
  llvm::Expected<BundleContents> written = exportBundle(run, request, bundle);
  if (!written)
    FAIL(llvm::toString(written.takeError()));
  auto text = llvm::MemoryBuffer::getFile(bundle + "/manifest.json");
  REQUIRE(text);
  std::string error;
  std::optional<Manifest> m = parseManifest((*text)->getBuffer().str(), error);
  llvm::sys::fs::remove_directories(dir);
  INFO(error);
  REQUIRE(m);
  return *m;
}

double gelu(double s) {
  return 0.5 * s * (1 + std::tanh(0.7978845608 * (s + 0.044715 * s * s * s)));
}

std::vector<double> randomValues(size_t count, unsigned seed, double scale) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  std::vector<double> values(count);
  for (double &v : values)
    v = uniform(random);
  return values;
}

} // namespace

TEST_CASE("linear_gelu's bundle says its epilogue: bias per column, GELU",
          "[runtime][epilogue]") {
  Manifest m = exportedManifest("samples/nvidia/linear_gelu.mlir");
  REQUIRE(m.epilogue);
  const EpilogueProgram &program = *m.epilogue;
  // The bias is argument #2, a column vector: an f32 memref of rank 1.
  REQUIRE(program.vectors.size() == 1);
  CHECK(program.vectors.begin()->first == 2);
  CHECK_FALSE(program.vectors.begin()->second);
  CHECK(m.params[2].name == "column_vector");
  CHECK(m.params[2].rank == 1);
  CHECK(matchingLtEpilogue(program) == LtEpilogue::GeluBias);

  // Rows of a 3 x 300 problem, tile_n = 256: the second tile is ragged.
  EpilogueInputs inputs;
  inputs.size = {3, 300, 128};
  inputs.tile = {m.tile[0], m.tile[1]};
  std::vector<double> bias = randomValues(300, 1, 4);
  inputs.vectors[2] = std::vector<float>(bias.begin(), bias.end());
  std::vector<double> gemm = randomValues(3 * 300, 2, 4);
  std::vector<int64_t> rows = {0, 1, 2};
  std::vector<double> d = evaluateEpilogue(program, inputs, gemm, rows);
  double worst = 0;
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t c = 0; c < 300; ++c)
      worst = std::max(
          worst, std::fabs(d[r * 300 + c] -
                           gelu(gemm[r * 300 + c] + double(float(bias[c])))));
  // The kernel's constants are f32: 0.7978845608 is 0.79788458347...
  CHECK(worst < 1e-6);

  SECTION("a bias applied along rows fails the check; along columns passes") {
    std::vector<float> right(d.size()), wrong(d.size());
    for (int64_t r = 0; r < 3; ++r)
      for (int64_t c = 0; c < 300; ++c) {
        double x = gemm[r * 300 + c];
        right[r * 300 + c] = bf16ToFloat(floatToBF16(float(d[r * 300 + c])));
        wrong[r * 300 + c] =
            bf16ToFloat(floatToBF16(float(gelu(x + double(float(bias[r]))))));
      }
    double floor = 4.0 / 64;
    CHECK(maxUlpError(right, d, 300, rows, 300, DType::BF16, floor) <=
          kEpilogueUlps);
    CHECK(maxUlpError(wrong, d, 300, rows, 300, DType::BF16, floor) >
          100 * kEpilogueUlps);
  }
}

TEST_CASE("classifier_head: a softmax along rows, mask past N, max, exp, "
          "sum, divide",
          "[runtime][epilogue]") {
  Manifest m = exportedManifest("samples/nvidia/classifier_head.mlir");
  REQUIRE(m.epilogue);
  CHECK(matchingLtEpilogue(*m.epilogue) == LtEpilogue::None);
  // A row is reduced within one tile: klx-run refuses a wider N.
  CHECK(m.epilogue->reducesRows());
  CHECK(checkProblemSize(m, ProblemSize{512, 256, 512}).empty());
  CHECK(checkProblemSize(m, ProblemSize{512, 264, 512})
            .find("N = 264 would be reduced in pieces") != std::string::npos);
  EpilogueInputs inputs;
  inputs.size = {2, 200, 64};
  inputs.tile = {m.tile[0], m.tile[1]};
  // N is argument #4: the mask reads it.
  REQUIRE(m.params[4].name == "N");
  inputs.scalars = {{3, 2}, {4, 200}, {5, 64}};
  std::vector<double> gemm = randomValues(2 * 200, 3, 8);
  std::vector<double> d = evaluateEpilogue(*m.epilogue, inputs, gemm, {0, 1});
  for (int64_t r = 0; r < 2; ++r) {
    double sum = 0, most = -INFINITY;
    for (int64_t c = 0; c < 200; ++c) {
      sum += d[r * 200 + c];
      most = std::max(most, gemm[r * 200 + c]);
    }
    // One tile holds all 200 columns: the row sums to 1, and the largest
    // element's probability is exp(0) / sum over the row.
    CHECK(std::fabs(sum - 1) < 1e-12);
    double denominator = 0;
    for (int64_t c = 0; c < 200; ++c)
      denominator += std::exp(gemm[r * 200 + c] - most);
    for (int64_t c = 0; c < 200; ++c)
      if (gemm[r * 200 + c] == most)
        CHECK(std::fabs(d[r * 200 + c] - 1 / denominator) < 1e-12);
  }
}

TEST_CASE("an epilogue klx-run cannot evaluate is refused, saying why",
          "[runtime][epilogue]") {
  std::string error;
  CHECK_FALSE(readEpilogue(
      Json::parse(R"({"unknown": "a map uses scf.if, at line 9"})"), error));
  CHECK(error.find("a map uses scf.if, at line 9") != std::string::npos);
  CHECK_FALSE(readEpilogue(
      Json::parse(R"({"values": [{"op": "acc"}, {"op": "map", "result": "acc",
        "inputs": [0], "body": [{"op": "arg", "index": 0},
        {"op": "math.erf", "args": [0]}], "yield": 1}], "output": 1})"),
      error));
  CHECK(error.find("klx-run does not evaluate math.erf") != std::string::npos);
  CHECK_FALSE(
      readEpilogue(Json::parse(R"({"values": [{"op": "reduce", "kind": "sum",
        "axis": "rows", "input": 0}], "output": 0})"),
                   error));
  CHECK(error.find("an input is not an earlier value") != std::string::npos);
}

TEST_CASE("the compiler describes only ops klx-run evaluates",
          "[runtime][epilogue]") {
  // One table answers both: what klx-to-nvgpu lowers in a map is all
  // there, and an op it is not is said when the kernel compiles.
  for (const char *op :
       {"arith.addf", "arith.select", "math.tanh", "math.exp", "math.exp2",
        "math.sqrt", "math.rsqrt", "math.absf", "math.fma"})
    CHECK(evaluatesEpilogueOp(op));
  CHECK_FALSE(evaluatesEpilogueOp("math.erf"));
  CHECK(evaluatedEpilogueOps().find("math.fma") != std::string::npos);

  // GELU with erf: klx-materialize-schedule's description says it at the
  // op's line (klx-to-nvgpu then refuses to lower it).
  std::string source = test::readSource("samples/nvidia/linear_gelu.mlir");
  size_t tanh = source.find("math.tanh %t");
  REQUIRE(tanh != std::string::npos);
  source.replace(tanh, 9, "math.erf");
  CompileOptions options;
  options.stopAfter = "klx-materialize-schedule";
  PipelineRun run = runPipeline(source, "erf.mlir", options);
  REQUIRE_FALSE(run.snapshots.empty());
  CHECK(run.snapshots.back().text.find(
            "a map uses math.erf, which klx-run's CPU reference does not "
            "evaluate") != std::string::npos);
}
