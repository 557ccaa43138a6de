//===- GuiHelpTest.cpp - Help a first-time user finds ---------------------===//
//
// Help > Keys, opened with F1 as a person would, and closed again.
//
//===----------------------------------------------------------------------===//

#include "GuiTestSupport.h"

#include <algorithm>

using namespace klx::guitest;

TEST_CASE("GUI: F1 lists every shortcut, and Escape closes the list",
          "[gui][help]") {
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-keys");
  auto press = [](const char *key) { return pressKey("", key, 0.5); };
  // A click in the IR pane first: the keys go to the window.
  std::string click = kClickIntoWindow;
  Image open = typedIntoWindow(dir.path, "keys-open.png", click + press("F1"));
  CHECK(std::count(open.dialogs.begin(), open.dialogs.end(), "Keys") == 1);
  Image closed = typedIntoWindow(dir.path, "keys-closed.png",
                                 click + press("F1") + "\n" + press("Escape"));
  CHECK(closed.dialogs.empty());
  // The list is drawn over the panes, in the middle of the window.
  Rect middle{open.width / 3, open.height / 3, 2 * open.width / 3,
              2 * open.height / 3};
  size_t differing = countDiffering(open, closed, middle);
  INFO("pixels the list changed in the middle third: " << differing);
  CHECK(differing > 20000);
}

TEST_CASE("GUI: a first start opens the first lesson beside its sample",
          "[gui][help]") {
  // No FILE and no settings saved: lesson 01 in the Guide, down the left
  // (Teach, at 100% on a 1280x720 screen), saxpy at its first step, and
  // a line on where to click. It was the GEMM sample at its last step
  // ("cubin is not IR"), the lesson in a small pane.
  TempDir dir("klx-first");
  std::string png = outputPath("first-start.png");
  llvm::sys::fs::remove(png);
  ToolResult first = runInXvfb(
      dir.path, {1280, 720}, {KLX_BINARY, "--screenshot=" + png, "--frames=3"});
  INFO(first.output);
  REQUIRE(first.exitCode == 0);
  Image start = loadScreenshot(png);
  CHECK(llvm::StringRef(start.source).ends_with("samples/nvidia/saxpy.mlir"));
  CHECK(start.step == "parse");
  CHECK(start.layout == "teach");
  CHECK(start.zoom == 100);
  REQUIRE(start.panes.count("Guide"));
  Rect guide = paneRect(start, "Guide");
  CHECK(guide.x0 <= 4); // at the left edge, inside its border
  CHECK(guide.y1 - guide.y0 > start.height / 2);
  requireFits(start);
  // Settings saved by an earlier start: the default sample, as before.
  std::string config = dir.path + "/.env/config/klx";
  REQUIRE_FALSE(llvm::sys::fs::create_directories(config));
  writeFile(config + "/imgui.ini", "[klx][window]\nlayout=explore\n");
  std::string again = outputPath("second-start.png");
  llvm::sys::fs::remove(again);
  ToolResult second =
      runInXvfb(dir.path, {1280, 720},
                {KLX_BINARY, "--screenshot=" + again, "--frames=3"});
  INFO(second.output);
  REQUIRE(second.exitCode == 0);
  Image later = loadScreenshot(again);
  CHECK(later.source == kSample);
  CHECK(later.layout == "explore");
}

TEST_CASE("GUI: Ctrl+O asks for a path, completes it, and opens it",
          "[gui][help]") {
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-open");
  std::string click = kClickIntoWindow;
  std::string ctrlO = pressKey("ctrl", "o", 0.6);
  Image asking = typedIntoWindow(dir.path, "open-dialog.png", click + ctrlO);
  CHECK(std::count(asking.dialogs.begin(), asking.dialogs.end(), "Open") == 1);
  // The field starts in the open kernel's folder: typed on, Enter opens.
  std::string typed =
      click + ctrlO +
      "xdotool type --delay 60 'saxpy.mlir'; sleep 0.4\n"
      "xdotool keydown Return; sleep 0.15; xdotool keyup Return; sleep 1\n";
  Image opened = typedIntoWindow(dir.path, "open-typed.png", typed);
  CHECK(opened.dialogs.empty());
  CHECK(llvm::StringRef(opened.source).ends_with("samples/nvidia/saxpy.mlir"));
}

TEST_CASE("GUI: Alt+Right walks the lesson's steps", "[gui][help]") {
  // The sample's page (lesson 03) in the Guide: step 1 opens the sample,
  // step 2 selects klx-warp-specialize and focuses the producer.
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-steps");
  Image walked =
      typedIntoWindow(dir.path, "lesson-steps.png", lessonStepKeys(2));
  CHECK(walked.step == "klx-warp-specialize");
}

TEST_CASE("GUI: the marked line stays in view when the step changes",
          "[gui][help]") {
  // Lesson 03's step 4 marks source line 96 (the klx.mma) at klx-to-nvgpu;
  // step 5 selects ptx, whose IR (the LLVM IR it started from) is 1,600
  // lines: the line's IR, in the correlated colour, is scrolled to there
  // too. It stayed at the top of the new text.
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-marked");
  Image walked =
      typedIntoWindow(dir.path, "marked-line.png", lessonStepKeys(5));
  CHECK(walked.step == "ptx");
  size_t correlated = countNear(walked, paneRect(walked, kIR), 42, 56, 24, 4);
  INFO("IR pixels in the correlated colour: " << correlated);
  CHECK(correlated > 1000);
}

TEST_CASE("GUI: Enter on a path that is not there says so in red",
          "[gui][help]") {
  // As the Open button does: 'cannot open ...: No such file or directory'
  // in the status bar, in the error colour (255, 115, 102).
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-enter");
  std::string keys =
      "xdotool mousemove 100 60 click 1; sleep 0.3\n"
      "xdotool type --delay 40 '" +
      dir.path +
      "/nothere.mlir'; sleep 0.4\n"
      "xdotool keydown Return; sleep 0.15; xdotool keyup Return; sleep 1\n";
  Image said = typedIntoWindow(dir.path, "open-missing.png", keys);
  size_t red = countNear(said, said.statusBar, 255, 115, 102, 30);
  INFO("status bar pixels in the error colour: " << red);
  CHECK(red > 300);
}
