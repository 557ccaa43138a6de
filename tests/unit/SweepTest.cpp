//===- SweepTest.cpp - klx-run --sweep without a GPU ----------------------===//
//
// What the sweep makes of each child's --json (or of a child that printed
// none), the per-variant summaries and the ranking, the three output
// formats, the worker threads (with a shell script standing in for
// klx-run), and the "no CUDA device" path. SweepPlanTest.cpp tests
// sweep.json and the order of the jobs; ChildProcessTest.cpp the children
// alone.
//
//===----------------------------------------------------------------------===//

#include "SweepTestSupport.h"

#include "klx/Runtime/ChildProcess.h"
#include "klx/Runtime/CudaDriver.h"
#include "klx/Runtime/Json.h"
#include "klx/Runtime/Sweep.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/stat.h>

using namespace klx::rt;
using namespace klx::test;

namespace {

const char *const kHangJson =
    R"j({"status":"hang","message":"no completion after 1500 ms (checked )j"
    R"j(launch)","device":"NVIDIA H100 80GB HBM3","size":"2048x2048x1024"})j";
const char *const kWrongJson =
    R"({"status":"wrong_result","message":"rel. error 5.00e-01 above )"
    R"(1.0e-03","device":"NVIDIA H100 80GB HBM3","size":"2048x2048x1024",)"
    R"("cpu_check":{"relative_error":0.5},)"
    R"("cublas_check":{"relative_error":null}})";

/// One process per variant of kSweep: fast, slow, hang, wrong, garbage.
std::vector<SweepProcess> cannedProcesses() {
  return {
      readSweepChild({0, 0, 0}, 0, child(passedJson(600, 500, 450), 0)),
      readSweepChild({1, 0, 0}, 1, child(passedJson(300, 500, 290, 2e-06), 0)),
      readSweepChild({2, 0, 0}, 0, child(kHangJson, 3)),
      readSweepChild({3, 0, 0}, 1, child(kWrongJson, 1)),
      readSweepChild({5, 0, 0}, 0,
                     child("Segmentation fault", 139, "klx-run: boom\nmore")),
  };
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

} // namespace

TEST_CASE("sweep: a child's JSON, or how it ended", "[runtime][sweep]") {
  SweepProcess fast =
      readSweepChild({0, 0, 0}, 1, child(passedJson(600, 500, 450), 0));
  CHECK(fast.passed());
  CHECK(fast.gpu == 1);
  CHECK(fast.device == "NVIDIA H100 80GB HBM3");
  CHECK(fast.size == "2048x2048x1024");
  CHECK(fast.tflops == 600);
  CHECK(fast.cublasTflops == 500);
  CHECK(fast.ratio() == Approx(0.9)); // alternating, not alone
  CHECK(fast.cpuRelativeError == Approx(1.25e-06));
  CHECK(fast.cublasRelativeError == 0.0);

  SweepProcess hang = readSweepChild({2, 0, 0}, 0, child(kHangJson, 3));
  CHECK(hang.status == "hang");
  CHECK(hang.message == "no completion after 1500 ms (checked launch)");
  CHECK_FALSE(hang.cpuRelativeError);
  CHECK(hang.ratio() == 0);

  SweepProcess wrong = readSweepChild({3, 0, 0}, 0, child(kWrongJson, 1));
  CHECK(wrong.status == "wrong_result");
  REQUIRE(wrong.cublasRelativeError);
  CHECK(std::isinf(*wrong.cublasRelativeError)); // null: non-finite

  SweepProcess garbage = readSweepChild(
      {5, 0, 0}, 0, child("Segmentation fault", 139, "\nklx-run: boom\nmore"));
  CHECK(garbage.status == "error");
  CHECK(garbage.message == "exited with 139: klx-run: boom");

  ChildExit killed = child("{\"status\":", -1);
  killed.signal = SIGSEGV;
  CHECK(readSweepChild({0, 0, 0}, 0, killed).message ==
        "killed by SIGSEGV and printed no result");

  ChildExit stuck;
  stuck.timedOut = true;
  stuck.seconds = 3000;
  CHECK(readSweepChild({0, 0, 0}, 0, stuck).status == "hang");
  CHECK(readSweepChild({0, 0, 0}, 0, stuck).message ==
        "killed after 3000 s without a result");

  ChildExit missing;
  missing.startError = "/nonexistent/klx-run: No such file or directory";
  CHECK(readSweepChild({0, 0, 0}, 0, missing).message ==
        "cannot start /nonexistent/klx-run: No such file or directory");

  CHECK(sweepExitCode("passed") == 0);
  CHECK(sweepExitCode("hang") == 3);
  CHECK(sweepExitCode("driver_error") == 2);
  CHECK(sweepExitCode("no_device") == 2);
  CHECK(sweepExitCode("kernel_fault") == 1);
  CHECK(sweepExitCode("error") == 1);
}

