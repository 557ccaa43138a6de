//===- GuiWindowTest.cpp - The window at real sizes, driven by hand -------===//
//
// The window at 1280x720, 1920x1080 and 2560x1440 and zoomed, the named
// layouts, and the mouse and keys as a person uses them (xdotool): select
// and copy, save from the menu, Ctrl+F.
//
//===----------------------------------------------------------------------===//

#include "GuiTestSupport.h"

using namespace klx;
using namespace klx::guitest;

TEST_CASE("GUI: the window fits 1280x720, 1920x1080 and 2560x1440",
          "[gui][layout]") {
  const std::set<std::string> explore = {
      "Samples", "Passes",           "Source",   "Structure",
      "IR",      "Barrier timeline", "Assembly", "Guide"};
  for (ScreenSize screen : {ScreenSize{1280, 720}, ScreenSize{1920, 1080},
                            ScreenSize{2560, 1440}}) {
    std::string size =
        std::to_string(screen.width) + "x" + std::to_string(screen.height);
    INFO("screen " << size);
    Image image = screenshotOn(screen, "screen-" + size + ".png",
                               {"--pass=klx-to-nvgpu"});
    // The window takes the screen's work area, not a size of its own.
    CHECK(image.width == screen.width);
    CHECK(image.height == screen.height);
    CHECK(paneNames(image) == explore);
    requireFits(image);
    requireBusy(image, kIR, "IR");
    requireBusy(image, kSource, "Source");
  }
  // 150% on the smallest screen: the font rasterised at 1.5 times its
  // size, every pane still inside and below the menu.
  Image zoomed = screenshotOn({1280, 720}, "screen-1280x720-150.png",
                              {"--pass=klx-to-nvgpu", "--zoom=150"});
  CHECK(zoomed.zoom == 150);
  CHECK(zoomed.fontSize >= 22);
  CHECK(paneNames(zoomed) == explore);
  requireFits(zoomed);
  requireBusy(zoomed, kIR, "IR at 150%");
}

TEST_CASE("GUI: the Teach and Diff layouts", "[gui][layout]") {
  // Teach: the lesson, the source and the IR large, the roles and the
  // timeline below them, in a large font; the rest hidden.
  Image teach = screenshotOn({1280, 720}, "layout-teach.png",
                             {"--layout=teach", "--pass=klx-warp-specialize"});
  CHECK(teach.layout == "teach");
  CHECK(teach.fontSize >= 22);
  // The pass list and the assembly are tabs beside the roles and the
  // timeline.
  CHECK(paneNames(teach) ==
        std::set<std::string>{"Guide", "Source", "IR", "Structure", "Output"});
  requireFits(teach);
  requireBusy(teach, kRun, "Lesson");
  requireBusy(teach, kIR, "IR");
  Rect guide = paneRect(teach, kRun), ir = paneRect(teach, kIR);
  CHECK((guide.y1 - guide.y0) > teach.height * 8 / 10); // down the left
  CHECK((ir.x1 - ir.x0) > teach.width * 3 / 10);
  // Diff: the pass list and the IR diff across the window, at 100%.
  Image diff = screenshotOn({1280, 720}, "layout-diff.png",
                            {"--layout=diff", "--pass=klx-to-nvgpu"});
  CHECK(paneNames(diff) == std::set<std::string>{"Passes", "IR"});
  CHECK(diff.fontSize < 16);
  requireFits(diff);
  // The diff is on: added lines in green, removed in red.
  RegionStats stats = measure(diff, kIR);
  INFO("IR pane in the Diff layout: " << stats.green << " green, "
                                      << stats.reddish << " reddish");
  CHECK(stats.reddish > 2000);
}

