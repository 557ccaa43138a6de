//===- GuiEditTest.cpp - Editing the kernel in the Source pane ------------===//
//
// What a person types into the Source editor, saved and read back.
//
//===----------------------------------------------------------------------===//

#include "GuiTestSupport.h"

using namespace klx::guitest;

TEST_CASE("GUI: select all and type replaces the folded header too",
          "[gui][edit]") {
  // The sample's 52 lines of RUN/CHECK directives are folded out of the
  // editor. Ctrl+A selects what it shows; what is typed over it is the
  // whole file once saved (the folded lines stayed, hidden, and came back).
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-edit");
  std::string kernel = dir.path + "/k.mlir";
  writeFile(kernel, readFile(kSample));
  auto ctrl = [](const char *key) { return pressKey("ctrl", key); };
  std::string script =
      llvm::formatv(R"(set -u
"{1}" "{2}" --ready-file={0}/ready &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
xdotool mousemove 500 300 click 1; sleep 0.3
{3}
xdotool type --delay 60 '// all'; sleep 0.5
{4}
sleep 0.5
kill $pid; wait $pid
)",
                    dir.path, KLX_BINARY, kernel, ctrl("a"), ctrl("s"))
          .str();
  INFO(driveWindow(dir.path, script));
  CHECK(readFile(kernel) == "// all");
}

TEST_CASE("GUI: the line marked in Source is marked in the IR diff too",
          "[gui][edit]") {
  // With the diff on, lesson 03's step 4 marks source line 96 (the
  // klx.mma) at klx-to-nvgpu: its nvgpu ops on the diff's new side are in
  // the correlated colour, scrolled to. The diff marked nothing.
  requireTools({"xdotool", "xvfb-run"});
  TempDir dir("klx-diffmark");
  Image marked = typedIntoWindow(dir.path, "diff-marked.png", lessonStepKeys(4),
                                 {"--diff"});
  CHECK(marked.step == "klx-to-nvgpu");
  size_t correlated = countNear(marked, paneRect(marked, kIR), 42, 56, 24, 4);
  INFO("IR diff pixels in the correlated colour: " << correlated);
  CHECK(correlated > 1000);
}
