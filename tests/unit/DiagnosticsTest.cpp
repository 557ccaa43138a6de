//===- DiagnosticsTest.cpp - Bad input becomes file:line:col messages -----===//

#include "TestSupport.h"

#include "klx/Pipeline/Compiler.h"

using namespace klx;

namespace {
PipelineRun compile(const std::string &source) {
  CompileOptions options;
  return runPipeline(source, "input.mlir", options);
}

Diag firstError(const PipelineRun &run) {
  for (const Diag &d : run.allDiagnostics())
    if (d.severity == Severity::Error)
      return d;
  FAIL("no error diagnostic");
  return {};
}
} // namespace

TEST_CASE("A truncated file is an input error at its end", "[diagnostics]") {
  std::string source = test::readSource("samples/nvidia/saxpy.mlir");
  source.resize(source.find("gpu.terminator"));
  PipelineRun run = compile(source);
  CHECK(run.status == RunStatus::InputError);
  REQUIRE(run.snapshots.size() == 1);
  CHECK(run.snapshots[0].name == "parse");
  CHECK(run.snapshots[0].failed);
  Diag error = firstError(run);
  CHECK(error.loc.file == "input.mlir");
  CHECK(error.loc.line > 30);
  CHECK(error.step == "parse");
}

TEST_CASE("An unknown op is reported at its line and column", "[diagnostics]") {
  PipelineRun run = compile("func.func @f() {\n"
                            "  %0 = arith.constant 1 : i32\n"
                            "  %1 = nosuch.op %0 : i32\n"
                            "  return\n"
                            "}\n");
  CHECK(run.status == RunStatus::InputError);
  Diag error = firstError(run);
  CHECK(error.loc.line == 3);
  CHECK(error.loc.col == 8);
  CHECK(error.message.find("nosuch.op") != std::string::npos);
}

TEST_CASE("A type mismatch is reported with a note", "[diagnostics]") {
  PipelineRun run = compile("func.func @f(%a: i32, %b: f32) -> i32 {\n"
                            "  %0 = arith.addi %a, %b : i32\n"
                            "  return %0 : i32\n"
                            "}\n");
  CHECK(run.status == RunStatus::InputError);
  Diag error = firstError(run);
  CHECK(error.loc.line == 2);
  CHECK(error.loc.col == 23);
  CHECK(error.message.find("type") != std::string::npos);
}

TEST_CASE("A verifier error inside a kernel keeps its location",
          "[diagnostics]") {
  PipelineRun run =
      compile("gpu.module @m {\n"
              "  gpu.func @k(%x: memref<4xf32>) kernel {\n"
              "    %c0 = arith.constant 0 : index\n"
              "    %v = memref.load %x[%c0, %c0] : memref<4xf32>\n"
              "    gpu.return\n"
              "  }\n"
              "}\n");
  CHECK(run.status == RunStatus::InputError);
  Diag error = firstError(run);
  CHECK(error.loc.line == 4);
  CHECK(error.message.find("indices") != std::string::npos);
}

TEST_CASE("A pass failure is recorded on its step, with the IR it saw",
          "[diagnostics]") {
  // A tensor-map descriptor in a kernel signature does not legalize in
  // convert-gpu-to-nvvm (which is why the GEMM sample passes a pointer).
  PipelineRun run = compile(
      "!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, "
      "swizzle = none, l2promo = none, oob = zero, interleave = none>\n"
      "module attributes {gpu.container_module} {\n"
      "  gpu.module @m {\n"
      "    gpu.func @k(%d: !map) kernel {\n"
      "      nvgpu.tma.prefetch.descriptor %d : !map\n"
      "      gpu.return\n"
      "    }\n"
      "  }\n"
      "}\n");
  CHECK(run.status == RunStatus::InputError);
  const Snapshot &last = run.snapshots.back();
  CHECK(last.failed);
  CHECK(last.name == "convert-gpu-to-nvvm");
  CHECK_FALSE(last.text.empty());
  REQUIRE_FALSE(last.diagnostics.empty());
  CHECK(last.diagnostics[0].loc.line == 4);
  CHECK(last.diagnostics[0].step == "convert-gpu-to-nvvm");
}

TEST_CASE("klx module attributes are verified while parsing", "[diagnostics]") {
  PipelineRun unknownTarget =
      compile("module attributes {klx.target = \"sm_80\"} {}\n");
  CHECK(unknownTarget.status == RunStatus::InputError);
  Diag error = firstError(unknownTarget);
  CHECK(error.loc.line == 1);
  CHECK(error.message ==
        "unknown target 'sm_80' in 'klx.target' (known: sm_90a, gfx942, "
        "gfx950)");

  PipelineRun badParams =
      compile("module attributes {klx.params = {stages = [1, 2]}} {}\n");
  CHECK(badParams.status == RunStatus::InputError);
  CHECK(firstError(badParams).message.find("parameter 'stages'") !=
        std::string::npos);
}