TEST_CASE("GUI: select IR with the mouse, copy it, save the step from the "
          "menu",
          "[gui][copy]") {
  // Driven as a person would: xdotool drags over three lines of the IR
  // pane and presses Ctrl+C, xclip reads the clipboard; a right click
  // opens the text's menu and "Save this step's IR as..." writes the file
  // beside the kernel.
  requireTools({"xdotool", "xclip", "xvfb-run"});
  TempDir dir("klx-copy");
  std::string kernel = dir.path + "/gemm.mlir";
  writeFile(kernel, readFile(std::string(KLX_SOURCE_DIR) +
                             "/samples/nvidia/gemm_ws_persistent.mlir"));
  // Where the IR pane is: the same window's layout, from a screenshot.
  Image layout = screenshot("copy-layout.png", {kernel, "--pass=klx-to-nvgpu"});
  Rect ir = paneRect(layout, kIR);
  int x0 = ir.x0 + (ir.x1 - ir.x0) * 3 / 10,
      x1 = ir.x0 + (ir.x1 - ir.x0) * 9 / 10;
  int y0 = ir.y0 + (ir.y1 - ir.y0) * 45 / 100;
  int y1 = y0 + int(layout.fontSize * 2.5); // two lines further down
  int menuY = ir.y0 + (ir.y1 - ir.y0) * 60 / 100;
  // The menu: Copy, Copy line N, Select all, a separator, then Save this
  // step's IR as... about 77 pixels below the click at 100%.
  std::string script =
      llvm::formatv(
          R"(set -u
"{1}" "{2}" --pass=klx-to-nvgpu --ready-file={0}/ready &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
{4}
xdotool mousemove {3} {5} click 3; sleep 0.5
xdotool mousemove {6} {7} click 1; sleep 0.5
xdotool keydown Return; sleep 0.15; xdotool keyup Return; sleep 1
kill $pid; wait $pid
)",
          dir.path, KLX_BINARY, kernel, x0,
          dragAndCopy(x0, y0, x1, y1, dir.path + "/clipboard.txt"), menuY,
          x0 + 60, menuY + 77)
          .str();
  INFO(driveWindow(dir.path, script));
  std::string saved = dir.path + "/gemm.klx-to-nvgpu.mlir";
  REQUIRE(llvm::sys::fs::exists(saved));
  std::string text = readFile(saved);
  CHECK(text.find("nvgpu.mbarrier") != std::string::npos);
  std::string copied = readFile(dir.path + "/clipboard.txt");
  INFO("copied: " << copied);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(copied).split(lines, '\n');
  REQUIRE(lines.size() >= 3);
  // Whole middle lines are lines of the step's IR; the first and the last
  // are parts of lines.
  for (llvm::StringRef line : lines) {
    INFO("copied line: " << line.str());
    CHECK(llvm::StringRef(text).contains(line));
  }
  CHECK(llvm::StringRef(text).contains(lines[1].str() + "\n"));
}

TEST_CASE("GUI: drag over rows of the IR diff and copy them", "[gui][copy]") {
  // The Diff layout shows klx-to-nvgpu against the step before, side by
  // side; xdotool drags down the right column and presses Ctrl+C. What
  // xclip reads are whole lines of the step's own IR, as the CLI prints it.
  requireTools({"xdotool", "xclip", "xvfb-run"});
  TempDir dir("klx-diffcopy");
  std::string kernel =
      std::string(KLX_SOURCE_DIR) + "/samples/nvidia/gemm_ws_persistent.mlir";
  Image layout = screenshot("diff-copy-layout.png",
                            {"--layout=diff", "--pass=klx-to-nvgpu"});
  Rect ir = paneRect(layout, kIR);
  int x = ir.x0 + (ir.x1 - ir.x0) * 3 / 4;
  int y0 = ir.y0 + (ir.y1 - ir.y0) * 40 / 100;
  int y1 = y0 + int(layout.fontSize * 4.5); // four rows further down
  std::string script =
      llvm::formatv(
          R"(set -u
"{1}" compile "{2}" --stop-after=klx-to-nvgpu > {0}/after.mlir
"{1}" "{2}" --layout=diff --pass=klx-to-nvgpu --ready-file={0}/ready &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
{3}
kill $pid; wait $pid
)",
          dir.path, KLX_BINARY, kernel,
          dragAndCopy(x, y0, x, y1, dir.path + "/clipboard.txt"))
          .str();
  INFO(driveWindow(dir.path, script));
  std::string after = readFile(dir.path + "/after.mlir");
  std::string copied = readFile(dir.path + "/clipboard.txt");
  INFO("copied: " << copied);
  REQUIRE(after.find("nvgpu.mbarrier") != std::string::npos);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(copied).rtrim('\n').split(lines, '\n');
  CHECK(lines.size() >= 4);
  for (llvm::StringRef line : lines) {
    INFO("copied line: " << line.str());
    CHECK(llvm::StringRef(after).contains("\n" + line.str() + "\n"));
  }
}