TEST_CASE("sweep: summaries and ranking", "[runtime][sweep]") {
  SweepPlan p = plan();
  SweepSummary s = summarizeSweep(p, cannedProcesses());
  CHECK(s.device == "NVIDIA H100 80GB HBM3");
  CHECK(s.exitCode == 3); // a hang is the worst
  REQUIRE(s.tables.size() == 1);
  CHECK(s.tables[0].size == "2048x2048x1024");
  const std::vector<SweepRow> &rows = s.tables[0].rows;
  REQUIRE(rows.size() == 6);
  // Passing by TFLOP/s, then failed (in the plan's order), then not
  // compiled.
  std::vector<std::string> order;
  for (const SweepRow &row : rows)
    order.push_back(p.variants[row.variant].name);
  CHECK(order == std::vector<std::string>{"tile_n=64", "tile_n=128",
                                          "tile_n=192", "tile_n=256",
                                          "tile_n=384", "tile_n=320"});
  CHECK(rows[0].rank == 1);
  CHECK(rows[1].rank == 2);
  CHECK(rows[2].rank == 0);
  CHECK(rows[0].status == "passed");
  CHECK(rows[0].tflops == 600);
  CHECK(rows[0].cublasTflops == 500);
  CHECK(rows[0].gpus == std::vector<int>{0});
  CHECK(rows[1].ratio == Approx(0.58));
  CHECK(rows[1].cpuRelativeError == Approx(2e-06));
  CHECK(rows[2].status == "hang");
  CHECK(rows[2].passed == 0);
  CHECK(rows[2].processes == 1);
  CHECK(rows[2].message ==
        "hang: no completion after 1500 ms (checked launch)");
  CHECK(rows[3].status == "wrong_result");
  CHECK(rows[3].cpuRelativeError == 0.5);
  CHECK(rows[4].status == "error");
  CHECK(rows[4].message == "error: exited with 139: klx-run: boom");
  CHECK(rows[5].status == "not_compiled");
  CHECK(rows[5].processes == 0);
  CHECK(contains(rows[5].message, "240 KB of shared memory"));

  // Without the hang the worst is a wrong result: 1. All passing: 0.
  std::vector<SweepProcess> noHang = cannedProcesses();
  noHang.erase(noHang.begin() + 2);
  CHECK(summarizeSweep(p, noHang).exitCode == 1);
  std::vector<SweepProcess> passing(noHang.begin(), noHang.begin() + 2);
  CHECK(summarizeSweep(p, passing).exitCode == 0);
  // A driver error alone: 2.
  passing.push_back(readSweepChild(
      {3, 0, 0}, 0,
      child(R"({"status":"driver_error","message":"cuMemAlloc failed"})", 2)));
  CHECK(summarizeSweep(p, passing).exitCode == 2);
}

