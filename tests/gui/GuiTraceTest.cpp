//===- GuiTraceTest.cpp - Recorded traces in the window, looked at --------===//
//
// Traces klx-run recorded on an H100 or an H200 (tests/fixtures/trace) and
// made-up ones, opened in a real window under Xvfb: the SMs' lanes, the picked
// CTA's warps, the model beside them, lanes prepared off the GUI thread.
// The helpers and the screenshots' folder are GuiScreenshotTest.cpp's.
//
//===----------------------------------------------------------------------===//

#include "GuiTestSupport.h"

#include <optional>

using namespace klx;
using namespace klx::guitest;

namespace {
/// --open-trace= of klx-run's H100 recording of the sample (2048^3).
std::string openH100Trace() {
  return "--open-trace=" + std::string(KLX_SOURCE_DIR) +
         "/tests/fixtures/trace/h100-ws-2048.json";
}
std::string nvidiaSample(const char *name) {
  return std::string(KLX_SOURCE_DIR) + "/samples/nvidia/" + name;
}

/// The first band of rows in `region` that is mostly an input field's
/// frame (the dark theme's FrameBg over the window's background): where a
/// pane's only text field is, found in the picture as a person finds it.
std::optional<Rect> textFieldIn(const Image &image, Rect region) {
  auto isFrame = [](const unsigned char *p) {
    return std::abs(p[0] - 29) <= 2 && std::abs(p[1] - 47) <= 2 &&
           std::abs(p[2] - 73) <= 2;
  };
  int top = -1;
  for (int y = region.y0; y < region.y1; ++y) {
    int frame = 0;
    for (int x = region.x0; x < region.x1; ++x)
      frame += isFrame(image.at(x, y));
    bool mostly = frame * 2 > region.x1 - region.x0;
    if (mostly && top < 0)
      top = y;
    if (!mostly && top >= 0)
      return Rect{region.x0, top, region.x1, y};
  }
  return std::nullopt;
}
} // namespace

TEST_CASE("GUI: a recorded trace opened as SMs x time", "[gui][trace]") {
  // klx-run --trace on the H100 (fixture: the SMs and CTA 0 of the
  // warp-specialized GEMM at 2048^3): the Measured tab draws a box per CTA
  // on each of 128 SMs, and says how many ran where.
  Image empty = screenshot("measured-empty.png", {"--show=Measured"});
  Image sms = screenshot("measured-sms.png", {openH100Trace()});
  RegionStats before = measure(empty, kRun), after = measure(sms, kRun);
  INFO("Guide pane: reddish " << before.reddish << " -> " << after.reddish
                              << ", stddev " << before.stddev << " -> "
                              << after.stddev);
  // The CTAs' boxes (each SM's first CTA: the first stage colour, reddish)
  // fill most of the pane.
  CHECK(countDiffering(empty, sms, kRun) > 30000);
  CHECK(after.reddish > before.reddish + 30000);
}

TEST_CASE("GUI: the model's lanes under a recorded CTA's warps",
          "[gui][trace]") {
  // The same trace beside a kernel with a protocol model (the sample it
  // was recorded from: a producer and a consumer lane under the warps)
  // and one without (saxpy: no barriers to model, no lanes).
  std::string trace = openH100Trace();
  ScreenSize large{2560, 1440};
  Image with = screenshotOn(large, "measured-model.png",
                            {nvidiaSample("gemm_ws_persistent.mlir"), trace});
  Image without = screenshotOn(large, "measured-no-model.png",
                               {nvidiaSample("saxpy.mlir"), trace});
  // The lowest eighth of the pane: empty under saxpy's warps, the model's
  // lanes (their upper part above it) under the sample's.
  Rect pane = paneRect(with, kRun);
  Rect bottom{pane.x0, pane.y1 - (pane.y1 - pane.y0) / 8, pane.x1, pane.y1};
  RegionStats a = measure(without, bottom), b = measure(with, bottom);
  size_t differing = countDiffering(without, with, bottom);
  INFO("Guide pane's lowest eighth: "
       << differing << " pixels differ; blue " << a.blue << " -> " << b.blue
       << ", colours " << a.distinctColours << " -> " << b.distinctColours);
  CHECK(differing > 3000);
  CHECK(b.blue > a.blue + 500); // the model's consumer lane, its MMAs
}