namespace {
/// Pixels of the box Ctrl+F draws around each match (palette's
/// searchOutline in the dark theme, 240 200 60).
size_t searchOutlinePixels(const Image &image, Rect r) {
  size_t count = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const unsigned char *p = image.at(x, y);
      count += p[0] == 240 && p[1] == 200 && p[2] == 60;
    }
  return count;
}
} // namespace

TEST_CASE("GUI: Ctrl+F in the IR pane and in the Source editor",
          "[gui][find]") {
  // Driven with xdotool: a click in the IR pane, Ctrl+F, a word, Enter;
  // then the same in the Source pane, clicked on its title bar: a click on
  // a line of code would show that line's IR, away from the IR's matches.
  // Both panes box their matches.
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-find");
  Image layout = screenshot("find-layout.png", {"--pass=klx-to-nvgpu"});
  Rect ir = paneRect(layout, kIR), source = paneRect(layout, kSource);
  std::string png = outputPath("find.png");
  llvm::sys::fs::remove(png);
  auto ctrl = [](char key) { return pressKey("ctrl", std::string(1, key)); };
  std::string script =
      llvm::formatv(R"(set -u
"{1}" "{8}" --pass=klx-to-nvgpu --ready-file={0}/ready --screenshot={2} --screenshot-when={0}/look &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
xdotool mousemove {3} {4} click 1; sleep 0.3
{7}
xdotool type --delay 60 "mbarrier"; sleep 0.3
xdotool keydown Return; sleep 0.15; xdotool keyup Return; sleep 0.5
xdotool mousemove {5} {6} click 1; sleep 0.3
{7}
xdotool type --delay 60 "klx.load"; sleep 0.5
touch {0}/look
wait $pid
)",
                    dir.path, KLX_BINARY, png, (ir.x0 + ir.x1) / 2,
                    (ir.y0 + ir.y1) / 2, (source.x0 + source.x1) / 2,
                    source.y0 + 8, ctrl('f'), kSample)
          .str();
  INFO(driveWindow(dir.path, script));
  Image found = loadScreenshot(png);
  // Right of the Source pane's gutter, whose fold rule has the colour too.
  Rect editor = paneRect(found, kSource);
  editor.x0 += int(found.fontSize * 4);
  size_t inIR = searchOutlinePixels(found, paneRect(found, kIR));
  size_t inSource = searchOutlinePixels(found, editor);
  INFO("match boxes: " << inIR << " pixels in the IR pane, " << inSource
                       << " in the Source editor");
  CHECK(inIR > 300);
  CHECK(inSource > 150);
}

