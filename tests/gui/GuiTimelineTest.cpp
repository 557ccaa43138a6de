//===- GuiTimelineTest.cpp - The Barrier timeline pane, on screen ---------===//
//
// The simulated barrier timeline as the window draws it: a kernel that
// completes, one that deadlocks (its blocked wait in red, the status bar
// saying the role checks fail), klx verify's counterexample on the same
// lanes, and timelines read from nvgpu ops.
//
//===----------------------------------------------------------------------===//

#include "GuiTestSupport.h"

using namespace klx;
using namespace klx::guitest;

TEST_CASE("GUI: the barrier timeline, completing and deadlocked", "[gui]") {
  Image ok = screenshot("timeline-ws.png", {"--pass=parse"});
  RegionStats lanes = measure(ok, kTimeline);
  INFO("timeline pane: " << lanes.blue << " blue (consumer MMAs), "
                         << lanes.reddish << " reddish pixels");
  CHECK(lanes.blue > 1500);
  // The same two-producer kernel with one full barrier for both: the
  // deadlock is drawn in red, with its blocked waits and reasons.
  std::string source = readFile(std::string(KLX_SOURCE_DIR) +
                                "/samples/nvidia/gemm_two_producers.mlir");
  size_t at = source.find("shared_full_barrier = false");
  REQUIRE(at != std::string::npos);
  source.replace(at, strlen("shared_full_barrier = false"),
                 "shared_full_barrier = true");
  std::string shared = outputPath("two-producers-shared.mlir");
  writeFile(shared, source);
  Image broken = screenshot("timeline-deadlock.png", {shared});
  // The verdicts in red (the reasons fold away in a pane this short): the
  // pane's first four lines of text, above the lanes (whose waits are
  // drawn in the stages' colours, red among them).
  auto verdicts = [](const Image &image) {
    Rect r = paneRect(image, kTimeline);
    r.y1 = std::min(r.y1, r.y0 + int(image.fontSize * 1.4 * 4));
    return measure(image, r);
  };
  RegionStats red = verdicts(broken), green = verdicts(ok);
  INFO("verdict lines: " << red.reddish << " reddish pixels deadlocked, "
                         << green.reddish << " completing");
  CHECK(red.reddish > green.reddish + 800);
  // The consumer's wait that never ends is on its lane, in the dark
  // theme's failed-marker red (235, 90, 80), up to the end: it was an
  // empty lane labelled "consumer 100%".
  auto blocked = [](const Image &image) {
    Rect r = paneRect(image, kTimeline);
    r.y0 += int(image.fontSize * 1.4 * 4);
    return countNear(image, r, 235, 90, 80);
  };
  INFO("blocked-wait pixels: " << blocked(broken) << " deadlocked, "
                               << blocked(ok) << " completing");
  CHECK(blocked(broken) > 3000);
  CHECK(blocked(ok) < 50);
  // The status bar says the compile is fine but the role checks fail, in
  // the error colour (255, 115, 102), where it said only "ok".
  size_t statusRed = countNear(broken, broken.statusBar, 255, 115, 102, 30),
         statusOk = countNear(ok, ok.statusBar, 255, 115, 102, 30);
  INFO("status bar: " << statusRed << " error-red pixels deadlocked, "
                      << statusOk << " completing");
  CHECK(statusRed > 300);
  CHECK(statusOk < 20);
}

TEST_CASE("GUI: klx verify's counterexample on the timeline's lanes",
          "[gui][verify]") {
  // The shared full barrier: the pane says every timing can fail, and
  // --counterexample (the button) draws the shortest failing schedule on
  // the same lanes, with a red line where it fails, and lists its moves.
  std::string path =
      std::string(KLX_SOURCE_DIR) + "/samples/nvidia/gemm_two_producers.mlir";
  Image simulated =
      screenshot("verify-simulated.png", {path, "-D", "shared_full_barrier=1"});
  Image counter =
      screenshot("verify-counterexample.png",
                 {path, "-D", "shared_full_barrier=1", "--counterexample"});
  size_t differing = countDiffering(simulated, counter, kTimeline),
         failLine = 0;
  Rect lanes = paneRect(counter, kTimeline);
  for (int y = lanes.y0; y < lanes.y1; ++y)
    for (int x = lanes.x0; x < lanes.x1; ++x) {
      const unsigned char *p = counter.at(x, y);
      failLine += p[0] == 240 && p[1] == 80 && p[2] == 70;
    }
  INFO("timeline pixels that change with the counterexample: "
       << differing << "; pixels of the failing move's red line: " << failLine);
  CHECK(differing > 5000);
  CHECK(failLine > 40);
  // The lanes and the list of moves keep the pane busy.
  requireBusy(counter, kTimeline, "the counterexample");
}

TEST_CASE("GUI: barrier timelines read from nvgpu ops", "[gui]") {
  // The hand-written kernel has no klx pipelines: its timeline is read
  // from its nvgpu ops (thread 0, and threads 1-127 multiplying in blue).
  Image hand = screenshot(
      "timeline-hand-written.png",
      {std::string(KLX_SOURCE_DIR) + "/samples/nvidia/gemm_tma_wgmma.mlir"});
  RegionStats lanes = measure(hand, kTimeline);
  INFO("hand-written kernel's timeline: " << lanes.blue << " blue, "
                                          << lanes.orange << " orange");
  CHECK(lanes.blue > 1500);
  CHECK(lanes.orange > 1500);
  // The warp-specialized sample has two models; --timeline-at picks the
  // one read from what klx-to-nvgpu wrote, which the pane draws instead.
  Image own = screenshot("timeline-ws-own.png", {"--pass=parse"});
  Image lowered = screenshot("timeline-ws-lowered.png",
                             {"--pass=parse", "--timeline-at=klx-to-nvgpu"});
  size_t differing = countDiffering(own, lowered, kTimeline);
  INFO("Barrier timeline pixels that differ between the two models: "
       << differing);
  CHECK(differing > 3000);
  CHECK(measure(lowered, kTimeline).reddish < lanes.reddish + 1500);
}
