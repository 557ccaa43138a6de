//===- SweepPlanTest.cpp - klx-run --sweep: sweep.json and the jobs -------===//
//
// What the sweep reads and what it makes of it before any child runs:
// sweep.json and its errors, variants without a bundle, a ladder's order,
// and the order of the jobs. SweepTest.cpp tests the rest of the sweep.
//
//===----------------------------------------------------------------------===//

#include "SweepTestSupport.h"

#include "klx/Runtime/Sweep.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace klx::rt;
using namespace klx::test;

namespace {

std::string planError(const std::string &text) {
  std::string error;
  CHECK_FALSE(parseSweepPlan(text, error));
  return error;
}

} // namespace

TEST_CASE("sweep: sweep.json read", "[runtime][sweep]") {
  SweepPlan p = plan();
  CHECK(p.file == "samples/nvidia/gemm_ws_persistent.mlir");
  CHECK(p.axes == std::vector<std::string>{"tile_n"});
  CHECK(p.sizes == std::vector<std::string>{"2048x2048x1024"});
  REQUIRE(p.variants.size() == 6);
  CHECK(p.variants[0].name == "tile_n=64");
  CHECK(p.variants[0].bundle == "fast");
  CHECK(p.variants[0].compiled);
  CHECK(p.variants[0].registers == 168);
  CHECK(p.variants[0].spillBytes == 0);
  CHECK(p.variants[1].registers == -1); // absent, not 0
  CHECK(p.variants[0].defines ==
        std::vector<std::pair<std::string, std::string>>{{"tile_n", "64"}});
  CHECK_FALSE(p.variants[4].compiled);
  CHECK(p.variants[4].bundle.empty());
  CHECK(p.variants[4].error ==
        "gemm.mlir:12:3: error: 240 KB of shared memory, over 227 KB");

  // Without sizes every bundle runs at its own; without axes the defines
  // name the CSV's columns.
  SweepPlan bare = plan(R"({"klx_sweep": 1, "variants": [
      {"name": "b=2 a=1", "bundle": "x", "compiled": true,
       "defines": {"b": "2", "a": "1"}}]})");
  CHECK(bare.sizes.empty());
  CHECK(bare.axes == std::vector<std::string>{"a", "b"});
  CHECK(bare.file.empty());
}

TEST_CASE("sweep: a wrong sweep.json says what and where", "[runtime][sweep]") {
  // Bad JSON: the position of the first error.
  CHECK(planError("{\"klx_sweep\": 1,\n  \"variants\": [\n    {\"name\" "
                  "\"a\"}]}") ==
        "sweep.json:3:15: syntax error while parsing object "
        "separator - unexpected string literal; expected ':'");
  CHECK(planError("").rfind("sweep.json:1:1: ", 0) == 0);
  // Missing or mistyped members: their names.
  CHECK(planError(R"({"klx_sweep": 1, "sizes": []})") ==
        "sweep.json: no 'variants' array");
  CHECK(planError(R"({"klx_sweep": 1, "variants": {}})") ==
        "sweep.json: no 'variants' array");
  CHECK(planError("[]") == "sweep.json: the document must be an object");
  CHECK(planError(R"({"variants": []})") ==
        "sweep.json: klx_sweep is missing (is this a sweep.json written by "
        "klx sweep?)");
  CHECK(planError(R"({"klx_sweep": 2, "variants": []})") ==
        "sweep.json: klx_sweep 2 is not a format this klx-run reads (1)");
  CHECK(planError(R"({"klx_sweep": 1, "variants": [
      {"name": "a", "compiled": "yes"}]})") ==
        "sweep.json: variants[0].compiled must be a boolean, not a string");
  CHECK(planError(R"({"klx_sweep": 1, "variants": [
      {"name": "a", "compiled": false},
      {"name": "b", "compiled": true}]})") ==
        "sweep.json: variants[1].bundle is missing");
  CHECK(planError(R"({"klx_sweep": 1, "variants": [
      {"name": "a", "compiled": true, "bundle": "/tmp/a"}]})") ==
        "sweep.json: variants[0].bundle must be relative to the sweep's "
        "folder, not /tmp/a");
  CHECK(planError(R"({"klx_sweep": 1, "variants": [
      {"compiled": true, "bundle": "a"}]})") ==
        "sweep.json: variants[0].name is missing");
  CHECK(planError(R"({"klx_sweep": 1, "variants": [
      {"name": "a", "compiled": true, "bundle": "a",
       "defines": {"tile_n": 128}}]})") ==
        "sweep.json: variants[0].defines.tile_n must be a string, not a "
        "number");
  CHECK(planError(R"({"klx_sweep": 1, "sizes": ["8192x8192"],
      "variants": []})") ==
        "sweep.json: sizes[0] \"8192x8192\" is not MxNxK (a gemm) or N (a "
        "gather)");
}