TEST_CASE("GUI: the light theme, from the command line and by Alt+L",
          "[gui][theme]") {
  // Every pane is light with --theme=light (a projector's theme), and the
  // IR is still busy with syntax colours.
  Image light = screenshotOn({1280, 720}, "theme-light.png",
                             {"--theme=light", "--pass=klx-to-nvgpu"});
  CHECK(light.theme == "light");
  requireFits(light);
  for (const auto &[name, rect] : light.panes) {
    RegionStats stats = measure(light, paneRect(light, name.c_str()));
    INFO(name << ": mean luma " << stats.meanLuma);
    CHECK(stats.meanLuma > 170);
  }
  requireBusy(light, kIR, "IR in the light theme");
  // Driven as a person would: Alt+L in a dark window turns it light, and
  // the ini file remembers it for the next start.
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-theme");
  std::string png = outputPath("theme-alt-l.png");
  llvm::sys::fs::remove(png);
  std::string script = llvm::formatv(R"(set -u
"{1}" "{3}" --pass=klx-to-nvgpu --ready-file={0}/ready --screenshot={2} --screenshot-when={0}/look &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
xdotool mousemove 800 450 click 1; sleep 0.3
xdotool keydown alt; sleep 0.15; xdotool keydown l; sleep 0.15
xdotool keyup l; sleep 0.2; xdotool keyup alt; sleep 0.6
touch {0}/look
wait $pid
# Without a screenshot the window keeps an ini file: Alt+L is written to
# it within ImGui's save interval.
"{1}" "{3}" --pass=klx-to-nvgpu --ready-file={0}/ready2 &
pid=$!
for i in $(seq 600); do [ -e {0}/ready2 ] && break; sleep 0.2; done
sleep 0.5
xdotool mousemove 800 450 click 1; sleep 0.3
xdotool keydown alt; sleep 0.15; xdotool keydown l; sleep 0.15
xdotool keyup l; sleep 0.2; xdotool keyup alt
for i in $(seq 50); do
  grep -q theme=light {0}/.env/config/klx/imgui.ini 2>/dev/null && break
  sleep 0.2
done
kill $pid; wait $pid
grep theme= {0}/.env/config/klx/imgui.ini
)",
                                     dir.path, KLX_BINARY, png, kSample)
                           .str();
  std::string output = driveWindow(dir.path, script);
  INFO(output);
  Image toggled = loadScreenshot(png);
  CHECK(toggled.theme == "light");
  RegionStats ir = measure(toggled, kIR);
  INFO("IR after Alt+L: mean luma " << ir.meanLuma);
  CHECK(ir.meanLuma > 170);
  CHECK(output.find("theme=light") != std::string::npos);
}

TEST_CASE("GUI: a sweep typed into the Sweep pane, compiled and ranked",
          "[gui][sweep]") {
  // Driven as a person would: a click in the Sweep pane's -D field, the
  // lists typed, Enter. The window compiles both variants and hands the
  // bundles to klx-run --sweep; a stand-in answers with the H100's ranked
  // runs (fixture) after checking what it was handed.
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-sweep-gui");
  std::string runner = dir.path + "/fake-klx-run.sh";
  writeFile(runner,
            llvm::formatv(
                "#!/bin/sh\n"
                "if [ \"$1\" = --device ]; then echo 'Stand-in GPU (sm_90, 1 "
                "SMs)'; exit 0; fi\n"
                "echo \"$@\" > {0}/args\n"
                "test -f \"$2/sweep.json\" && test -f "
                "\"$2/stages-3/kernel.cubin\" || exit 1\n"
                "cat {1}/tests/fixtures/sweep/h100-ws-runs.json\n",
                dir.path, KLX_SOURCE_DIR)
                .str());
  llvm::sys::fs::setPermissions(runner, llvm::sys::fs::all_read |
                                            llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
  Image layout = screenshot("sweep-layout.png", {"--show=Sweep"});
  Rect guide = paneRect(layout, kRun);
  std::string png = outputPath("sweep-typed.png");
  llvm::sys::fs::remove(png);
  std::string script =
      llvm::formatv(R"(set -u
export KLX_RUN={1}
"{2}" {3}/samples/nvidia/gemm_pingpong.mlir --show=Sweep --ready-file={0}/ready --screenshot={4} --screenshot-when={0}/look &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
xdotool mousemove {5} {6}; sleep 0.3; xdotool click 1; sleep 0.3
xdotool type --delay 40 "stages=2,3"; sleep 0.3
xdotool keydown Return; sleep 0.15; xdotool keyup Return
for i in $(seq 600); do [ -e {0}/args ] && break; sleep 0.2; done
sleep 1.5
touch {0}/look
wait $pid
)",
                    dir.path, runner, KLX_BINARY, KLX_SOURCE_DIR, png,
                    guide.x0 + 60, guide.y0 + int(layout.fontSize * 2.7))
          .str();
  INFO(driveWindow(dir.path, script));
  std::string args = readFile(dir.path + "/args");
  INFO("klx-run was called with: " << args);
  CHECK(llvm::StringRef(args).starts_with("--sweep "));
  CHECK(llvm::StringRef(args).contains(" --json"));
  Image typed = loadScreenshot(png);
  RegionStats stats = measure(typed, kRun);
  INFO("Sweep pane after the sweep: green " << stats.green << ", blue "
                                            << stats.blue);
  CHECK(stats.green > 800);
  CHECK(stats.blue > 3000);
}

