//===- SweepRotationTest.cpp - When a GPU leaves a sweep ------------------===//
//
// SweepRotation's bookkeeping on its own, then a sweep on two stand-in
// GPUs of which one breaks half way: its probe fails after a streak of
// different variants failing on it, it leaves, and its failed runs pass
// on the other.
//
//===----------------------------------------------------------------------===//

#include "SweepTestSupport.h"

#include "klx/Runtime/SweepRotation.h"

#include <catch2/catch.hpp>

using namespace klx::rt;
using namespace klx::test;

TEST_CASE("sweep rotation: a GPU leaves only when its probe fails",
          "[runtime][sweep]") {
  // Jobs 0-5 of variants 0, 1, 2, 0, 1, 2; GPUs 0 and 1.
  SweepRotation rotation({0, 1, 2, 0, 1, 2}, {0, 1});
  CHECK(rotation.take(0) == 0u);
  CHECK(rotation.take(1) == 1u);
  // One variant failing again and again is no streak of different ones.
  CHECK(rotation.finish(1, 1, true) == SweepRotation::After::Done);
  CHECK(rotation.take(1) == 2u);
  CHECK(rotation.finish(1, 2, true) == SweepRotation::After::Done);
  CHECK(rotation.take(1) == 3u);
  // A third different variant: time to ask whether the GPU is at fault.
  CHECK(rotation.finish(1, 3, true) == SweepRotation::After::Probe);
  SECTION("the probe passes: the failures are the variants'") {
    CHECK(rotation.probed(1, true, "").empty());
    CHECK(rotation.active(1));
    CHECK(rotation.notes().empty());
    CHECK(rotation.take(1) == 4u);
  }
  SECTION("the probe fails: the GPU leaves, its runs go to the others") {
    std::vector<size_t> again =
        rotation.probed(1, false, "its probe failed: no CUDA device");
    CHECK(again == std::vector<size_t>{1, 2, 3});
    CHECK_FALSE(rotation.active(1));
    CHECK_FALSE(rotation.take(1));
    REQUIRE(rotation.notes().size() == 1);
    CHECK(rotation.notes()[0] ==
          "GPU 1 left the sweep: its probe failed: no CUDA device");
    // Given back ahead of the jobs not yet started.
    CHECK(rotation.take(0) == 1u);
    CHECK(rotation.take(0) == 2u);
    CHECK(rotation.take(0) == 3u);
    CHECK(rotation.take(0) == 4u);
  }
  SECTION("a pass ends the streak") {
    CHECK(rotation.probed(1, true, "").empty());
    CHECK(rotation.take(1) == 4u);
    CHECK(rotation.finish(1, 4, false) == SweepRotation::After::Done);
    CHECK(rotation.take(1) == 5u);
    CHECK(rotation.finish(1, 5, true) == SweepRotation::After::Done);
  }
}

TEST_CASE("sweep rotation: the last GPU leaving gives nothing back",
          "[runtime][sweep]") {
  SweepRotation rotation({0, 1, 2}, {0});
  for (size_t job = 0; job < 3; ++job) {
    CHECK(rotation.take(0) == job);
    rotation.finish(0, job, true);
  }
  CHECK(rotation.probed(0, false, "its probe failed").empty());
  CHECK_FALSE(rotation.take(0));
}

TEST_CASE("sweep: a GPU that breaks leaves, its runs pass on the other",
          "[runtime][sweep]") {
  // GPU 1 answers its first probe, then fails every run and every probe.
  TempDir dir;
  dir.write(
      "klx-run",
      "#!/bin/sh\n"
      "if [ \"$CUDA_VISIBLE_DEVICES\" = 1 ]; then\n"
      "  if [ \"$1\" = --device ]; then\n"
      "    [ -e " +
          dir.path +
          "/probed ] && "
          "{ echo 'no CUDA device' >&2; exit 2; }\n"
          "    touch " +
          dir.path +
          "/probed; echo Fake; exit 0\n"
          "  fi\n"
          "  printf '{\"status\":\"driver_error\",\"message\":\"lost\"}\\n'\n"
          "  exit 2\n"
          "fi\n"
          "sleep 0.2\n" + // GPU 0 is slower: GPU 1 fails a streak first
          kStandInPasses,
      /*executable=*/true);
  SweepPlan p = plan();
  SweepOptions options = standInOptions(dir);
  std::vector<SweepJob> jobs = planSweepJobs(p, 2);
  REQUIRE(jobs.size() == 10);
  std::vector<std::string> lines, notes;
  std::vector<SweepProcess> results = runSweepJobs(
      p, jobs, {0, 1}, options,
      [&](const std::string &line) { lines.push_back(line); }, {}, &notes);
  for (const SweepProcess &r : results) {
    INFO(r.message);
    CHECK(r.passed());
    CHECK(r.gpu == 0);
  }
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "GPU 1 left the sweep: its probe (klx-run --device) "
                    "failed after several different variants failed on it "
                    "in a row: no CUDA device");
  bool said = false;
  for (const std::string &line : lines)
    said |= line.rfind("GPU 1 left the sweep", 0) == 0 &&
            line.find("of its runs go to the other GPUs") != std::string::npos;
  CHECK(said);
  SweepSummary s = summarizeSweep(p, results);
  s.notes = notes;
  CHECK(s.exitCode == 0);
  CHECK(formatSweepText(p, s).find("note: GPU 1 left the sweep") !=
        std::string::npos);
}
