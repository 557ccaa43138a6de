//===- CommandLineTest.cpp - Exit codes and output of the klx binary ------===//
//
// Runs the real `klx` so that exit codes, stdout and stderr are what a user
// and a script see.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Support/ExternalTool.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace klx;

namespace {
ToolResult runKlx(std::vector<std::string> args) {
  auto result = runTool(KLX_BINARY, args);
  if (!result)
    FAIL(llvm::toString(result.takeError()));
  return std::move(*result);
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}
} // namespace

TEST_CASE("klx pipeline prints one row per step and the ptxas summary",
          "[cli]") {
  ToolResult r =
      runKlx({"pipeline", test::sourcePath("samples/nvidia/saxpy.mlir"),
              "--nvdisasm=/nonexistent"});
  CHECK(r.exitCode == 0);
  CHECK(contains(r.output, "convert-gpu-to-nvvm"));
  CHECK(contains(r.output, "canonicalize#3"));
  CHECK(contains(r.output, "saxpy_kernel (sm_90a): "));
  CHECK(contains(r.output, "skipped: nvdisasm"));
  CHECK(contains(r.output, "success"));
}

TEST_CASE("klx pipeline --json is valid JSON with the documented keys",
          "[cli]") {
  ToolResult r =
      runKlx({"pipeline", test::sourcePath("samples/amd/lds_transpose.mlir"),
              "--json"});
  REQUIRE(r.exitCode == 0);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(r.output);
  REQUIRE((bool)parsed);
  const llvm::json::Object *root = parsed->getAsObject();
  REQUIRE(root);
  CHECK(root->getString("target") == "gfx942");
  CHECK(root->getString("status") == "success");
  const llvm::json::Array *steps = root->getArray("steps");
  REQUIRE(steps);
  CHECK(steps->front().getAsObject()->getString("name") == "parse");
  CHECK(steps->back().getAsObject()->getString("name") == "amdgcn");
  const llvm::json::Array *artifacts = root->getArray("artifacts");
  REQUIRE(artifacts);
  REQUIRE(artifacts->size() == 1);
  const llvm::json::Object *kernel = (*artifacts)[0]
                                         .getAsObject()
                                         ->getArray("amdgcn_kernels")
                                         ->front()
                                         .getAsObject();
  CHECK(kernel->getInteger("lds_bytes") == 4224);
}

TEST_CASE("klx compile --emit and --stop-after", "[cli]") {
  std::string saxpy = test::sourcePath("samples/nvidia/saxpy.mlir");
  SECTION("ptx") {
    ToolResult r = runKlx({"compile", saxpy, "--emit=ptx"});
    CHECK(r.exitCode == 0);
    CHECK(contains(r.output, ".target sm_90a"));
  }
  SECTION("mlir after a pass") {
    ToolResult r =
        runKlx({"compile", saxpy, "--stop-after=gpu-kernel-outlining"});
    CHECK(r.exitCode == 0);
    CHECK(contains(r.output, "gpu.launch_func"));
    CHECK_FALSE(contains(r.output, "llvm.func"));
  }
  SECTION("--emit needs a step after --stop-after") {
    ToolResult r = runKlx({"compile", saxpy, "--emit=ptx", "--stop-after=cse"});
    CHECK(r.exitCode == 2);
    CHECK(contains(r.output, "comes after --stop-after=cse"));
  }
  SECTION("a target that does not produce the kind") {
    ToolResult r = runKlx({"compile", saxpy, "--emit=amdgcn"});
    CHECK(r.exitCode == 2);
    CHECK(contains(r.output, "sm_90a produces no amdgcn"));
  }
  SECTION("no SASS without nvdisasm: exit 2 and why") {
    ToolResult r = runKlx(
        {"compile", saxpy, "--emit=sass", "--nvdisasm=/nonexistent/nvdisasm"});
    CHECK(r.exitCode == 2);
    CHECK(contains(r.output, "no sass: nvdisasm"));
  }
}