TEST_CASE("GUI: a path typed into the Samples pane, completed and chosen",
          "[gui][paths]") {
  // As a person would, in three windows. A click in the path field, the
  // start of a folder's name typed, Tab (the one folder that matches,
  // with its '/'), Down twice and Enter: the second kernel listed there
  // opens. Then the folder's path typed, a click (held as a hand holds
  // it) on the folder listed steps into it, "a" typed after its '/' and
  // Tab, Enter: the first kernel opens. Then a whole path typed, Escape
  // (which must not undo the typing) and a click on Open.
  requireTools({"xdotool", "xvfb-run"});
  TempDir temp("klx-paths-gui");
  const std::string &dir = temp.path;
  REQUIRE_FALSE(llvm::sys::fs::create_directory(dir + "/kernels"));
  std::string samples = std::string(KLX_SOURCE_DIR) + "/samples/nvidia/";
  REQUIRE_FALSE(llvm::sys::fs::copy_file(samples + "gemm_ws_persistent.mlir",
                                         dir + "/kernels/a_ws.mlir"));
  REQUIRE_FALSE(llvm::sys::fs::copy_file(samples + "gemm_two_producers.mlir",
                                         dir + "/kernels/b_two.mlir"));
  writeFile(dir + "/notes.txt", "not a kernel\n");

  Image layout = screenshot("paths-layout.png", {});
  Rect samplesPane = paneRect(layout, kSamples);
  int fieldY = samplesPane.y0 + int(layout.fontSize * 1.2);
  std::string field = heldClick(samplesPane.x0 + 40, fieldY);
  auto type = [](const std::string &text) {
    return "xdotool type --delay 40 '" + text + "'; sleep 0.4\n";
  };
  std::string key = "xdotool key {0}; sleep 0.3\n";
  auto press = [&](const char *name) {
    return llvm::formatv(key.c_str(), name).str();
  };

  Image keys =
      typedIntoWindow(dir, "paths-keys.png",
                      field + type(dir + "/ker") + press("Tab") +
                          press("Down") + press("Down") + press("Return"));
  CHECK(keys.source == dir + "/kernels/b_two.mlir");

  int firstRowY = fieldY + int(layout.fontSize * 2.0);
  Image clicked = typedIntoWindow(
      dir, "paths-clicked.png",
      field + type(dir + "/") + heldClick(samplesPane.x0 + 40, firstRowY) +
          type("a") + press("Tab") + press("Return"));
  CHECK(clicked.source == dir + "/kernels/a_ws.mlir");

  int openX = samplesPane.x1 - int(layout.fontSize * 1.8);
  Image escaped =
      typedIntoWindow(dir, "paths-escaped.png",
                      field + type(dir + "/kernels/b_two.mlir") +
                          press("Escape") + heldClick(openX, fieldY));
  CHECK(escaped.source == dir + "/kernels/b_two.mlir");
}