TEST_CASE("GUI: the model below the fold leaves the SMs their room",
          "[gui][trace]") {
  // Teach at 2560x1440: the Output pane is too short for the warps' lanes
  // and the model's, so the model goes below the fold; the SMs' lanes are
  // then as tall as where there is no model (saxpy) at all. (They gave up
  // the model's height to lanes nobody saw.)
  std::string trace = openH100Trace();
  ScreenSize large{2560, 1440};
  std::vector<std::string> teach = {"--layout=teach", "--show=Measured", trace};
  auto with = teach, without = teach;
  with.push_back(nvidiaSample("gemm_ws_persistent.mlir"));
  without.push_back(nvidiaSample("saxpy.mlir"));
  Image a = screenshotOn(large, "measured-teach-no-model.png", without);
  Image b = screenshotOn(large, "measured-teach-model.png", with);
  // The SMs' CTA boxes (reddish) in the pane's upper two thirds: as many
  // pixels (the pane's scroll bar makes them a little narrower); giving
  // the model's height away took a third of them.
  Rect pane = paneRect(b, "Output");
  Rect upper{pane.x0, pane.y0, pane.x1, pane.y0 + (pane.y1 - pane.y0) * 2 / 3};
  RegionStats sms = measure(a, upper), smsWithModel = measure(b, upper);
  INFO("Output pane's upper two thirds: reddish "
       << sms.reddish << " without a model, " << smsWithModel.reddish
       << " with it below the fold");
  CHECK(smsWithModel.reddish > sms.reddish * 9 / 10);
}

namespace {
/// A trace of one CTA on one SM whose 4 warps hold `perWarp` waits each.
std::string syntheticTrace(int perWarp) {
  std::string out = R"({"traceEvents":[)"
                    R"({"name":"process_name","ph":"M","pid":1073741824,)"
                    R"("args":{"name":"SMs"}},)"
                    R"({"name":"thread_name","ph":"M","pid":1073741824,)"
                    R"("tid":0,"args":{"name":"SM 0"}},)"
                    R"({"name":"CTA 0","ph":"X","ts":0,"dur":500,)"
                    R"("pid":1073741824,"tid":0})";
  for (int w = 0; w < 4; ++w) {
    out += R"(,{"name":"thread_name","ph":"M","pid":0,"tid":)" +
           std::to_string(w) + R"(,"args":{"name":"warp )" + std::to_string(w) +
           R"x( (consumer)"}})x";
    for (int i = 0; i < perWarp; ++i)
      out += R"(,{"name":"wait full[)" + std::to_string(i % 4) +
             R"(]","ph":"X","ts":)" + std::to_string(i * 500.0 / perWarp) +
             R"(,"dur":0.001,"pid":0,"tid":)" + std::to_string(w) + "}";
  }
  return out + R"(],"otherData":{"clock":"clock64 cycles at 1980000 kHz"}})";
}
} // namespace