TEST_CASE("klx compile --dump-dir writes one numbered file per step", "[cli]") {
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-dump", dir));
  ToolResult r =
      runKlx({"compile", test::sourcePath("samples/nvidia/saxpy.mlir"),
              "--dump-dir=" + std::string(dir), "--emit=cubin", "-o",
              std::string(dir) + "/out.cubin"});
  CHECK(r.exitCode == 0);
  auto exists = [&](const std::string &name) {
    return llvm::sys::fs::exists(std::string(dir) + "/" + name);
  };
  CHECK(exists("00-parse.mlir"));
  CHECK(exists("01-klx-lint.mlir"));
  CHECK(exists("15-convert-gpu-to-nvvm.mlir"));
  CHECK(exists("16-canonicalize-2.mlir"));
  CHECK(exists("25-llvm-ir.ll"));
  CHECK(exists("27-ptx.ptx"));
  CHECK(exists("28-cubin.log"));
  CHECK(exists("28-cubin.cubin"));
  CHECK(exists("out.cubin"));
  llvm::sys::fs::remove_directories(dir);
}

TEST_CASE("klx exit codes: 1 for bad input, 2 for usage", "[cli]") {
  llvm::SmallString<128> bad;
  int fd;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("bad", "mlir", fd, bad));
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << "func.func @f() {\n  %0 = arith.constant 1 : i32\n  "
          "%1 = nosuch.op %0\n  return\n}\n";
  }
  ToolResult input = runKlx({"compile", std::string(bad)});
  CHECK(input.exitCode == 1);
  CHECK(contains(input.output, std::string(bad) + ":3:8: error: "));
  llvm::sys::fs::remove(bad);

  CHECK(runKlx({"compile"}).exitCode == 2);
  CHECK(runKlx({"compile", "/nonexistent.mlir"}).exitCode == 2);
  CHECK(runKlx({"compile", test::sourcePath("samples/nvidia/saxpy.mlir"),
                "--bogus"})
            .exitCode == 2);
  CHECK(runKlx({"compile", test::sourcePath("samples/nvidia/saxpy.mlir"),
                "--target=sm_00"})
            .exitCode == 2);
  CHECK(runKlx({"frobnicate"}).exitCode == 2);
  CHECK(runKlx({"help"}).exitCode == 0);
}

TEST_CASE("klx pipeline --print-pass-pipeline is one textual pipeline",
          "[cli]") {
  ToolResult r =
      runKlx({"pipeline", test::sourcePath("samples/amd/lds_transpose.mlir"),
              "--print-pass-pipeline"});
  CHECK(r.exitCode == 0);
  CHECK(contains(r.output, "builtin.module("));
  CHECK(contains(r.output, "rocdl-attach-target{"));
  CHECK(contains(r.output, "chip=gfx942"));
  CHECK(contains(r.output, "gpu.module(convert-gpu-to-rocdl{"));
}

TEST_CASE("klx-opt runs the pipeline klx prints", "[cli]") {
  for (const char *sample :
       {"samples/amd/lds_transpose.mlir", "samples/nvidia/saxpy.mlir"}) {
    std::string path = test::sourcePath(sample);
    ToolResult printed = runKlx({"pipeline", path, "--print-pass-pipeline"});
    REQUIRE(printed.exitCode == 0);
    std::string pipeline = llvm::StringRef(printed.output).trim().str();
    auto optResult =
        runTool(KLX_OPT_BINARY, {path, "--pass-pipeline=" + pipeline});
    if (!optResult)
      FAIL(llvm::toString(optResult.takeError()));
    INFO(optResult->output.substr(0, 2000));
    CHECK(optResult->exitCode == 0);
    CHECK(contains(optResult->output, "llvm.func @"));
    CHECK_FALSE(contains(optResult->output, "gpu.func"));
  }
}