TEST_CASE("GUI: the Save-as dialog completes a folder's name", "[gui][paths]") {
  // A right click in the IR pane, "Save this step's IR as...", Ctrl+A over
  // the suggested path, the start of a folder's name typed, Tab (the
  // folder, with its '/'), Enter (refused: a folder is not a file's path;
  // the field keeps the keyboard), a file name typed after it, Enter: the
  // step's IR is in that folder, and nothing was written as the folder.
  requireTools({"xdotool", "xvfb-run"});
  TempDir temp("klx-save-gui");
  const std::string &dir = temp.path;
  REQUIRE_FALSE(llvm::sys::fs::create_directory(dir + "/outputs"));
  Image layout = screenshot("save-layout.png", {"--pass=klx-to-nvgpu"});
  Rect ir = paneRect(layout, kIR);
  int x = ir.x0 + (ir.x1 - ir.x0) * 3 / 10;
  int menuY = ir.y0 + (ir.y1 - ir.y0) * 60 / 100;
  // The text's menu: Save this step's IR as... about 77 pixels below the
  // click at 100% (as in the copy test above).
  std::string script =
      llvm::formatv(
          R"(set -u
"{1}" {2}/samples/nvidia/gemm_ws_persistent.mlir --pass=klx-to-nvgpu --ready-file={0}/ready &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
xdotool mousemove {3} {4} click 3; sleep 0.5
xdotool mousemove {5} {6} click 1; sleep 0.6
xdotool key ctrl+a; sleep 0.3
xdotool type --delay 40 '{0}/out'; sleep 0.4
xdotool key Tab; sleep 0.4
xdotool key Return; sleep 0.5
xdotool type --delay 40 'step.mlir'; sleep 0.4
xdotool key Return; sleep 1
kill $pid; wait $pid
)",
          dir, KLX_BINARY, KLX_SOURCE_DIR, x, menuY, x + 60, menuY + 77)
          .str();
  INFO(driveWindow(dir, script));
  std::string saved = dir + "/outputs/step.mlir";
  REQUIRE(llvm::sys::fs::exists(saved));
  CHECK(readFile(saved).find("nvgpu.mbarrier") != std::string::npos);
}

