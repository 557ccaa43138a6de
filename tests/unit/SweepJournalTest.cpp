//===- SweepJournalTest.cpp - What a stopped sweep keeps ------------------===//
//
// DIR/runs.jsonl: each finished child as a line, read back as the child's
// output was; --resume's jobs left; a stop requested half way (Ctrl+C)
// that lets the running children finish and starts no new one. The glue
// in runSweep needs a GPU (it asks the driver first): docs/performance.md
// has an interrupted and resumed sweep on one.
//
//===----------------------------------------------------------------------===//

#include "SweepTestSupport.h"

#include "klx/Runtime/SweepJournal.h"

#include <catch2/catch.hpp>

#include <atomic>

using namespace klx::rt;
using namespace klx::test;

TEST_CASE("sweep journal: a line per finished run, read back as it ran",
          "[runtime][sweep]") {
  SweepPlan p = plan();
  std::vector<SweepJob> jobs = planSweepJobs(p, 2);
  REQUIRE(jobs.size() == 10); // 5 runnable variants x 2 processes
  // The first job failed on GPU 0, which then left the sweep; run again
  // on GPU 1 it passed: its later line counts. Then a line cut short.
  std::string journal =
      sweepJournalLine(p, jobs[0], 0, child("{}", 1)) +
      sweepJournalLine(p, jobs[1], 0,
                       child("Segmentation fault", 139, "klx-run: boom\n"));
  journal +=
      sweepJournalLine(p, jobs[0], 1, child(passedJson(600, 500, 450), 0));
  journal += R"({"variant":"tile_n=64","size":"2048x20)";
  int skipped = 0;
  std::vector<SweepProcess> done = readSweepJournal(p, journal, 2, skipped);
  CHECK(skipped == 1);
  REQUIRE(done.size() == 2);
  CHECK(done[0].job.variant == jobs[0].variant);
  CHECK(done[0].job.process == jobs[0].process);
  CHECK(done[0].gpu == 1);
  CHECK(done[0].passed());
  CHECK(done[0].tflops == 600);
  CHECK(done[1].status == "error");
  CHECK(done[1].message == "exited with 139: klx-run: boom");

  std::vector<SweepJob> left = jobsLeft(jobs, done);
  REQUIRE(left.size() == 8);
  for (const SweepJob &job : left)
    CHECK_FALSE(
        (job.variant == jobs[0].variant && job.process == jobs[0].process));

  // Another plan's runs (fewer processes, another size) are not this one's.
  REQUIRE(jobs[5].process == 1);
  std::string second =
      sweepJournalLine(p, jobs[5], 0, child(passedJson(600, 500, 450), 0));
  CHECK(readSweepJournal(p, second, 2, skipped).size() == 1);
  CHECK(readSweepJournal(p, second, 1, skipped).empty());
  CHECK(skipped == 1);
  SweepPlan other = p;
  other.sizes = {"4096x4096x4096"};
  CHECK(readSweepJournal(other, journal, 2, skipped).empty());
  CHECK(skipped == 4);
}

TEST_CASE("sweep: a stop starts no new child and keeps what finished",
          "[runtime][sweep]") {
  TempDir dir;
  dir.write("klx-run", std::string("#!/bin/sh\n") + kStandInPasses,
            /*executable=*/true);
  SweepPlan p = plan();
  SweepOptions options = standInOptions(dir);
  std::vector<SweepJob> jobs = planSweepJobs(p, 4);
  REQUIRE(jobs.size() == 20);
  std::vector<std::string> recorded;
  size_t progressLines = 0;
  clearSweepStop();
  std::vector<SweepProcess> results = runSweepJobs(
      p, jobs, {0, 1}, options,
      [&](const std::string &) {
        if (++progressLines == 3)
          requestSweepStop(); // as Ctrl+C's handler does
      },
      [&](const SweepJob &job, int gpu, const ChildExit &child) {
        recorded.push_back(sweepJournalLine(p, job, gpu, child));
      });
  clearSweepStop();
  size_t finished = 0;
  for (const SweepProcess &r : results)
    if (!r.status.empty()) {
      ++finished;
      CHECK(r.passed());
    }
  // The third finishes, and the other worker's child in flight then.
  CHECK(finished >= 3);
  CHECK(finished <= 4);
  CHECK(recorded.size() == finished);
  int skipped = 0;
  std::string journal;
  for (const std::string &line : recorded)
    journal += line;
  std::vector<SweepProcess> done = readSweepJournal(p, journal, 4, skipped);
  CHECK(done.size() == finished);
  CHECK(jobsLeft(jobs, done).size() == jobs.size() - finished);
}