TEST_CASE("sweep: the ratio over three processes", "[runtime][sweep]") {
  SweepPlan p = plan();
  std::vector<SweepProcess> processes = {
      readSweepChild({0, 0, 0}, 0, child(passedJson(610, 500, 400), 0)),
      readSweepChild({0, 0, 1}, 1, child(passedJson(600, 510, 475), 0)),
      readSweepChild({0, 0, 2}, 0, child(passedJson(650, 520, 450, 3e-06), 0)),
      // tile_n=128: two passed, one hung; its numbers are the two's.
      readSweepChild({1, 0, 0}, 0, child(passedJson(300, 500, 250), 0)),
      readSweepChild({1, 0, 1}, 1, child(kHangJson, 3)),
      readSweepChild({1, 0, 2}, 0, child(passedJson(340, 500, 300), 0)),
  };
  SweepSummary s = summarizeSweep(p, processes);
  const SweepRow &row = s.tables[0].rows[0];
  CHECK(p.variants[row.variant].name == "tile_n=64");
  CHECK(row.processes == 3);
  CHECK(row.passed == 3);
  CHECK(row.tflops == 610);       // median of 600, 610, 650
  CHECK(row.cublasTflops == 510); // median of 500, 510, 520
  // 400/500 = 0.8, 475/510 = 0.931, 450/520 = 0.865
  CHECK(row.ratio == Approx(450.0 / 520));
  CHECK(row.ratioMin == Approx(0.8));
  CHECK(row.ratioMax == Approx(475.0 / 510));
  CHECK(row.cpuRelativeError == Approx(3e-06)); // the worst
  CHECK(row.gpus == std::vector<int>{0, 1});

  const SweepRow &mixed = s.tables[0].rows[1];
  CHECK(p.variants[mixed.variant].name == "tile_n=128");
  CHECK(mixed.status == "hang"); // not passing: one process hung
  CHECK(mixed.rank == 0);
  CHECK(mixed.passed == 2);
  CHECK(mixed.tflops == 320);
  CHECK(mixed.ratio == Approx(0.55));
  CHECK(mixed.ratioMin == Approx(0.5));
  CHECK(mixed.ratioMax == Approx(0.6));
  CHECK(s.exitCode == 3);
  CHECK(contains(formatSweepText(p, s), "| 0.87x [0.80, 0.93] |"));
}

TEST_CASE("sweep: the text table", "[runtime][sweep]") {
  SweepPlan p = plan();
  std::string text = formatSweepText(p, summarizeSweep(p, cannedProcesses()));
  std::vector<std::string> l = lines(text);
  REQUIRE(l.size() == 14);
  CHECK(l[0] == "# klx sweep of samples/nvidia/gemm_ws_persistent.mlir on "
                "NVIDIA H100 80GB HBM3");
  CHECK(l[2] == "## 2048x2048x1024");
  CHECK(l[4] == "| rank | variant | ok | TFLOP/s | cuBLAS TFLOP/s | klx / "
                "cuBLAS | rel. err (CPU / cuBLAS) | note |");
  CHECK(l[6] == "| 1 | tile_n=64 | 1/1 | 600.0 | 500.0 | 0.90x | 1.25e-06 / "
                "0 | 168 regs; GPU 0 |");
  CHECK(l[8] == "| - | tile_n=192 | 0/1 | - | - | - | - / - | hang: no "
                "completion after 1500 ms (checked launch); GPU 0 |");
  CHECK(l[9] == "| - | tile_n=256 | 0/1 | - | - | - | 5.00e-01 / inf | "
                "wrong_result: rel. error 5.00e-01 above 1.0e-03; GPU 1 |");
  CHECK(l[11] == "| - | tile_n=320 | - | - | - | - | - | not compiled: "
                 "gemm.mlir:12:3: error: 240 KB of shared memory, over 227 "
                 "KB |");
  CHECK(l[12].empty());
  CHECK(l[13] == "best: 2048x2048x1024: tile_n=64 (600.0 TFLOP/s, 0.90x "
                 "cuBLAS)");
  // No variant passed: the last line says so.
  std::vector<SweepProcess> failing = cannedProcesses();
  failing.erase(failing.begin(), failing.begin() + 2);
  CHECK(lines(formatSweepText(p, summarizeSweep(p, failing))).back() ==
        "best: 2048x2048x1024: none passed");
}

