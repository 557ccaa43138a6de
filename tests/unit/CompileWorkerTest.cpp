//===- CompileWorkerTest.cpp - Stopping compiles, and their limit ---------===//
//
// A step that does not end is stood in for by an onStep callback that does
// not return: it runs on the compile thread just before the step, exactly
// where a stuck pass would hold it.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Export/Bundle.h"
#include "workers/CompileWorker.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace klx;
using namespace klx::app;

namespace {

/// Polls `worker` for up to `seconds`.
std::optional<CompileResult> waitForResult(CompileWorker &worker,
                                           double seconds = 60) {
  auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (std::optional<CompileResult> result = worker.poll())
      return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return std::nullopt;
}

CompileRequest saxpyRequest(uint64_t id) {
  CompileRequest request;
  request.id = id;
  request.fileName = test::sourcePath("samples/nvidia/saxpy.mlir");
  request.source = test::readSource("samples/nvidia/saxpy.mlir");
  request.options.emitGoal = EmitKind::PTX;
  return request;
}

std::string firstMessage(const PipelineRun &run) {
  std::vector<Diag> diags = run.allDiagnostics();
  return diags.empty() ? "" : diags.front().message;
}

} // namespace

TEST_CASE("the pipeline tells each step and stops between two",
          "[pipeline][stop]") {
  std::string source = test::readSource("samples/nvidia/saxpy.mlir");
  CompileOptions options;
  options.emitGoal = EmitKind::PTX;
  std::vector<std::string> told;
  size_t toldCount = 0;
  options.onStep = [&](size_t index, size_t count, llvm::StringRef name) {
    CHECK(index == told.size());
    told.push_back(name.str());
    toldCount = count;
  };
  PipelineRun whole = runPipeline(source, "saxpy.mlir", options);
  REQUIRE(whole.succeeded());
  // Every step of the plan, in order, as the snapshots name them.
  REQUIRE(told.size() == whole.snapshots.size());
  CHECK(toldCount == told.size());
  for (size_t i = 0; i < told.size(); ++i)
    CHECK(told[i] == whole.snapshots[i].displayName());

  for (size_t stopAt : {size_t(0), size_t(3), told.size() - 2}) {
    INFO("stop requested while step " << stopAt << " runs");
    auto stop = std::make_shared<StopRequest>();
    options.stop = stop;
    options.onStep = [&](size_t index, size_t, llvm::StringRef) {
      if (index == stopAt) {
        stop->request("asked by the test");
        stop->request("a later reason is not the one reported");
      }
    };
    PipelineRun run = runPipeline(source, "saxpy.mlir", options);
    CHECK(run.status == RunStatus::Stopped);
    // The step in progress ran to its end; the next did not start.
    CHECK(run.snapshots.size() == stopAt + 1);
    CHECK(firstMessage(run) == "stopped before step " +
                                   std::to_string(stopAt + 2) + " of " +
                                   std::to_string(told.size()) + " (" +
                                   told[stopAt + 1] + "): asked by the test");
  }
}

TEST_CASE("a compile's models say the file, -D values and text they are of",
          "[app][measured]") {
  CompileWorker worker;
  CompileRequest request;
  request.id = 1;
  request.fileName = test::sourcePath("samples/nvidia/gemm_ws_persistent.mlir");
  request.source = test::readSource("samples/nvidia/gemm_ws_persistent.mlir");
  request.options.emitGoal = EmitKind::MLIR;
  request.options.defines = {{"dtype", "bf16"}, {"stages", "3"}};
  worker.submit(request);
  std::optional<CompileResult> result = waitForResult(worker);
  REQUIRE(result);
  REQUIRE(result->run->succeeded());
  CHECK(result->run->defines == request.options.defines);
  // The views are built from the run alone: what a recording is matched
  // against (MeasuredTimeline::notRecordedFrom).
  CHECK(result->timeline->file == request.fileName);
  CHECK(result->timeline->defines == request.options.defines);
  CHECK(result->timeline->sourceDigest == sourceDigest(request.source));
  CHECK(buildTimelineViews(*result->run, 0).defines == request.options.defines);
}

