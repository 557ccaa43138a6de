//===- HipRunnerTest.cpp - The AMD runner against a stand-in HIP ----------===//
//
// No AMD GPU is available to klx: these run klx-run's HIP path against
// FakeHip.cpp (host memory, a CPU GEMM for the kernel) and against
// libraries that are missing or lack entry points, on a real AMD bundle
// exported from samples/amd/gemm_mfma.mlir.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Export/Bundle.h"
#include "klx/Pipeline/Compiler.h"
#include "klx/Runtime/Launch.h"
#include "klx/Runtime/Manifest.h"
#include "klx/Runtime/Runner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace {

/// The AMD sample exported once into a temporary folder.
const std::string &amdBundle() {
  static std::string dir = [] {
    klx::CompileOptions options;
    options.emitGoal = klx::EmitKind::Cubin;
    options.codeObject = true;
    std::string path = "samples/amd/gemm_mfma.mlir";
    klx::PipelineRun run =
        klx::runPipeline(klx::test::readSource(path), path, options);
    REQUIRE(run.succeeded());
    llvm::Expected<klx::BundleContents> bundle = klx::bundleFromRun(run);
    REQUIRE(bool(bundle));
    bundle->problem = {256, 256, 128};
    llvm::SmallString<128> out;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-amd-bundle", out));
    REQUIRE_FALSE(bool(klx::writeBundle(out, *bundle)));
    return std::string(out);
  }();
  // Removed when the test binary exits.
  static struct Cleanup {
    ~Cleanup() { llvm::sys::fs::remove_directories(dir); }
  } cleanup;
  return dir;
}

klx::rt::LaunchResult runWith(const char *library, const char *mode,
                              int timeoutMs = 10000) {
  setenv("KLX_LIBHIP", library, 1);
  setenv("KLX_FAKE_HIP", mode, 1);
  klx::rt::RunOptions options;
  options.repeat = 2;
  options.warmup = 1;
  options.timeoutMs = timeoutMs;
  options.cpuThreads = 2;
  klx::rt::LaunchResult result = klx::rt::runBundle(amdBundle(), options);
  unsetenv("KLX_LIBHIP");
  unsetenv("KLX_FAKE_HIP");
  return result;
}

} // namespace

using klx::rt::RunStatus;

TEST_CASE("HIP runner: the AMD manifest and its arguments", "[hip]") {
  auto buffer = llvm::MemoryBuffer::getFile(amdBundle() + "/manifest.json");
  REQUIRE(buffer);
  std::string text = (*buffer)->getBuffer().str();
  std::string error;
  std::optional<klx::rt::Manifest> m = klx::rt::parseManifest(text, error);
  INFO(error);
  REQUIRE(m);
  CHECK(m->amd());
  CHECK(m->binary == "kernel.hsaco");
  // A and B are memrefs, dense row-major; D as wide as N (whole tiles).
  klx::rt::DeviceOperands operands;
  operands.a = 0xa000;
  operands.b = 0xb000;
  operands.d = 0xd000;
  klx::rt::PackedArguments args =
      klx::rt::packArguments(*m, {256, 384, 128}, operands);
  REQUIRE(args.values.size() == 24);
  CHECK(args.names[1] == "A.aligned");
  CHECK(args.values[1] == 0xa000);
  CHECK(args.values[3] == 256); // A.sizes = M x K
  CHECK(args.values[4] == 128);
  CHECK(args.values[5] == 128); // A.strides[0] = K
  CHECK(args.values[8] == 0xb000);
  CHECK(args.values[10] == 128); // B.sizes = K x N
  CHECK(args.values[11] == 384);
  CHECK(args.values[12] == 384); // B.strides[0] = N
  CHECK(args.values[15] == 0xd000);
  CHECK(args.names[21] == "M");
  CHECK(args.values[23] == 128); // K
  CHECK(klx::rt::checkProblemSize(*m, {200, 256, 128}) ==
        "200x256x128: for gfx942, M, N and K must be multiples of the tile "
        "128x128x64 (the AMD kernel does not mask its copies or its "
        "stores)");
}

TEST_CASE("HIP runner: a launch through a stand-in runtime is checked and "
          "timed",
          "[hip]") {
  klx::rt::LaunchResult result = runWith(KLX_FAKE_HIP_LIBRARY, "runs");
  INFO(result.message);
  CHECK(result.status == RunStatus::Passed);
  CHECK(result.device == "Fake AMD GPU (klx tests)");
  CHECK(result.grid == std::array<unsigned, 3>{2, 2, 1});
  CHECK(result.block[0] == 256);
  CHECK(result.cpuCheck.checked == 256 * 256);
  CHECK(result.cpuCheck.relative < result.threshold);
  CHECK(result.kernel.ms.size() == 2);
  CHECK(klx::rt::exitCodeFor(result) == 0);
}

TEST_CASE("HIP runner: what goes wrong is said, with the exit code", "[hip]") {
  SECTION("a wrong result") {
    klx::rt::LaunchResult r = runWith(KLX_FAKE_HIP_LIBRARY, "wrong");
    CHECK(r.status == RunStatus::WrongResult);
    CHECK(klx::rt::exitCodeFor(r) == 1);
  }
  SECTION("no device") {
    klx::rt::LaunchResult r = runWith(KLX_FAKE_HIP_LIBRARY, "no_device");
    CHECK(r.status == RunStatus::NoDevice);
    CHECK(r.message == "no AMD GPU: the HIP runtime loads but sees no device");
    CHECK(klx::rt::exitCodeFor(r) == 2);
  }
  SECTION("a code object the runtime refuses") {
    klx::rt::LaunchResult r = runWith(KLX_FAKE_HIP_LIBRARY, "bad_image");
    CHECK(r.status == RunStatus::DriverError);
    CHECK(r.message == "hipModuleLoadData failed: hipErrorInvalidImage "
                       "(device kernel image is invalid)");
  }
  SECTION("a kernel that never completes") {
    klx::rt::LaunchResult r = runWith(KLX_FAKE_HIP_LIBRARY, "hang", 50);
    CHECK(r.status == RunStatus::Hang);
    CHECK(r.message == "no completion after 50 ms (checked launch)");
    CHECK(klx::rt::exitCodeFor(r) == 3);
  }
  SECTION("no HIP runtime at all") {
    klx::rt::LaunchResult r = runWith("/nonexistent/libamdhip64.so", "runs");
    CHECK(r.status == RunStatus::NoDevice);
    CHECK(r.message.rfind("no HIP runtime: /nonexistent/libamdhip64.so does "
                          "not load (",
                          0) == 0);
  }
  SECTION("a library without the HIP entry points") {
    klx::rt::LaunchResult r = runWith("libm.so.6", "runs");
    CHECK(r.status == RunStatus::NoDevice);
    CHECK(r.message == "the HIP runtime has no hipInit");
  }
}