TEST_CASE("GUI: a trace's path typed into the empty Measured pane",
          "[gui][trace][paths]") {
  // With no run recorded, the Measured pane offers a path field. A held
  // click in it, the start of a folder's name typed, Tab (the folder, with
  // its '/'), Tab again (its one trace; a text file beside it is not
  // listed), Enter: the trace opens, and its SMs fill the pane as when it
  // is opened from the command line.
  requireTools({"xdotool", "xvfb-run"});
  TempDir temp("klx-measured-path-gui");
  const std::string &dir = temp.path;
  REQUIRE_FALSE(llvm::sys::fs::create_directory(dir + "/traces"));
  REQUIRE_FALSE(llvm::sys::fs::copy_file(
      std::string(KLX_SOURCE_DIR) + "/tests/fixtures/trace/h100-ws-2048.json",
      dir + "/traces/ws.json"));
  writeFile(dir + "/traces/notes.txt", "not a trace\n");

  std::vector<std::string> measured = {"--show=Measured"};
  Image empty = screenshot("measured-path-empty.png", measured);
  Rect pane = paneRect(empty, kRun);
  std::optional<Rect> field = textFieldIn(empty, pane);
  REQUIRE(field);
  std::string keys = heldClick(field->x0 + 40, (field->y0 + field->y1) / 2) +
                     "xdotool type --delay 40 '" + dir +
                     "/tra'; sleep 0.4\n"
                     "xdotool key Tab; sleep 0.4\n"
                     "xdotool key Tab; sleep 0.4\n"
                     "xdotool key Return; sleep 0.5\n";
  Image opened =
      typedIntoWindow(dir, "measured-path-opened.png", keys, measured);
  Image fromFlag = screenshot("measured-path-flag.png",
                              {"--open-trace=" + dir + "/traces/ws.json"});
  size_t differing = countDiffering(empty, opened, kRun);
  RegionStats typed = measure(opened, kRun), flag = measure(fromFlag, kRun);
  INFO("Guide pane: " << differing << " pixels differ from the empty pane; "
                      << "reddish " << typed.reddish << " typed, "
                      << flag.reddish << " from --open-trace");
  CHECK(differing > 30000);
  CHECK(typed.reddish > flag.reddish * 9 / 10);
}

TEST_CASE("GUI: a large trace's lanes are prepared off the GUI thread",
          "[gui][trace]") {
  // 160,000 events on the warps' lanes: prepared on a thread of their own
  // (GpuLanes, from 100,000), and the screenshot waits for them; the same
  // CTA without events draws none.
  std::string big = outputPath("trace-160k.json");
  std::string none = outputPath("trace-no-events.json");
  writeFile(big, syntheticTrace(40000));
  writeFile(none, syntheticTrace(0));
  Image drawn = screenshot("measured-160k.png", {"--open-trace=" + big});
  Image empty = screenshot("measured-no-events.png", {"--open-trace=" + none});
  size_t differing = countDiffering(empty, drawn, kRun);
  INFO("Guide pane: " << differing << " pixels differ");
  CHECK(differing > 5000);
}

TEST_CASE("GUI: the critical chain under a cluster's other CTA",
          "[gui][trace]") {
  // klx-run on the H100 with clusters of 2 (fixture: CTAs 2 and 3): CTA 2
  // ended the kernel and its chain went into CTA 3, whose producer issued
  // a stage's last share. --measured-cta=3 shows CTA 3's warps: the
  // chain's legend and its underline on the producer's lane. The same
  // trace with every link put on CTA 2 shows only a note there.
  std::string fixture = std::string(KLX_SOURCE_DIR) +
                        "/tests/fixtures/trace/h100-cluster-m2-2048.json";
  llvm::Expected<llvm::json::Value> trace =
      llvm::json::parse(readFile(fixture));
  REQUIRE(bool(trace));
  llvm::json::Array *links = trace->getAsObject()
                                 ->getObject("otherData")
                                 ->getObject("critical_chain")
                                 ->getArray("links");
  REQUIRE(links);
  size_t onCta3 = 0;
  for (llvm::json::Value &link : *links) {
    llvm::json::Array &fields = *link.getAsArray();
    REQUIRE(fields.size() == 5);
    onCta3 += fields[4].getAsInteger() == 3;
    fields[4] = 2;
  }
  CHECK(onCta3 == 3); // start-up, working, load
  std::string oneCta = outputPath("trace-chain-on-cta2.json");
  writeFile(oneCta, llvm::formatv("{0}", *trace).str());

  ScreenSize large{2560, 1440};
  std::vector<std::string> teach = {"--layout=teach", "--show=Measured",
                                    "--measured-cta=3"};
  auto across = teach, within = teach;
  across.push_back("--open-trace=" + fixture);
  within.push_back("--open-trace=" + oneCta);
  Image a = screenshotOn(large, "measured-chain-cta3.png", across);
  Image b = screenshotOn(large, "measured-chain-cta3-none.png", within);
  // The lower third of the Output pane: CTA 3's title, the legend or the
  // note, and its three warps' lanes.
  Rect pane = paneRect(a, "Output");
  Rect lower{pane.x0, pane.y1 - (pane.y1 - pane.y0) / 3, pane.x1, pane.y1};
  // The lowest eighth: the last warps' lanes, the same events in both;
  // only the chain's underline on the producer's lane differs.
  Rect lanes{pane.x0, pane.y1 - (pane.y1 - pane.y0) / 8, pane.x1, pane.y1};
  size_t differing = countDiffering(a, b, lower),
         underline = countDiffering(a, b, lanes);
  INFO("Output pane's lower third: " << differing << " pixels differ, "
                                     << underline << " in its lowest eighth");
  CHECK(differing > 1500);
  CHECK(underline > 150);
}