TEST_CASE("a newer request stops the compile in flight", "[app][stop]") {
  CompileWorker worker;
  std::atomic<size_t> lastStepOfFirst{0};
  std::atomic<bool> firstStarted{false}, secondSubmitted{false};
  CompileRequest first = saxpyRequest(1);
  // The first compile is in its third step when the second arrives.
  first.options.onStep = [&](size_t index, size_t, llvm::StringRef) {
    lastStepOfFirst = index;
    if (index == 2) {
      firstStarted = true;
      while (!secondSubmitted)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  worker.submit(std::move(first));
  while (!firstStarted)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  worker.submit(saxpyRequest(2));
  secondSubmitted = true;
  std::optional<CompileResult> result = waitForResult(worker);
  REQUIRE(result);
  // The replaced compile is not reported at all, and it stopped at once.
  CHECK(result->id == 2);
  CHECK(result->run->succeeded());
  CHECK(lastStepOfFirst == 2);
  CHECK_FALSE(worker.poll());
}

TEST_CASE("a compile past its limit is reported stopped and left behind",
          "[app][stop]") {
  unsigned leftBefore = CompileWorker::leftBehind();
  std::atomic<bool> release{false};
  std::atomic<bool> stuckStepEnded{false};
  {
    CompileWorker worker({}, /*limitSeconds=*/0.3);
    CompileRequest stuck = saxpyRequest(1);
    std::string stuckStep;
    stuck.options.onStep = [&](size_t index, size_t count,
                               llvm::StringRef name) {
      if (index != 3)
        return;
      stuckStep = name.str() + " (step 4 of " + std::to_string(count) + ")";
      while (!release) // a step that does not end until the test says so
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      stuckStepEnded = true;
    };
    auto start = std::chrono::steady_clock::now();
    worker.submit(std::move(stuck));
    CHECK(worker.busy());
    std::optional<CompileResult> result = waitForResult(worker);
    REQUIRE(result);
    double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    CHECK(waited >= 0.3);
    CHECK(waited < 10);
    CHECK(result->id == 1);
    CHECK(result->run->status == RunStatus::Stopped);
    std::string message = firstMessage(*result->run);
    INFO(message);
    CHECK(llvm::StringRef(message).starts_with(
        "stopped: the compile ran past its limit of 0.3 s in " + stuckStep +
        ", which has not ended"));
    // The stopped run still has a step to show and the source it was for.
    REQUIRE(result->run->snapshots.size() == 1);
    CHECK(result->run->snapshots[0].failed);
    CHECK_FALSE(result->run->source.empty());
    CHECK(CompileWorker::leftBehind() == leftBefore + 1);
    CHECK_FALSE(worker.busy());

    // The next request compiles on a fresh thread while the old one waits.
    // Its limit is generous: a whole compile under the sanitizers on a
    // 2-core machine can take longer than 0.3 s.
    worker.setLimit(120);
    worker.submit(saxpyRequest(2));
    result = waitForResult(worker);
    REQUIRE(result);
    CHECK(result->id == 2);
    CHECK(result->run->succeeded());
    CHECK_FALSE(stuckStepEnded);
  }
  // The worker is gone; the thread left behind ends on its own, stopping
  // at its next step, and reports nothing.
  release = true;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (CompileWorker::leftBehind() != leftBefore &&
         std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(stuckStepEnded);
  CHECK(CompileWorker::leftBehind() == leftBefore);
}

TEST_CASE("closing does not wait for a compile stuck in a step",
          "[app][stop]") {
  unsigned leftBefore = CompileWorker::leftBehind();
  std::atomic<bool> release{false}, stuck{false};
  std::chrono::steady_clock::time_point start;
  {
    CompileWorker worker;
    CompileRequest request = saxpyRequest(1);
    std::string stuckStep;
    request.options.onStep = [&](size_t index, size_t, llvm::StringRef name) {
      if (index != 2)
        return;
      stuckStep = name.str();
      stuck = true;
      while (!release)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    };
    worker.submit(std::move(request));
    while (!stuck)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // What the status bar shows meanwhile.
    CompileProgress progress = worker.progress();
    CHECK(progress.file == test::sourcePath("samples/nvidia/saxpy.mlir"));
    CHECK(progress.step == stuckStep);
    CHECK(progress.index == 2);
    CHECK(progress.count > 20);
    start = std::chrono::steady_clock::now();
  }
  double closing =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  CHECK(closing < 10);
  CHECK(CompileWorker::leftBehind() == leftBefore + 1);
  release = true;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (CompileWorker::leftBehind() != leftBefore &&
         std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(CompileWorker::leftBehind() == leftBefore);
}
