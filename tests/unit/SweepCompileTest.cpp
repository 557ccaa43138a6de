//===- SweepCompileTest.cpp - klx sweep's plan, compiles and results ------===//
//
// The compiler's side of a sweep (the axes, their combinations, names and
// folders, each variant compiled and bundled) and the window's (a result
// read back from either JSON, and the Sweep pane's worker compiling, then
// handing the bundles to a stand-in klx-run).
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "views/SweepResults.h"
#include "workers/SweepWorker.h"

#include "klx/Export/Sweep.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <csignal>
#include <thread>

using namespace klx;

namespace {

/// Waits (up to two minutes, the sanitizers are slow) for the worker's
/// result.
std::shared_ptr<const app::SweepResults> waitFor(app::SweepWorker &worker) {
  for (int i = 0; i < 1200; ++i) {
    if (std::shared_ptr<const app::SweepResults> results = worker.take())
      return results;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return nullptr;
}

std::string tempDir(const char *prefix) {
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory(prefix, dir));
  return std::string(dir);
}

/// Writes TEXT to PATH and makes it executable: a shell script that stands
/// in for klx-run.
void writeScript(const std::string &path, const std::string &text) {
  {
    // Closed before the permissions change, so the script is whole.
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    REQUIRE_FALSE(ec);
    os << text;
  }
  llvm::sys::fs::setPermissions(path, llvm::sys::fs::all_read |
                                          llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_write);
}

/// Whether process PID has ended, waiting up to five seconds for it.
bool processGone(int pid) {
  bool gone = false;
  for (int i = 0; i < 50 && !gone; ++i) {
    gone = ::kill(pid, 0) != 0;
    if (!gone)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return gone;
}

} // namespace

TEST_CASE("sweep: axes, combinations, names and folders", "[sweep]") {
  Defines given = {
      {"tile_n", "128,256"}, {"dtype", "bf16"}, {"stages", "3,4,5"}};
  llvm::Expected<std::vector<SweepAxis>> axes = sweepAxes(given);
  REQUIRE(!!axes);
  REQUIRE(axes->size() == 3);
  CHECK(axes->at(2).values == std::vector<std::string>{"3", "4", "5"});
  std::vector<Defines> all = sweepCombinations(*axes);
  REQUIRE(all.size() == 6);
  // The first axis varies slowest; an axis of one value is in every one.
  CHECK(all[0] ==
        Defines{{"tile_n", "128"}, {"dtype", "bf16"}, {"stages", "3"}});
  CHECK(all[5] ==
        Defines{{"tile_n", "256"}, {"dtype", "bf16"}, {"stages", "5"}});
  CHECK(sweepVariantName(all[4], *axes) == "tile_n=256 stages=4");
  CHECK(sweepFolderName(all[4], *axes) == "tile_n-256_stages-4");
  // A value with characters a folder name should not have.
  std::vector<SweepAxis> odd = {{"epilogue", {"tma", "a/b c"}}};
  CHECK(sweepFolderName({{"epilogue", "a/b c"}}, odd) == "epilogue-a-b-c");
  CHECK(sweepVariantName({{"dtype", "bf16"}}, {{"dtype", {"bf16"}}}) ==
        "as given");
  // Two values that make one folder name get two folders.
  SweepPlan alike;
  alike.axes = *sweepAxes({{"m", "a b,a-b"}});
  std::vector<PlannedVariant> planned = plannedVariants(alike);
  REQUIRE(planned.size() == 2);
  CHECK(planned[0].folder == "m-a-b");
  CHECK(planned[1].folder == "m-a-b-2");

  auto error = [](Defines defines) {
    llvm::Expected<std::vector<SweepAxis>> result = sweepAxes(defines);
    REQUIRE_FALSE(!!result);
    return llvm::toString(result.takeError());
  };
  CHECK(error({{"stages", "2"}, {"stages", "3"}}) ==
        "-D stages is given twice; list its values once: -D stages=V1,V2,...");
  CHECK(error({{"stages", "2,,3"}}) == "-D stages=2,,3: an empty value in "
                                       "the list");
  CHECK(error({{"stages", "2,3,2"}}) == "-D stages=2,3,2: '2' is listed twice");
  Defines tooMany = {
      {"a", "1,2,3,4,5,6,7,8"}, {"b", "1,2,3,4,5,6,7,8"}, {"c", "1,2,3,4,5"}};
  CHECK(llvm::StringRef(error(tooMany)).contains("more than 256 variants"));
}

TEST_CASE("sweep: a ladder's rungs, each on top of the one before", "[sweep]") {
  llvm::Expected<std::vector<SweepRung>> ladder = sweepLadder(
      {{"dtype", "bf16"}}, {"one tile: persistent=0,tile_n=128",
                            "128x256 tiles: tile_n=256", "group_m=4"});
  REQUIRE(!!ladder);
  REQUIRE(ladder->size() == 3);
  CHECK(ladder->at(0).name == "one tile");
  CHECK(ladder->at(0).defines ==
        Defines{{"dtype", "bf16"}, {"persistent", "0"}, {"tile_n", "128"}});
  CHECK(ladder->at(1).defines ==
        Defines{{"dtype", "bf16"}, {"persistent", "0"}, {"tile_n", "256"}});
  // A rung without a name is named by what it adds.
  CHECK(ladder->at(2).name == "group_m=4");
  CHECK(ladder->at(2).defines.size() == 4);

  SweepPlan plan;
  plan.ladder = *ladder;
  std::vector<PlannedVariant> planned = plannedVariants(plan);
  REQUIRE(planned.size() == 3);
  CHECK(planned[1].folder == "02-128x256-tiles");
  CHECK(planned[2].name == "group_m=4");
  llvm::json::Value json = sweepJson("gemm.mlir", plan, {});
  const llvm::json::Object &root = *json.getAsObject();
  CHECK(root.getBoolean("ordered") == true);
  // The axes are what the rungs change.
  REQUIRE(root.getArray("axes")->size() == 2);

  for (const char *bad : {"name: stages", "x: a.mlir"}) {
    INFO("rung '" << bad << "'");
    llvm::Expected<std::vector<SweepRung>> refused =
        sweepLadder({}, {std::string(bad)});
    CHECK_FALSE(!!refused);
    if (!refused)
      llvm::consumeError(refused.takeError());
  }
}

TEST_CASE("sweep: every variant compiled, bundled, and described", "[sweep]") {
  std::string dir = tempDir("klx-sweep-test");
  SweepPlan plan;
  plan.axes = *sweepAxes({{"stages", "4,5"}, {"tile_n", "256"}});
  plan.sizes = {"1024x512x256"};
  std::string path = "samples/nvidia/gemm_ws_persistent.mlir";
  size_t calls = 0;
  std::vector<SweepVariant> variants =
      compileSweep(test::readSource(path), path, CompileOptions(), plan, dir, 2,
                   [&](size_t done, size_t total, const SweepVariant &) {
                     ++calls;
                     CHECK(done <= total);
                     CHECK(total == 2);
                   });
  CHECK(calls == 2);
  REQUIRE(variants.size() == 2);
  // Plan order, whichever finished first.
  CHECK(variants[0].name == "stages=4");
  CHECK(variants[0].compiled);
  CHECK(variants[0].folder == "stages-4");
  REQUIRE(variants[0].resources);
  CHECK(variants[0].resources->spillStoreBytes == 0);
  CHECK(variants[0].roles == "producer, consumer");
  CHECK(llvm::StringRef(variants[0].timeline).starts_with("completes in "));
  CHECK(llvm::sys::fs::exists(dir + "/stages-4/kernel.cubin"));
  // Five stages of 128 x 256 tiles do not fit: the schedule's error, at
  // the kernel's line, and no folder.
  CHECK_FALSE(variants[1].compiled);
  CHECK(variants[1].folder.empty());
  CHECK(llvm::StringRef(variants[1].error).contains("more than the 232448"));
  CHECK(llvm::StringRef(variants[1].error).starts_with(path + ":"));
  CHECK_FALSE(llvm::sys::fs::exists(dir + "/stages-5"));

  llvm::Error written = writeSweepFile(dir, path, plan, variants);
  REQUIRE_FALSE(!!written);
  auto buffer = llvm::MemoryBuffer::getFile(dir + "/sweep.json");
  REQUIRE(buffer);
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  REQUIRE(!!json);
  const llvm::json::Object &root = *json->getAsObject();
  CHECK(root.getInteger("klx_sweep") == kSweepVersion);
  CHECK(root.getArray("sizes")->size() == 1);
  CHECK(root.getArray("variants")->size() == 2);
  llvm::sys::fs::remove_directories(dir);
}

TEST_CASE("sweep results: klx sweep --json and klx-run --sweep --json",
          "[sweep]") {
  // Measured on the H100 on 2026-11-27 (tests/fixtures/sweep/).
  llvm::Expected<app::SweepResults> both = app::parseSweepResults(
      test::readSource("tests/fixtures/sweep/h100-ws.json"));
  REQUIRE(!!both);
  CHECK(both->device == "NVIDIA H100 80GB HBM3");
  CHECK(both->variants.size() == 8);
  CHECK(both->variants[0].registers == "162");
  CHECK(both->variants[0].spills == "0/0");
  REQUIRE(both->sizes.size() == 2);
  CHECK(both->sizes[0].size == "8192x8192x8192");
  REQUIRE(both->sizes[0].bars.size() == 8);
  const app::SweepBar &best = both->sizes[0].bars[0];
  CHECK(best.rank == 1);
  CHECK(best.ok());
  CHECK(best.variant == "warp_specialize=0 stages=4 group_m=2");
  CHECK(best.tflops == Approx(736.101));
  CHECK(best.ratioMin <= best.ratio);
  CHECK(best.ratio <= best.ratioMax);
  // Ranked: each bar no faster than the one before.
  for (size_t i = 1; i < both->sizes[0].bars.size(); ++i)
    CHECK(both->sizes[0].bars[i].tflops <= both->sizes[0].bars[i - 1].tflops);
  CHECK(both->sizes[0].cublasTflops > 600);
  CHECK(both->sizes[0].largestTflops() >= best.tflops);

  llvm::Expected<app::SweepResults> runs = app::parseSweepResults(
      test::readSource("tests/fixtures/sweep/h100-ws-runs.json"));
  REQUIRE(!!runs);
  CHECK(runs->variants.empty());
  CHECK(runs->sizes.size() == 2);
  CHECK(runs->sizes[1].bars[0].variant == best.variant);

  auto error = [](llvm::StringRef text) {
    llvm::Expected<app::SweepResults> result = app::parseSweepResults(text);
    REQUIRE_FALSE(!!result);
    return llvm::toString(result.takeError());
  };
  CHECK(llvm::StringRef(error("{\"klx_sweep\": 1,\n  \"file\": }"))
            .contains("2:11"));
  CHECK(llvm::StringRef(error("{\"x\": 1}")).contains("not a sweep"));
  CHECK(llvm::StringRef(error("{\"klx_sweep_result\": 1}"))
            .contains("no 'sizes' array"));
}

TEST_CASE("sweep results: a ladder in its order", "[sweep]") {
  // The H100's ladder of 2026-11-27 with its deferred-release rung
  // (bench/gpu/ladder.sh, klx-run --sweep --json).
  llvm::Expected<app::SweepResults> ladder = app::parseSweepResults(
      test::readSource("tests/fixtures/sweep/h100-ladder.json"));
  REQUIRE(!!ladder);
  REQUIRE(ladder->sizes.size() == 2);
  const app::SweepSizeResult &size = ladder->sizes[0];
  CHECK(size.ordered);
  REQUIRE(size.bars.size() == 10);
  CHECK(llvm::StringRef(size.bars[0].variant).starts_with("TMA + wgmma"));
  CHECK(size.bars[2].variant == "4 stages, each released after its MMA");
  CHECK(llvm::StringRef(size.bars[3].variant).starts_with("one MMA in flight"));
  CHECK(size.bars[2].tflops < size.bars[3].tflops);
  CHECK(size.bars[8].variant == "clusters of 2 sharing B (multicast)");
  CHECK(size.bars[9].variant == "tile order, groups of 4 rows");
  CHECK(size.bars[9].rank == 1);
  CHECK(size.bars[0].tflops < size.bars[9].tflops);
}

TEST_CASE("sweep results: the pane's -D lists", "[sweep]") {
  llvm::Expected<Defines> lists =
      app::parseSweepAxesText("  tile_n=128,256 stages=3,4;dtype=bf16 ");
  REQUIRE(!!lists);
  CHECK(*lists ==
        Defines{{"tile_n", "128,256"}, {"stages", "3,4"}, {"dtype", "bf16"}});
  for (const char *bad : {"", "   ", "stages", "stages=", "=3,4"}) {
    INFO("text: '" << bad << "'");
    llvm::Expected<Defines> refused = app::parseSweepAxesText(bad);
    CHECK_FALSE(!!refused);
    if (!refused)
      llvm::consumeError(refused.takeError());
  }
}

TEST_CASE("sweep worker: compiled here, ranked by a stand-in klx-run",
          "[sweep]") {
  std::string dir = tempDir("klx-sweep-worker");
  // Answers as klx-run --sweep does, after checking that the bundles and
  // sweep.json it was handed are there.
  std::string runner = dir + "/fake-klx-run.sh";
  writeScript(runner,
              "#!/bin/sh\n"
              "echo \"$@\" > " +
                  dir +
                  "/args\n"
                  "test -f \"$2/sweep.json\" && test -f "
                  "\"$2/stages-3/kernel.cubin\" || exit 1\n"
                  "cat " +
                  test::sourcePath("tests/fixtures/sweep/h100-bf16-runs.json") +
                  "\n");
  app::SweepRequest request;
  request.fileName = "samples/nvidia/gemm_pingpong.mlir";
  request.source = test::readSource(request.fileName);
  request.plan.axes = *sweepAxes({{"stages", "2,3"}});
  request.plan.sizes = {"4096x4096x4096"};
  request.runner = runner;
  app::SweepWorker worker;
  REQUIRE(worker.start(request));
  CHECK_FALSE(worker.start(request)); // one sweep at a time
  std::shared_ptr<const app::SweepResults> results = waitFor(worker);
  REQUIRE(results);
  INFO("not run: " << results->notRun);
  CHECK(results->notRun.empty());
  CHECK(results->variants.size() == 2);
  CHECK(results->variants[1].name == "stages=3");
  CHECK(results->device == "NVIDIA H100 80GB HBM3");
  CHECK(results->sizes.size() == 2);
  auto argsFile = llvm::MemoryBuffer::getFile(dir + "/args");
  REQUIRE(argsFile);
  std::string args = (*argsFile)->getBuffer().str();
  CHECK(llvm::StringRef(args).starts_with("--sweep "));
  CHECK(llvm::StringRef(args).contains("--json --size=4096x4096x4096"));
  CHECK_FALSE(worker.progress().running);

  // Without a runner: the compile table, and why nothing ran.
  request.runner.clear();
  request.notRun = "not run: no CUDA device";
  REQUIRE(worker.start(request));
  results = waitFor(worker);
  REQUIRE(results);
  CHECK(results->sizes.empty());
  CHECK(llvm::StringRef(results->notRun)
            .starts_with("not run: no CUDA "
                         "device; the bundles: "));
  CHECK(results->variants.size() == 2);

  // Closing the window while klx-run runs kills it: a stand-in that would
  // sleep for a minute, and the worker destroyed once it is running.
  std::string sleeper = dir + "/sleeping-klx-run.sh";
  writeScript(sleeper, "#!/bin/sh\necho $$ > " + dir +
                           "/pid\nsleep 60\ntouch " + dir + "/woke\n");
  request.runner = sleeper;
  request.notRun.clear();
  auto started = std::chrono::steady_clock::now();
  {
    app::SweepWorker closing;
    REQUIRE(closing.start(request));
    for (int i = 0; i < 1200 && !llvm::StringRef(closing.progress().phase)
                                     .starts_with("running on the GPU");
         ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(llvm::StringRef(closing.progress().phase)
              .starts_with("running on the GPU"));
    // The phase is said as klx-run is started, before the stand-in's shell
    // has written its pid: closed that soon, the kill came first and the
    // check below had no pid to look for (seen once under ASan).
    uint64_t pidBytes = 0;
    for (int i = 0;
         i < 300 &&
         (llvm::sys::fs::file_size(dir + "/pid", pidBytes) || pidBytes == 0);
         ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  INFO("the sweep took " << seconds << " s to compile and be closed");
  CHECK(seconds < 50);
  // The stand-in was killed, not left to sleep behind a detached thread.
  auto pidFile = llvm::MemoryBuffer::getFile(dir + "/pid");
  REQUIRE(pidFile);
  int pid = 0;
  REQUIRE_FALSE((*pidFile)->getBuffer().trim().getAsInteger(10, pid));
  bool gone = processGone(pid);
  CHECK(gone);
  llvm::sys::fs::remove_directories(dir);
}