TEST_CASE("sweep: CSV and JSON", "[runtime][sweep]") {
  SweepPlan p = plan();
  SweepSummary s = summarizeSweep(p, cannedProcesses());
  std::vector<std::string> csv = lines(formatSweepCsv(p, s));
  REQUIRE(csv.size() == 7);
  CHECK(csv[0] == "size,rank,variant,tile_n,status,processes,passed,tflops,"
                  "cublas_tflops,ratio,ratio_min,ratio_max,cpu_relative_error,"
                  "cublas_relative_error,registers,spill_bytes,gpus,message");
  CHECK(csv[1] == "2048x2048x1024,1,tile_n=64,64,passed,1,1,600,500,0.9,0.9,"
                  "0.9,1.25e-06,0,168,0,0,");
  CHECK(csv[4] == "2048x2048x1024,,tile_n=256,256,wrong_result,1,0,,,,,,0.5,"
                  "inf,,,1,wrong_result: rel. error 5.00e-01 above 1.0e-03");
  // The compiler's message has a comma: quoted.
  CHECK(csv[6] == "2048x2048x1024,,tile_n=320,320,not_compiled,0,0,,,,,,,,,,,"
                  "\"gemm.mlir:12:3: error: 240 KB of shared memory, over 227 "
                  "KB\"");

  JsonError error;
  std::optional<Json> json = parseJson(formatSweepJson(p, s), error);
  REQUIRE(json);
  CHECK((*json)["klx_sweep_result"].get<double>() == 1);
  CHECK((*json)["device"] == "NVIDIA H100 80GB HBM3");
  CHECK((*json)["exit_code"].get<double>() == 3);
  const Json &size = (*json)["sizes"].at(0);
  CHECK(size["size"] == "2048x2048x1024");
  const Json &rows = size["rows"];
  REQUIRE(rows.size() == 6);
  CHECK(rows[0]["rank"].get<double>() == 1);
  CHECK(rows[0]["variant"] == "tile_n=64");
  CHECK(rows[0]["defines"]["tile_n"] == "64");
  CHECK(rows[0]["status"] == "passed");
  CHECK(rows[0]["tflops"].get<double>() == 600);
  CHECK(rows[0]["ratio"].get<double>() == Approx(0.9));
  CHECK(rows[0]["cpu_relative_error"].get<double>() == Approx(1.25e-06));
  CHECK(rows[2]["rank"].is_null());
  CHECK(rows[2]["status"] == "hang");
  CHECK(rows[2]["tflops"].is_null());
  CHECK(rows[2]["processes"].get<double>() == 1);
  CHECK(rows[2]["passed"].get<double>() == 0);
  CHECK(rows[5]["status"] == "not_compiled");
  CHECK(contains(rows[5]["message"].get<std::string>(), "shared memory"));
}

TEST_CASE("sweep: progress lines", "[runtime][sweep]") {
  SweepPlan p = plan();
  std::vector<SweepProcess> processes = cannedProcesses();
  CHECK(formatSweepProgress(3, 12, p, processes[0]) ==
        "[3/12] tile_n=64 2048x2048x1024 on GPU 0: 600.0 TFLOP/s, 0.90x "
        "cuBLAS");
  CHECK(formatSweepProgress(4, 12, p, processes[2]) ==
        "[4/12] tile_n=192 2048x2048x1024 on GPU 0: hang (no completion "
        "after 1500 ms (checked launch))");
}

TEST_CASE("sweep: GPU lists and CUDA_VISIBLE_DEVICES", "[runtime][sweep]") {
  std::string error;
  CHECK(parseGpuList("all", 3, error) == std::vector<int>{0, 1, 2});
  CHECK(parseGpuList("2,0", 3, error) == std::vector<int>{2, 0});
  CHECK_FALSE(parseGpuList("0,3", 3, error));
  CHECK(error == "--gpus=0,3: there is no GPU 3; the driver sees 3 (0 to 2)");
  CHECK_FALSE(parseGpuList("1,1", 3, error));
  CHECK(error == "--gpus=1,1: GPU 1 is named twice");
  CHECK_FALSE(parseGpuList("0,", 3, error));
  CHECK(error ==
        "--gpus=0,: \"\" is not a device ordinal (all, or a list like 0,1)");
  CHECK_FALSE(parseGpuList("all", 0, error));
  CHECK(error == "no CUDA device");

  CHECK(childVisibleDevices(nullptr, 1) == "1");
  // This process sees physical GPUs 4 and 6 as 0 and 1.
  CHECK(childVisibleDevices("4,6", 1) == "6");
  CHECK(childVisibleDevices("GPU-aaaa,GPU-bbbb", 0) == "GPU-aaaa");
}

