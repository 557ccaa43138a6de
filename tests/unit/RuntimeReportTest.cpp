//===- RuntimeReportTest.cpp - klx-run's text report ----------------------===//
//
// The report klx-run prints, whole, for results built here: every line a
// traced gemm and a hung gather give.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/CriticalPath.h"
#include "klx/Runtime/HostMath.h"
#include "klx/Runtime/Json.h"
#include "klx/Runtime/Runner.h"
#include "klx/Runtime/Trace.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

using namespace klx::rt;

namespace {

/// A result from an H100's device line.
LaunchResult onH100() {
  LaunchResult r;
  r.device = "NVIDIA H100 80GB HBM3";
  r.capability = 90;
  r.smCount = 132;
  r.clockKHz = 1980000;
  return r;
}

/// A passed gemm with every part of the report: cuBLAS checked and timed,
/// a trace recorded twice with its roles' waits.
LaunchResult tracedGemmResult() {
  LaunchResult r = onH100();
  r.peakTflops = 1070.4;
  r.peakFormula = "132 SMs x 4096 flop/clk x 1980 MHz";
  r.entry = "gemm";
  r.size = {2048, 2048, 2048};
  r.dtype = DType::BF16;
  r.grid = {132, 1, 1};
  r.block = {384, 1, 1};
  r.dynamicSharedBytes = 197632;
  r.inputSets = 4;
  r.threshold = 1e-3;
  r.cpuCheck.checked = 2048 * 64;
  r.cpuCheck.relative = 2e-7;
  r.cpuRows = 64;
  r.blasChecked = true;
  r.blasCheck.checked = 2048 * 2048;
  r.kernel = {{0.03, 0.029, 0.031}, 0.0300, 0.0290, 0.0310};
  r.blasTimed = true;
  r.blas = {{0.028}, 0.0280, 0.0280, 0.0280};
  r.kernelAlternating = {{0.0301}, 0.0301, 0.0301, 0.0301};
  r.traced = true;
  r.tracePath = "/tmp/t.json";
  r.traceEvents = 36296;
  r.traceDropped = 3;
  r.traceWarps = 1536;
  r.traceCtas = 128;
  r.traceSms = 128;
  r.traceCtasNotInGrid = {140, 200};
  r.traceCapacity = 216;
  r.traceFirstCapacity = 120;
  r.traceRecordedAgain = true;
  r.tracedKernel = {{0.0306}, 0.0306, 0.0306, 0.0306};
  r.traceOutputChecked = 2048 * 2048;
  r.waitingShare = {{"consumer", 0.19}, {"producer", 0.11}};
  return r;
}

/// A gather that hung, with what the simulator said of it.
LaunchResult hungGatherResult() {
  LaunchResult r = onH100();
  r.status = RunStatus::Hang;
  r.message = "the kernel did not finish within 10000 ms";
  r.simulated = {"completes in 812 cycles"};
  r.peakGBs = 3352;
  r.entry = "gather";
  r.gather = "y[i] = x[idx[i] + 2] + 1";
  r.gatherBytes = 12 << 20;
  r.size = {1 << 20, 1, 1};
  r.grid = {4096, 1, 1};
  r.block = {256, 1, 1};
  r.cpuCheck.checked = 1 << 20;
  r.kernel = {{0.01}, 0.0100, 0.0100, 0.0100};
  return r;
}

} // namespace

TEST_CASE("runner: the text report, line by line", "[runtime]") {
  CHECK(
      formatText(tracedGemmResult()) ==
      "device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 1980 MHz)\n"
      "launch: gemm 2048x2048x2048 bf16, grid (132,1,1), block 384, 197632 "
      "bytes dynamic shared memory, 4 input set(s) rotated\n"
      "check: 64 of 2048 rows vs CPU (double): rel. error 2.00e-07, max abs "
      "0.00e+00, 0 non-finite of 131072\n"
      "check: every element vs cuBLAS: rel. error 0.00e+00, max abs 0.00e+00, "
      "0 non-finite of 4194304\n"
      "check: threshold 1.0e-03 (f32 sums of exact products)\n"
      "time: median 0.0300 ms (min 0.0290, max 0.0310, 3 runs)\n"
      "throughput: 572.7 TFLOP/s, 1118.5 GB/s, 53.5% of peak 1070 TFLOP/s (132 "
      "SMs x 4096 flop/clk x 1980 MHz)\n"
      "cuBLAS: median 0.0280 ms, 613.6 TFLOP/s; alternating launch by launch, "
      "klx 570.8 TFLOP/s: klx / cuBLAS = 0.93x\n"
      "trace: 36296 events from 1536 warps of 128 CTAs on 128 SMs -> "
      "/tmp/t.json\n"
      "trace: CTAs 140, 200 of --trace-ctas not in this launch's grid of 132 "
      "CTAs: nothing recorded for them\n"
      "trace: the instrumented build's D equals the kernel's, bit for bit "
      "(4194304 elements, the tiles' padding included)\n"
      "trace: buffers of 216 events per warp (a warp filled the first "
      "estimate, 120, so the kernel was recorded again with room for the most "
      "one warp recorded); 3 events past a full buffer were counted, not "
      "written\n"
      "trace: instrumentation overhead +2.0% (median 0.0306 ms vs 0.0300 ms)\n"
      "trace: consumer waits on barriers 19% of its time\n"
      "trace: producer waits on barriers 11% of its time\n"
      "result: passed\n");
  CHECK(formatText(hungGatherResult()) ==
        "device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 1980 MHz)\n"
        "launch: gather 1048576x1x1 f16, grid (4096,1,1), block 256, 0 bytes "
        "dynamic shared memory, 1 input set(s) rotated\n"
        "gather: y[i] = x[idx[i] + 2] + 1\n"
        "check: every element vs CPU (f32, exact): rel. error 0.00e+00, max "
        "abs 0.00e+00, 0 non-finite of 1048576\n"
        "time: median 0.0100 ms (min 0.0100, max 0.0100, 1 runs)\n"
        "throughput: 1258.3 GB/s (13 MB read and written per launch), 37.5% of "
        "the DRAM peak 3352 GB/s\n"
        "result: hang: the kernel did not finish within 10000 ms\n"
        "simulator: completes in 812 cycles\n");
}

TEST_CASE("runner: a trace count over the grid is said, in text and JSON",
          "[runtime]") {
  LaunchResult r = tracedGemmResult();
  r.traceCtasNotInGrid.clear();
  r.traceCtasOverGrid = 200;
  std::string text = formatText(r);
  CHECK(text.find("trace: --trace-ctas=200 asks for more CTAs than this "
                  "launch's grid of 132: every one was recorded\n") !=
        std::string::npos);
  CHECK(text.find("not in this launch's grid") == std::string::npos);
  auto json = Json::parse(formatJson(r));
  CHECK(json["trace"]["ctas_over_grid"] == 200);
  CHECK(json["trace"]["ctas_not_in_grid"].empty());

  r.traceCtasOverGrid = 0;
  CHECK(formatText(r).find("asks for more CTAs") == std::string::npos);
  CHECK(Json::parse(formatJson(r))["trace"]["ctas_over_grid"] == 0);
}