TEST_CASE("GUI: a pane enlarged by a double click on its title, and put back",
          "[gui][layout]") {
  // A recorded trace in the Guide pane, a small pane at 1600x900. A
  // double click on its title: it alone fills the area between the bars.
  // Another on the same title: every pane is back where it was, the IR
  // pane where the user had dragged it. Enlarged, zoomed in (the layout
  // placed anew) and put back: every pane where the layout puts it. A
  // click in the Source pane and Alt+0: the Source pane fills the window.
  // Each window starts from folders of its own (nothing saved by
  // another: windowEnvironment).
  requireTools({"xdotool", "xvfb-run"});
  TempDir temp("klx-enlarge-gui");
  int runs = 0;
  auto freshDir = [&] {
    std::string sub = temp.path + "/" + std::to_string(++runs);
    REQUIRE_FALSE(llvm::sys::fs::create_directory(sub));
    return sub;
  };
  std::vector<std::string> trace = {
      "--open-trace=" + std::string(KLX_SOURCE_DIR) +
      "/tests/fixtures/trace/h100-ws-2048.json"};
  Image layout = typedIntoWindow(freshDir(), "enlarge-layout.png", "", trace);
  // Whole windows, title bars included (paneRect is what is below them).
  Rect guide = layout.panes.at(kRun), ir = layout.panes.at(kIR),
       source = paneRect(layout, kSource);
  // Each press and release held for a few frames, the second press within
  // ImGui's 0.3 s: a click repeated at once could fall in one frame.
  auto doubleClick = [](int x, int y) {
    return llvm::formatv(
               "xdotool mousemove {0} {1}; sleep 0.3; xdotool mousedown 1; "
               "sleep 0.06; xdotool mouseup 1; sleep 0.06; xdotool mousedown "
               "1; sleep 0.06; xdotool mouseup 1; sleep 0.8\n",
               x, y)
        .str();
  };
  int titleDy = int(layout.fontSize * 0.6);
  // Right of the middle: the IR pane, dragged below, overlaps its left.
  int guideX = guide.x0 + (guide.x1 - guide.x0) * 2 / 3;
  std::string onGuide = doubleClick(guideX, guide.y0 + titleDy);
  int enlargedTitleY = layout.menuBar.y1 + titleDy;
  std::string backFromGuide = doubleClick(guideX, enlargedTitleY);

  Image enlarged =
      typedIntoWindow(freshDir(), "enlarge-guide.png", onGuide, trace);
  CHECK(paneNames(enlarged) == std::set<std::string>{"Guide"});
  requireFits(enlarged);

  // The IR pane dragged 60 pixels right and down by its title first.
  std::string drag = llvm::formatv(
      "xdotool mousemove {0} {1}; sleep 0.3; xdotool mousedown 1; sleep 0.2; "
      "xdotool mousemove {2} {3}; sleep 0.2; xdotool mousemove {4} {5}; "
      "sleep 0.3; xdotool mouseup 1; sleep 0.5\n",
      ir.x0 + 120, ir.y0 + titleDy, ir.x0 + 150, ir.y0 + titleDy + 30,
      ir.x0 + 180, ir.y0 + titleDy + 60);
  auto requireEveryPaneBack = [&](const Image &back) {
    CHECK(paneNames(back) == paneNames(layout));
    for (const auto &[name, r] : layout.panes) {
      INFO("pane " << name);
      REQUIRE(back.panes.count(name));
      Rect now = back.panes.at(name);
      int moved = name == kIR ? 60 : 0;
      CHECK(now.x0 == r.x0 + moved);
      CHECK(now.y0 == r.y0 + moved);
      CHECK(now.x1 - now.x0 == r.x1 - r.x0);
      CHECK(now.y1 - now.y0 == r.y1 - r.y0);
    }
  };
  Image back = typedIntoWindow(freshDir(), "enlarge-back.png",
                               drag + onGuide + backFromGuide, trace);
  requireEveryPaneBack(back);
  // The second press held while the pane is put back, as a slow hand
  // holds it: the press had begun a drag of the enlarged pane by its
  // title, and the pane put back followed it to the top-left corner.
  std::string backHeld = llvm::formatv(
      "xdotool mousemove {0} {1}; sleep 0.3; xdotool mousedown 1; "
      "sleep 0.06; xdotool mouseup 1; sleep 0.06; xdotool mousedown 1; "
      "sleep 0.8; xdotool mouseup 1; sleep 0.8\n",
      guideX, enlargedTitleY);
  requireEveryPaneBack(typedIntoWindow(freshDir(), "enlarge-back-held.png",
                                       drag + onGuide + backHeld, trace));

  // Zoomed in while enlarged: the bars grow, the layout is placed anew,
  // and the Guide pane goes back to where the layout puts it now.
  Image rezoomed =
      typedIntoWindow(freshDir(), "enlarge-zoomed-back.png",
                      onGuide + "xdotool key ctrl+equal; sleep 0.8\n" +
                          doubleClick(guideX, enlargedTitleY + 4),
                      trace);
  CHECK(rezoomed.zoom == 110);
  CHECK(paneNames(rezoomed) == paneNames(layout));
  requireFits(rezoomed);

  std::string keys =
      llvm::formatv("xdotool mousemove {0} {1}; sleep 0.2; xdotool click 1; "
                    "sleep 0.3; xdotool key alt+0; sleep 0.8\n",
                    (source.x0 + source.x1) / 2, (source.y0 + source.y1) / 2)
          .str();
  Image bySource =
      typedIntoWindow(freshDir(), "enlarge-source.png", keys, trace);
  CHECK(paneNames(bySource) == std::set<std::string>{"Source"});
}
