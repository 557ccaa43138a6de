//===- GpuRunTest.cpp - The Run pane's worker, without a GPU --------------===//
//
// The GUI runs klx-run as a child process and reads its --json. These
// tests give it a stand-in runner (a shell script that answers the way
// klx-run does) to check the worker's side of that contract, and the real
// klx-run where there is no GPU.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "core/AppController.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cmath>
#include <map>
#include <thread>

using namespace klx;
using namespace klx::app;

namespace {

// klx-run --json for a passing run, as it printed on an H100 (trimmed).
const char *const kPassed =
    R"({"status":"passed","message":"","device":"NVIDIA H100 80GB HBM3",)"
    R"("capability":90,"sm_count":132,"entry":"gemm","size":"2048x2048x1024",)"
    R"("dtype":"f16","grid":[132,1,1],"block":384,"dynamic_shared_memory":133120,)"
    R"("threshold":0.001,"cpu_rows":2048,"cpu_check":{"relative_error":1.25e-06,)"
    R"("max_abs_error":0.000104,"non_finite":0,"checked_elements":4194304},)"
    R"("cublas_check":{"relative_error":0,"max_abs_error":0,"non_finite":0,)"
    R"("checked_elements":4194304},"time":{"median_ms":0.0392,"min_ms":0.039,)"
    R"("max_ms":0.041,"runs":20},"tflops":219.1,"gbs":642,"peak_tflops":1071,)"
    R"("peak_formula":"132 SMs x 4096 flop/clk x 1980 MHz","cublas_time":)"
    R"({"median_ms":0.0197,"min_ms":0.019,"max_ms":0.02,"runs":20},)"
    R"("cublas_tflops":436.5,"alternating_tflops":210,"vs_cublas":0.48})";

template <typename Predicate> bool waitFor(Predicate done) {
  for (int i = 0; i < 600 && !done(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return done();
}

/// The warp-specialized GEMM sample compiled to its cubin: what the Run
/// pane hands the worker to make a bundle of.
std::shared_ptr<const PipelineRun> compiledSample() {
  CompileOptions options;
  options.emitGoal = EmitKind::Cubin;
  auto run = std::make_shared<PipelineRun>(
      runPipeline(test::readSource("samples/nvidia/gemm_ws_persistent.mlir"),
                  "gemm_ws_persistent.mlir", options));
  REQUIRE(run->succeeded());
  return run;
}

} // namespace

TEST_CASE("Run pane: klx-run's JSON becomes a record", "[app][gpu-run]") {
  GpuRunRecord r = parseRunnerJson(kPassed, 0, "");
  CHECK(r.passed());
  CHECK(r.device == "NVIDIA H100 80GB HBM3");
  CHECK(r.launch == "grid 132x1x1, block 384, 133120 B shared");
  CHECK(r.medianMs == Approx(0.0392));
  CHECK(r.tflops == Approx(219.1));
  CHECK(r.percentOfPeak == Approx(100 * 219.1 / 1071));
  CHECK(r.vsCublas == Approx(0.48));
  CHECK(r.relativeError == Approx(1.25e-06));

  GpuRunRecord hang = parseRunnerJson(
      R"j({"status":"hang","message":"no completion after 1500 ms (checked launch)"})j",
      3, "");
  CHECK(hang.status == "hang");
  CHECK(hang.message == "no completion after 1500 ms (checked launch)");
  CHECK(hang.medianMs == 0);

  GpuRunRecord garbage =
      parseRunnerJson("Segmentation fault", 139, "klx-run: boom\nmore");
  CHECK(garbage.status == "error");
  CHECK(garbage.message ==
        "klx-run exited with 139 and printed no result: klx-run: boom");
}

TEST_CASE("Run pane: the worker probes, runs in a child and reports",
          "[app][gpu-run]") {
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-fake-run", dir));
  std::string runner = std::string(dir) + "/klx-run";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(runner, ec);
    REQUIRE_FALSE(ec);
    // Answers --device, and for a bundle checks that it was written and
    // that the flags came through, then prints a result.
    os << "#!/bin/sh\n"
          "if [ \"$1\" = --device ]; then echo 'Fake GPU (sm_90, 1 SMs)'; "
          "exit 0; fi\n"
          "test -s \"$1/manifest.json\" || exit 5\n"
          "case \"$*\" in *--size=256x256x64*--timeout-ms=500*) ;; *) exit 6;; "
          "esac\n"
          "echo '"
       << kPassed << "'\n";
  }
  llvm::sys::fs::setPermissions(runner, llvm::sys::fs::all_read |
                                            llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
  {
    GpuRunWorker worker(runner);
    REQUIRE(waitFor([&] {
      return worker.status().availability != GpuStatus::Availability::Probing;
    }));
    CHECK(worker.status().availability == GpuStatus::Availability::Available);
    CHECK(worker.status().device == "Fake GPU (sm_90, 1 SMs)");

    GpuRunRequest request;
    request.label = "fake 256x256x64";
    request.run = compiledSample();
    request.bundle.size = ProblemSize{256, 256, 64};
    request.timeoutMs = 500;
    worker.submit(request);
    std::vector<GpuRunRecord> records;
    REQUIRE(waitFor([&] {
      for (GpuRunRecord &r : worker.poll())
        records.push_back(std::move(r));
      return !records.empty();
    }));
    CHECK(records[0].label == "fake 256x256x64");
    CHECK(records[0].passed());
    CHECK(records[0].serial == 1);
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST_CASE("Run pane: without a GPU it says why and runs nothing",
          "[app][gpu-run]") {
  // The real klx-run, on a machine without the driver (as CI is).
  setenv("KLX_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  std::string runner =
      llvm::sys::path::parent_path(KLX_BINARY).str() + "/klx-run";
  GpuRunWorker worker(runner);
  REQUIRE(waitFor([&] {
    return worker.status().availability != GpuStatus::Availability::Probing;
  }));
  unsetenv("KLX_LIBCUDA");
  CHECK(worker.status().availability == GpuStatus::Availability::Unavailable);
  CHECK(llvm::StringRef(worker.status().reason).starts_with("no CUDA device"));

  GpuRunWorker missing("/nonexistent/klx-run");
  REQUIRE(waitFor([&] {
    return missing.status().availability != GpuStatus::Availability::Probing;
  }));
  CHECK(missing.status().reason == "klx-run not found at /nonexistent/klx-run");

  ControllerOptions options;
  options.autosave = false;
  options.runner = "/nonexistent/klx-run";
  AppController controller(options);
  REQUIRE(waitFor([&] {
    controller.tick(0);
    return controller.state().gpu.availability !=
           GpuStatus::Availability::Probing;
  }));
  controller.apply(cmd::RunOnGpu{"512x512x512"}, 0);
  REQUIRE(controller.state().gpuRuns.size() == 1);
  CHECK(controller.state().gpuRuns[0].status == "not_run");
  CHECK(controller.state().gpuRuns[0].message ==
        "klx-run not found at /nonexistent/klx-run");
}

TEST_CASE("Compare mode: both variants run, each record names its variant",
          "[app][gpu-run][compare]") {
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-fake-run", dir));
  std::string runner = std::string(dir) + "/klx-run";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(runner, ec);
    REQUIRE_FALSE(ec);
    // Each bundle's manifest must carry the variant's -D values.
    os << "#!/bin/sh\n"
          "if [ \"$1\" = --device ]; then echo 'Fake GPU (sm_90, 1 SMs)'; "
          "exit 0; fi\n"
          "grep -q '\"stages\"' \"$1/manifest.json\" || exit 5\n"
          "echo '"
       << kPassed << "'\n";
  }
  llvm::sys::fs::setPermissions(runner, llvm::sys::fs::all_read |
                                            llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
  {
    ControllerOptions options;
    options.runner = runner;
    options.autosave = false;
    AppController controller(options);
    const AppState &state = controller.state();
    controller.apply(cmd::SetDefines{"stages=2"}, 0);
    controller.apply(cmd::OpenFile{test::sourcePath(
                         "samples/nvidia/gemm_ws_persistent.mlir")},
                     0);
    controller.apply(cmd::SetCompare{"stages=4"}, 0);
    REQUIRE(waitFor([&] {
      controller.tick(0);
      return !controller.busy() && state.run && state.compare.run &&
             state.gpu.availability == GpuStatus::Availability::Available;
    }));
    controller.apply(cmd::RunOnGpu{"256x128x64", false}, 0);
    controller.apply(cmd::RunOnGpu{"256x128x64", false, true}, 0);
    REQUIRE_FALSE(state.view.raised.empty());
    CHECK(state.view.raised.back().pane == Pane::Run);
    REQUIRE(waitFor([&] {
      controller.tick(0);
      return state.gpuRuns.size() == 2;
    }));
    CHECK(state.gpuRuns[0].variant == "stages=2");
    CHECK(state.gpuRuns[0].label ==
          "gemm_ws_persistent.mlir -D stages=2 256x128x64");
    CHECK(state.gpuRuns[1].variant == "stages=4");
    CHECK(state.gpuRuns[1].label ==
          "gemm_ws_persistent.mlir -D stages=4 256x128x64");
    CHECK(state.gpuRuns[0].passed());
    CHECK(state.gpuRuns[1].passed());
  }
  llvm::sys::fs::remove_directories(dir);
}