TEST_CASE("sweep: a variant that compiled without a bundle is not run",
          "[runtime][sweep]") {
  // klx sweep writes no bundle when there is no cubin (no ptxas here).
  SweepPlan p = plan(R"({"klx_sweep": 1, "variants": [
      {"name": "a", "bundle": "a", "compiled": true},
      {"name": "b", "bundle": "", "compiled": true,
       "bundle_note": "no cubin: ptxas not found",
       "spill_store_bytes": 24}]})");
  CHECK(p.variants[1].spillBytes == 24);
  CHECK_FALSE(p.variants[1].runnable());
  std::vector<SweepJob> jobs = planSweepJobs(p, 2);
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].variant == 0);
  CHECK(jobs[1].variant == 0);
  SweepSummary s = summarizeSweep(
      p, {readSweepChild(jobs[0], 0, child(passedJson(600, 500, 450), 0))});
  CHECK(s.exitCode == 0); // nothing to run is no failure
  const SweepRow &b = s.tables[0].rows.at(1);
  CHECK(b.status == "no_bundle");
  CHECK(b.message == "no cubin: ptxas not found");
  CHECK(contains(formatSweepText(p, s),
                 "| - | b | - | - | - | - | - | not run: no cubin: ptxas not "
                 "found |"));
}

TEST_CASE("sweep: a ladder keeps its rungs in order", "[runtime][sweep]") {
  // "ordered": each rung adds a technique to the one before; the table
  // keeps that order and still ranks by speed.
  SweepPlan p = plan(R"({"klx_sweep": 1, "ordered": true, "variants": [
      {"name": "one tile", "bundle": "a", "compiled": true},
      {"name": "4 stages", "bundle": "b", "compiled": true},
      {"name": "128x256", "bundle": "c", "compiled": true}]})");
  CHECK(p.ordered);
  std::vector<SweepJob> jobs = planSweepJobs(p, 1);
  REQUIRE(jobs.size() == 3);
  std::vector<SweepProcess> processes;
  double tflops[] = {400, 700, 600};
  for (const SweepJob &job : jobs)
    processes.push_back(readSweepChild(
        job, 0,
        child(passedJson(tflops[job.variant], 750, tflops[job.variant] * 0.9),
              0)));
  SweepSummary s = summarizeSweep(p, processes);
  const std::vector<SweepRow> &rows = s.tables.at(0).rows;
  REQUIRE(rows.size() == 3);
  CHECK(p.variants[rows[0].variant].name == "one tile");
  CHECK(p.variants[rows[2].variant].name == "128x256");
  CHECK(rows[0].rank == 3);
  CHECK(rows[1].rank == 1);
  CHECK(rows[2].rank == 2);
  CHECK(contains(formatSweepJson(p, s), "\"ordered\":true"));
  CHECK(contains(formatSweepText(p, s), "best: 4 stages (700.0 TFLOP/s"));
  // Without "ordered" the same runs are ranked, fastest first.
  p.ordered = false;
  CHECK(
      p.variants[summarizeSweep(p, processes).tables[0].rows[0].variant].name ==
      "4 stages");
}

TEST_CASE("sweep: jobs in rounds, each round one variant later",
          "[runtime][sweep]") {
  SweepPlan p = plan(R"({"klx_sweep": 1, "sizes": ["64x64x64", "128x128x64"],
    "variants": [
      {"name": "a", "bundle": "a", "compiled": true},
      {"name": "b", "bundle": "", "compiled": false},
      {"name": "c", "bundle": "c", "compiled": true}]})");
  std::vector<SweepJob> jobs = planSweepJobs(p, 2);
  std::vector<std::string> order;
  for (const SweepJob &job : jobs)
    order.push_back(p.variants[job.variant].name + "@" +
                    std::to_string(job.size) + "#" +
                    std::to_string(job.process));
  // Not compiled is never run; process 0 of everything before process 1.
  CHECK(order == std::vector<std::string>{"a@0#0", "c@0#0", "a@1#0", "c@1#0",
                                          "c@0#1", "a@0#1", "c@1#1", "a@1#1"});
  CHECK(planSweepJobs(p, 1).size() == 4);
  // No sizes: one slot, each bundle's own size.
  p.sizes.clear();
  CHECK(planSweepJobs(p, 3).size() == 6);
}

TEST_CASE("sweep: a child that ran on another GPU than it was given fails",
          "[runtime][sweep]") {
  // Two H200s of one host share a name; only the PCI address tells a run on
  // GPU 1 from one that landed on GPU 0, whose figures it would then be.
  SweepPlan p = plan();
  std::vector<SweepJob> jobs = planSweepJobs(p, 1);
  std::string json = passedJson(600, 500, 450);
  json.insert(json.find("\"size\""), R"("pci":"0000:2a:00",)");
  SweepProcess same = readSweepChild(jobs[0], 1, child(json, 0));
  checkChildGpu(same, "0000:2a:00");
  CHECK(same.passed());
  CHECK(same.pci == "0000:2a:00");
  CHECK(contains(formatSweepProgress(1, 2, p, same),
                 "on GPU 1 (0000:2a:00): 600.0 TFLOP/s"));
  SweepProcess moved = readSweepChild(jobs[0], 1, child(json, 0));
  checkChildGpu(moved, "0000:19:00");
  CHECK(moved.status == "error");
  CHECK(moved.message ==
        "ran on the GPU at PCI 0000:2a:00, was given GPU 1 at 0000:19:00");
  SweepProcess unsaid = readSweepChild(jobs[0], 1, child(json, 0));
  checkChildGpu(unsaid, ""); // the parent could not ask: nothing to compare
  CHECK(unsaid.passed());
  SweepSummary s = summarizeSweep(p, {same});
  CHECK(s.device == "NVIDIA H100 80GB HBM3 at 0000:2a:00");
}