namespace {
/// The text of the lines `image`'s layout says the pane `pane`'s view
/// `view` shows.
std::vector<std::string> shownIn(const Image &image, const std::string &pane,
                                 const std::string &view) {
  std::vector<std::string> lines;
  for (const auto &[number, line] : image.linesShown(pane, view))
    lines.push_back(line);
  return lines;
}
std::string openNonPersistentTrace() {
  // klx-run --trace on an H200, every CTA: the sample with -D persistent=0
  // at 2048x4096x256, 256 CTAs on 132 SMs, two to an SM.
  return "--open-trace=" + std::string(KLX_SOURCE_DIR) +
         "/tests/fixtures/trace/h200-nonpersistent-2048x4096x256.json";
}
} // namespace

TEST_CASE("GUI: the SMs chart names its SMs, its time and its colours",
          "[gui][trace]") {
  // Down the side, every few SMs' names (132 lanes thinner than a line);
  // along the bottom, round microseconds; under it, what the colours say:
  // a CTA's turn on its SM (two turns here). The CTA shown first is the
  // one that ended the kernel (klx-run: CTA 234 on SM 26).
  Image image = screenshotOn({1920, 1080}, "measured-axes.png",
                             {openNonPersistentTrace(), "--show=Measured"});
  std::vector<std::string> sms = shownIn(image, "Measured", "sms");
  CHECK(sms.size() >= 5);
  CHECK(sms.size() < 132);
  CHECK(llvm::is_contained(sms, "SM 0"));
  std::vector<std::string> axis = shownIn(image, "Measured", "axis");
  CHECK(llvm::is_contained(axis, "0 us"));
  CHECK(llvm::is_contained(axis, "5 us"));
  CHECK(llvm::is_contained(axis, "10 us"));
  CHECK(shownIn(image, "Measured", "legend") ==
        std::vector<std::string>{"1", "2"});
  CHECK(shownIn(image, "Measured", "cta") ==
        std::vector<std::string>{"CTA 234 on SM 26, its warps"});
}

TEST_CASE("GUI: a double click on the title enlarges, and picks no CTA",
          "[gui][trace]") {
  // The second press of the double click lands, once the pane is enlarged,
  // on the SMs chart: the CTA shown stays the one that ended the kernel.
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-enlarge-sms");
  Image before = typedIntoWindow(dir.path, "measured-before-enlarge.png", "",
                                 {openNonPersistentTrace(), "--show=Measured"});
  Rect guide = before.panes.at("Guide");
  int x = guide.x0 + (guide.x1 - guide.x0) * 3 / 4, y = guide.y0 + 8;
  // The second press held, as a hand holds it: the pane is enlarged under
  // it before it is released.
  std::string keys = llvm::formatv("xdotool mousemove {0} {1}; sleep 0.2; "
                                   "xdotool click 1; sleep 0.08; xdotool "
                                   "mousedown 1; sleep 0.3; xdotool mouseup "
                                   "1; sleep 1\n",
                                   x, y)
                         .str();
  Image after = typedIntoWindow(dir.path, "measured-enlarged.png", keys,
                                {openNonPersistentTrace(), "--show=Measured"});
  CHECK(after.panes.size() == 1); // the Guide over the whole window
  CHECK(shownIn(after, "Measured", "cta") ==
        std::vector<std::string>{"CTA 234 on SM 26, its warps"});
}
