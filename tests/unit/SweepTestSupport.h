//===- SweepTestSupport.h - A sweep's plan and children, canned -*- C++ -*-===//
//
// What SweepTest.cpp and SweepPlanTest.cpp both feed klx-run's sweep: the
// sweep.json `klx sweep` writes and a child's --json, made by hand.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_TESTS_UNIT_SWEEPTESTSUPPORT_H
#define KLX_TESTS_UNIT_SWEEPTESTSUPPORT_H

#include "klx/Runtime/ChildProcess.h"
#include "klx/Runtime/Sweep.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <utility>

namespace klx::test {

// What `klx sweep` writes: five compiled variants and one that did not
// fit in shared memory, at one size.
inline constexpr const char *kSweep = R"({
  "klx_sweep": 1,
  "file": "samples/nvidia/gemm_ws_persistent.mlir",
  "axes": [{"name": "tile_n", "values": ["64", "128", "192", "256", "320",
                                         "384"]}],
  "sizes": ["2048x2048x1024"],
  "variants": [
    {"name": "tile_n=64", "bundle": "fast", "defines": {"tile_n": "64"},
     "compiled": true, "registers": 168, "spill_store_bytes": 0},
    {"name": "tile_n=128", "bundle": "slow", "defines": {"tile_n": "128"},
     "compiled": true},
    {"name": "tile_n=192", "bundle": "hang", "defines": {"tile_n": "192"},
     "compiled": true},
    {"name": "tile_n=256", "bundle": "wrong", "defines": {"tile_n": "256"},
     "compiled": true},
    {"name": "tile_n=320", "bundle": "", "defines": {"tile_n": "320"},
     "compiled": false,
     "error": "gemm.mlir:12:3: error: 240 KB of shared memory, over 227 KB"},
    {"name": "tile_n=384", "bundle": "garbage", "defines": {"tile_n": "384"},
     "compiled": true, "a_member_klx_run_ignores": [1, 2]}
  ]
})";

/// VALUE with every digit a double holds, so that it reads back the same.
inline std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

// klx-run --json as Report.cpp writes it (trimmed to what the sweep reads).
inline std::string passedJson(double tflops, double cublas, double alternating,
                              double cpuError = 1.25e-06) {
  return R"({"status":"passed","message":"","device":"NVIDIA H100 80GB HBM3",)"
         R"("size":"2048x2048x1024","cpu_check":{"relative_error":)" +
         number(cpuError) +
         R"(},"cublas_check":{"relative_error":0},"tflops":)" + number(tflops) +
         ",\"cublas_tflops\":" + number(cublas) +
         ",\"alternating_tflops\":" + number(alternating) + "}\n";
}

/// A child klx-run that printed OUT (and ERR) and exited with EXITCODE.
inline rt::ChildExit child(std::string out, int exitCode,
                           std::string err = "") {
  rt::ChildExit c;
  c.exitCode = exitCode;
  c.out = std::move(out);
  c.err = std::move(err);
  return c;
}

/// TEXT read as sweep.json; a test that cannot read it stops there.
inline rt::SweepPlan plan(const char *text = kSweep) {
  std::string error;
  std::optional<rt::SweepPlan> p = rt::parseSweepPlan(text, error);
  INFO(error);
  REQUIRE(p);
  return *p;
}

inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// A fresh folder under /tmp, removed with the object.
struct TempDir {
  TempDir() {
    char pattern[] = "/tmp/klx-sweep-test-XXXXXX";
    REQUIRE(mkdtemp(pattern));
    path = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  void write(const std::string &name, const std::string &text,
             bool executable = false) const {
    std::filesystem::create_directories(
        std::filesystem::path(path + "/" + name).parent_path());
    std::ofstream(path + "/" + name) << text;
    if (executable)
      chmod((path + "/" + name).c_str(), 0755);
  }
  std::string path;
};

/// The shell lines of a stand-in klx-run that passes at 500 TFLOP/s.
inline constexpr const char *kStandInPasses =
    "printf '{\"status\":\"passed\",\"message\":\"\",'\n"
    "printf '\"device\":\"Fake\",\"tflops\":500}\\n'\n";

/// A sweep whose children are `dir`'s stand-in klx-run (the bundles under
/// /sweep are named, never opened).
inline rt::SweepOptions standInOptions(const TempDir &dir) {
  rt::SweepOptions options;
  options.dir = "/sweep";
  options.runner = dir.path + "/klx-run";
  return options;
}

} // namespace klx::test

#endif // KLX_TESTS_UNIT_SWEEPTESTSUPPORT_H