TEST_CASE("sweep: one worker per GPU, one child per job", "[runtime][sweep]") {
  // A stand-in klx-run: passes, reporting its arguments and GPU.
  TempDir dir;
  dir.write("klx-run",
            "#!/bin/sh\n"
            "case \"$1\" in */fast) t=600 ;; *) t=300 ;; esac\n"
            "printf '{\"status\":\"passed\",\"message\":\"%s on %s\",'"
            " \"$*\" \"$CUDA_VISIBLE_DEVICES\"\n"
            "printf '\"device\":\"Fake\",\"tflops\":%s}\\n' $t\n",
            /*executable=*/true);
  SweepPlan p = plan();
  p.sizes = {"128x128x64", "256x256x64"};
  SweepOptions options = standInOptions(dir);
  options.repeat = 5;
  options.timeoutMs = 100;
  std::vector<SweepJob> jobs = planSweepJobs(p, 2);
  REQUIRE(jobs.size() == 20);
  std::vector<std::string> progress;
  std::vector<SweepProcess> results =
      runSweepJobs(p, jobs, {3, 5}, options,
                   [&](const std::string &line) { progress.push_back(line); });
  REQUIRE(results.size() == jobs.size());
  CHECK(progress.size() == jobs.size());
  CHECK(progress.back().rfind("[20/20] ", 0) == 0);
  std::set<int> gpus;
  const char *parent = std::getenv("CUDA_VISIBLE_DEVICES");
  for (size_t i = 0; i < jobs.size(); ++i) {
    const SweepProcess &r = results[i];
    INFO(r.message);
    CHECK(r.passed());
    CHECK(r.job.variant == jobs[i].variant);
    gpus.insert(r.gpu);
    std::string bundle = p.variants[jobs[i].variant].bundle;
    CHECK(r.message == "/sweep/" + bundle +
                           " --json --repeat=5 --timeout-ms=100 --size=" +
                           p.sizes[jobs[i].size] + " on " +
                           childVisibleDevices(parent, r.gpu));
  }
  CHECK(gpus == std::set<int>{3, 5});
  SweepSummary s = summarizeSweep(p, results);
  CHECK(s.exitCode == 0);
  CHECK(p.variants[s.tables[1].rows[0].variant].bundle == "fast");
  CHECK(s.tables[1].rows[0].processes == 2);
  CHECK(sweepBackstopMs(options) == 120000); // at least two minutes
}

TEST_CASE("sweep: without a GPU, exit 2 and no CUDA device",
          "[runtime][sweep]") {
  TempDir dir;
  dir.write("sweep.json", kSweep);
  SweepOptions options;
  options.dir = dir.path;

  // Errors in the plan come first, GPU or not.
  options.dir = dir.path + "/missing";
  SweepResult missing = runSweep(options, {});
  CHECK(missing.exitCode == 1);
  CHECK(missing.error == dir.path + "/missing/sweep.json: cannot read it (is " +
                             dir.path +
                             "/missing a folder written by klx "
                             "sweep?)");
  options.dir = dir.path;

#ifdef KLX_BINARY
  // The real klx-run, told the driver is elsewhere.
  std::string binary = KLX_BINARY;
  std::string klxRun = binary.substr(0, binary.rfind('/')) + "/klx-run";
  ChildExit cli =
      runChild({klxRun, "--sweep", dir.path},
               {{"KLX_LIBCUDA", "/nonexistent/libcuda.so.1"}}, 60000);
  CHECK(cli.exitCode == 2);
  CHECK(cli.out.empty());
  CHECK(cli.err.rfind("klx-run: no CUDA device: the driver does not load: "
                      "/nonexistent/libcuda.so.1",
                      0) == 0);
  dir.write("bad/sweep.json", "{\"klx_sweep\": 1,\n \"variants\": [}");
  cli = runChild({klxRun, "--sweep", dir.path + "/bad"}, {}, 60000);
  CHECK(cli.exitCode == 1);
  CHECK(cli.err == "klx-run: " + dir.path +
                       "/bad/sweep.json:2:15: syntax error while parsing value "
                       "- unexpected '}'; expected '[', '{', or a literal\n");
#endif

  // In this process the driver loads once: a GPU machine may have it.
  setenv("KLX_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  std::string why;
  bool driver = cu::loadDriver(why) != nullptr;
  unsetenv("KLX_LIBCUDA");
  if (driver) {
    WARN("the CUDA driver is already loaded here: no-GPU path not checked");
    return;
  }
  SweepResult result = runSweep(options, {});
  CHECK(result.exitCode == 2);
  CHECK(result.error.rfind("no CUDA device", 0) == 0);
  CHECK(result.output.empty());
}
