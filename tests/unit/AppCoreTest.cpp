//===- AppCoreTest.cpp - The window's state, without a window -------------===//

#include "AppTestSupport.h"

#include "core/AppController.h"
#include "core/Lesson.h"
#include "core/SampleCatalog.h"
#include "klx/Support/LineDiff.h"
#include "views/SourceCorrelation.h"

#include "llvm/Support/FileSystem.h"

#include <chrono>
#include <thread>

#include <sys/stat.h>

using namespace klx;
using namespace klx::app;
using namespace klx::test;

namespace {} // namespace

TEST_CASE("Stepping visits visible steps; hiding skips unchanged ones",
          "[app]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  controller.apply(cmd::SetStopAfter{"reconcile-unrealized-casts#2"}, 0);
  controller.apply(cmd::OpenFile{test::sourcePath("samples/nvidia/saxpy.mlir")},
                   0);
  waitForRun(controller, 0);
  const AppState &state = controller.state();
  const PipelineRun &run = *state.run;
  REQUIRE(run.snapshots.back().displayName() == "reconcile-unrealized-casts#2");

  controller.apply(cmd::SelectStep{}, 0);
  controller.apply(cmd::StepForward{}, 0);
  CHECK(state.view.selected == 1); // convert-nvgpu-to-nvvm, unchanged

  controller.apply(cmd::SetHideUnchanged{true}, 0);
  controller.apply(cmd::SelectStep{}, 0);
  controller.apply(cmd::StepForward{}, 0);
  CHECK(run.snapshots[state.view.selected].displayName() ==
        "gpu-kernel-outlining");
  for (int step : visibleSteps(run, true))
    CHECK((step == 0 || run.snapshots[step].changed));
  controller.apply(cmd::StepBack{}, 0);
  CHECK(state.view.selected == 0);
  controller.apply(cmd::StepBack{}, 0);
  CHECK(state.view.selected == 0); // stays at the first step

  // Selection survives a recompile, by step name.
  controller.apply(cmd::SelectStep{14}, 0);
  std::string name = run.snapshots[14].displayName();
  controller.apply(cmd::Recompile{}, 0);
  waitForRun(controller, 0);
  CHECK(state.run->snapshots[state.view.selected].displayName() == name);
}

TEST_CASE("Edits recompile after a pause in typing", "[app]") {
  TempFolder folder;
  std::string path = folder.file("k.mlir");
  writeFile(
      path,
      "gpu.module @m {\n  gpu.func @k() kernel {\n    gpu.return\n  }\n}\n");
  ControllerOptions options = testOptions(folder);
  options.typingPause = 0.4;
  AppController controller(options);
  controller.apply(cmd::SetStopAfter{"parse"}, 0);
  controller.apply(cmd::OpenFile{path}, 0);
  waitForRun(controller, 0);
  const PipelineRun *first = controller.state().run.get();

  controller.apply(
      cmd::EditSource{"gpu.module @m {\n  gpu.func @k() kernel {\n    "
                      "gpu.return\n  }\n}\n// edit\n"},
      10.0);
  CHECK(controller.secondsUntilDeadline(10.1) == Approx(0.3));
  controller.tick(10.1);
  CHECK(controller.state().run.get() == first); // still typing
  controller.apply(
      cmd::EditSource{"gpu.module @m {\n  gpu.func @k() kernel {\n    "
                      "gpu.return\n  }\n}\n// edit 2\n"},
      10.3);
  controller.tick(10.6); // 0.3 s after the last edit: not yet
  CHECK(controller.secondsUntilDeadline(10.6) == Approx(0.1));
  controller.tick(10.71);
  waitForRun(controller, 10.71);
  CHECK(controller.state().run.get() != first);
  CHECK(controller.state().run->source.find("// edit 2") != std::string::npos);
}

TEST_CASE("Edits are autosaved, restored on open, and never overwrite the file",
          "[app]") {
  TempFolder folder;
  std::string path = folder.file("k.mlir");
  std::string original = "gpu.module @m {}\n";
  writeFile(path, original);
  ControllerOptions options = testOptions(folder);
  {
    AppController controller(options);
    controller.apply(cmd::OpenFile{path}, 0);
    controller.apply(cmd::EditSource{"gpu.module @m {}\n// mine\n"}, 1);
    CHECK(controller.state().source.modified());
  }
  auto onDisk = llvm::MemoryBuffer::getFile(path);
  REQUIRE(onDisk);
  CHECK((*onDisk)->getBuffer() == original);

  AppController restarted(options);
  restarted.apply(cmd::OpenFile{path}, 0);
  const SourceBuffer &source = restarted.state().source;
  CHECK(source.restoredFromAutosave);
  CHECK(source.text == "gpu.module @m {}\n// mine\n");
  CHECK(source.diskText == original);

  restarted.apply(cmd::RevertSource{}, 0);
  CHECK(restarted.state().source.text == original);
  CHECK_FALSE(restarted.state().source.restoredFromAutosave);
  AppController again(options);
  again.apply(cmd::OpenFile{path}, 0);
  CHECK_FALSE(again.state().source.restoredFromAutosave);

  again.apply(cmd::EditSource{"gpu.module @m {}\n// saved\n"}, 1);
  again.apply(cmd::SaveSource{}, 1);
  onDisk = llvm::MemoryBuffer::getFile(path);
  CHECK((*onDisk)->getBuffer() == "gpu.module @m {}\n// saved\n");
  CHECK_FALSE(again.state().source.modified());
}

TEST_CASE("A bad path in the Open field keeps what is open", "[app]") {
  TempFolder folder;
  std::string path = folder.file("k.mlir");
  writeFile(path, "gpu.module @m {}\n");
  // A pipe with no writer: reading it would block the window for good.
  std::string fifo = folder.file("pipe.mlir");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string huge = folder.file("huge.mlir");
  writeFile(huge, std::string(17u << 20, ' '));
  AppController controller(testOptions(folder));
  controller.apply(cmd::OpenFile{path}, 0);
  controller.apply(cmd::EditSource{"gpu.module @m {}\n// typed\n"}, 0);
  struct Case {
    std::string path, reason;
  } cases[] = {
      {folder.file("missing.mlir"), "No such file or directory"},
      {std::string(folder.path), "it is a directory, not a kernel source"},
      {"/dev/zero",
       "it is not a regular file (a pipe, a device or a socket): open a "
       ".mlir file"},
      {fifo, "it is not a regular file (a pipe, a device or a socket): open a "
             ".mlir file"},
      {huge, "the file is 17.0 MB; klx compiles kernels of up to 16 MB"},
      {"", "No such file or directory"},
  };
  for (const Case &c : cases) {
    INFO("opening '" << c.path << "'");
    controller.apply(cmd::OpenFile{c.path}, 0);
    CHECK(controller.state().source.path == path);
    CHECK(controller.state().source.text == "gpu.module @m {}\n// typed\n");
    CHECK(controller.state().messageIsError);
    CHECK(controller.state().message ==
          "cannot open " + c.path + ": " + c.reason);
  }
}

TEST_CASE("File > Open recent: the latest first, once each, eight at most",
          "[app]") {
  TempFolder folder;
  std::vector<std::string> files;
  for (int i = 0; i < 10; ++i) {
    files.push_back(folder.file("k" + std::to_string(i) + ".mlir"));
    writeFile(files.back(), "gpu.module @m {}\n");
  }
  ControllerOptions options = testOptions(folder);
  options.recentFiles = {files[9]}; // from the window's settings
  AppController controller(options);
  CHECK(controller.state().recentFiles == std::vector<std::string>{files[9]});
  controller.apply(cmd::OpenFile{files[0]}, 0);
  controller.apply(cmd::OpenFile{files[1]}, 0);
  controller.apply(cmd::OpenFile{files[0]}, 0);
  CHECK(controller.state().recentFiles ==
        std::vector<std::string>{files[0], files[1], files[9]});
  // A path that does not open is not remembered.
  controller.apply(cmd::OpenFile{folder.file("missing.mlir")}, 0);
  CHECK(controller.state().recentFiles.size() == 3);
  for (int i = 2; i < 9; ++i)
    controller.apply(cmd::OpenFile{files[size_t(i)]}, 0);
  REQUIRE(controller.state().recentFiles.size() == kRecentFiles);
  CHECK(controller.state().recentFiles.front() == files[8]);
  CHECK(controller.state().recentFiles.back() == files[0]); // 1 and 9 fell off
}

TEST_CASE("The window's compiles keep IR up to the snapshot limit", "[app]") {
  TempFolder folder;
  ControllerOptions options = testOptions(folder);
  options.maxSnapshotBytes = 64 << 10;
  AppController controller(options);
  controller.apply(
      cmd::OpenFile{test::sourcePath("samples/nvidia/gemm_ws_persistent.mlir")},
      0);
  waitForRun(controller, 0);
  const PipelineRun &run = *controller.state().run;
  // The run is whole; only the IR of the later MLIR steps is not kept.
  REQUIRE(run.succeeded());
  size_t kept = 0, dropped = 0, largest = 0;
  for (const Snapshot &s : run.snapshots) {
    if (s.kind != EmitKind::MLIR)
      continue;
    if (s.text.empty()) {
      ++dropped;
      CHECK(llvm::StringRef(s.skippedReason)
                .starts_with("the IR after this step is not kept: the run's "
                             "snapshots reached 64 KB"));
    } else {
      kept += s.text.size();
      largest = std::max(largest, s.text.size());
    }
  }
  CHECK(dropped > 0);
  // The step that crosses the limit is still kept whole.
  CHECK(kept < (64u << 10) + largest);
  const Snapshot *ptx = run.findSnapshot("ptx");
  REQUIRE(ptx);
  CHECK_FALSE(ptx->text.empty()); // the assembly is there
}

TEST_CASE("Line diff of two snapshots", "[app]") {
  LineIndex before("a\nb\nc\nd\n"), after("a\nc\nd\ne\n");
  LineDiff diff = diffLines(before, after);
  CHECK(diff.added == 1);
  CHECK(diff.removed == 1);
  std::string script;
  for (const DiffLine &d : diff.lines)
    script += d.kind == DiffLine::Same    ? '='
              : d.kind == DiffLine::Added ? '+'
                                          : '-';
  CHECK(script == "=-==+");

  // Two real snapshots: outlining adds the gpu.module.
  CompileOptions options;
  options.stopAfter = "gpu-kernel-outlining";
  PipelineRun run = runPipeline(test::readSource("samples/nvidia/saxpy.mlir"),
                                "saxpy.mlir", options);
  REQUIRE(run.snapshots.size() == 4); // parse, klx-lint, nvvm, outlining
  LineIndex a(run.snapshots[2].text), b(run.snapshots[3].text);
  LineDiff real = diffLines(a, b);
  CHECK(real.added > 10);
  CHECK_FALSE(real.truncated);
  bool sawModule = false;
  for (const DiffLine &d : real.lines)
    if (d.kind == DiffLine::Added &&
        b.line(d.right).contains("gpu.module @saxpy_kernel"))
      sawModule = true;
  CHECK(sawModule);
  // Every line of both texts appears once, in order.
  int left = 0, right = 0;
  for (const DiffLine &d : real.lines) {
    if (d.left >= 0)
      CHECK(d.left == left++);
    if (d.right >= 0)
      CHECK(d.right == right++);
  }
  CHECK(left == int(a.size()));
  CHECK(right == int(b.size()));
}

TEST_CASE("A diff past the edit bound is reported as replaced", "[app]") {
  std::string x, y;
  for (int i = 0; i < 300; ++i) {
    x += "x" + std::to_string(i) + "\n";
    y += "y" + std::to_string(i) + "\n";
  }
  LineIndex a(x), b(y);
  LineDiff diff = diffLines(a, b, /*maxEdits=*/100);
  CHECK(diff.truncated);
  CHECK(diff.removed == 300);
  CHECK(diff.added == 300);
}

TEST_CASE("PTX and LLVM IR lines map back to source lines", "[app]") {
  CompileOptions options;
  options.stopAfter = "ptx";
  std::string source = test::readSource("samples/nvidia/saxpy.mlir");
  PipelineRun run = runPipeline(source, "saxpy.mlir", options);
  REQUIRE(run.succeeded());
  unsigned fmaLine = 0;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(source).split(lines, '\n');
  for (unsigned i = 0; i < lines.size(); ++i)
    if (lines[i].contains("= math.fma"))
      fmaLine = i + 1;
  REQUIRE(fmaLine);

  const std::string &ptx = run.artifacts[0].ptx;
  std::vector<uint32_t> ptxLines = sourceLinesOfText(ptx, Language::PTX);
  LineIndex index(ptx);
  bool fmaMapped = false;
  for (size_t i = 0; i < index.size(); ++i)
    if (index.line(i).contains("fma.rn.f32")) {
      CHECK(ptxLines[i] == fmaLine);
      fmaMapped = true;
    }
  CHECK(fmaMapped);

  const Snapshot *llvmIR = run.findSnapshot("llvm-opt");
  REQUIRE(llvmIR);
  std::vector<uint32_t> irLines = sourceLinesOf(*llvmIR);
  LineIndex irIndex(llvmIR->text);
  bool callMapped = false;
  for (size_t i = 0; i < irIndex.size(); ++i)
    if (irIndex.line(i).contains("@llvm.fma.f32(float"))
      callMapped |= irLines[i] == fmaLine;
  CHECK(callMapped);
}

TEST_CASE("Samples are grouped by folder with their lesson line", "[app]") {
  std::vector<SampleEntry> samples = scanSamples(test::sourcePath("samples"));
  REQUIRE(samples.size() >= 3);
  bool sawSaxpy = false;
  for (const SampleEntry &s : samples) {
    CHECK_FALSE(s.lesson.empty());
    if (s.name == "saxpy.mlir") {
      sawSaxpy = true;
      CHECK(s.group == "nvidia");
      CHECK(s.lesson.rfind("the smallest kernel", 0) == 0);
    }
  }
  CHECK(sawSaxpy);
  CHECK(lessonLine("// Lesson: x y\n//\n// more\n") == "x y");
  // A sentence over two lines, cut at its end.
  CHECK(lessonLine("// Lesson: one sentence over\n// two lines. Then more\n") ==
        "one sentence over two lines.");
  CHECK(lessonLine("module {}\n") == "");
}

TEST_CASE("SASS lines map back to source lines through nvdisasm's line info",
          "[app]") {
  std::string sass =
      test::readSource("tests/fixtures/sass/gemm_tma_wgmma.sass");
  std::vector<uint32_t> lines = sourceLinesOfText(sass, Language::SASS);
  LineIndex index(sass);
  REQUIRE(lines.size() >= index.size());
  // The first instruction follows '//## File "...", line 47'.
  size_t mapped = 0, instructions = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    if (!index.line(i).trim().starts_with("/*"))
      continue;
    ++instructions;
    mapped += lines[i] != 0;
    if (index.line(i).contains("/*0000*/"))
      CHECK(lines[i] == 47);
    if (index.line(i).contains("HGMMA"))
      CHECK(lines[i] != 0);
  }
  CHECK(instructions == 512);
  CHECK(mapped > 400);
}

TEST_CASE("-D values and Compare mode in the window's state",
          "[app][compare]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  std::string gemm = test::sourcePath("samples/nvidia/gemm_ws_persistent.mlir");
  controller.apply(cmd::SetDefines{"stages=2"}, 0);
  controller.apply(cmd::OpenFile{gemm}, 0);
  waitForRun(controller, 0);
  const AppState &state = controller.state();
  CHECK(state.defines == Defines{{"stages", "2"}});
  REQUIRE(state.run->launches.size() == 1);
  CHECK(state.run->launches[0].dynamicSharedBytes == 133120);

  // A bad -D keeps what was set and says why.
  controller.apply(cmd::SetDefines{"stages=2,=3"}, 0);
  CHECK(state.messageIsError);
  CHECK(state.defines == Defines{{"stages", "2"}});

  // Compare with 4 stages: a second run, compiled beside the first.
  controller.apply(cmd::SetCompare{"stages=4"}, 0);
  CHECK(state.compare.active());
  waitForRun(controller, 0);
  REQUIRE(state.compare.run);
  REQUIRE(state.compare.timeline);
  CHECK(state.compare.run->launches[0].dynamicSharedBytes == 231424);
  uint64_t serial = state.compare.serial;
  // An edit of the file recompiles both sides.
  controller.apply(cmd::Recompile{}, 0);
  waitForRun(controller, 0);
  CHECK(state.compare.serial > serial);

  // Another file, and one that does not open.
  controller.apply(
      cmd::SetCompare{test::sourcePath("samples/nvidia/no-such.mlir")}, 0);
  CHECK(state.messageIsError);
  CHECK(state.compare.variant == "stages=4"); // kept
  controller.apply(cmd::SetCompare{}, 0);
  CHECK_FALSE(state.compare.active());
  CHECK_FALSE(state.compare.run);
}

TEST_CASE("Lesson links drive the window", "[app][lessons]") {
  TempFolder folder;
  ControllerOptions options = testOptions(folder);
  options.lessonsDir = test::sourcePath("docs/lessons");
  AppController controller(options);
  const AppState &state = controller.state();
  REQUIRE(state.lesson.lessons.size() == 15);
  // Opening a sample brings its page.
  controller.apply(
      cmd::OpenFile{test::sourcePath("samples/nvidia/gather_indirect.mlir")},
      0);
  waitForRun(controller, 0);
  REQUIRE(state.lesson.current >= 0);
  CHECK(state.lesson.lessons[state.lesson.current].number == "07");
  REQUIRE(state.lesson.doc);
  CHECK(state.lesson.doc->sample == "samples/nvidia/gather_indirect.mlir");

  auto follow = [&](const std::string &target) {
    LinkAction action =
        followLink(target, options.lessonsDir, test::sourcePath(""));
    REQUIRE(action.error.empty());
    for (const Command &command : action.commands)
      controller.apply(command, 0);
    if (!action.lesson.empty())
      controller.apply(cmd::OpenLesson{action.lesson}, 0);
    waitForRun(controller, 0);
  };
  // -D values, then a step that exists only with them, then a pane.
  follow("klx:define=bridge_steps=1&pass=klx-bridge-steps&show=Steps");
  CHECK(state.defines == Defines{{"bridge_steps", "1"}});
  CHECK(state.run->snapshots[state.view.selected].displayName() ==
        "klx-bridge-steps");
  REQUIRE_FALSE(state.view.raised.empty());
  CHECK(state.view.raised.back().pane == Pane::Steps);
  follow("klx:line=75");
  CHECK(state.view.focusedSourceLine == 75);
  // Compare with the other file.
  follow("klx:compare=samples/nvidia/gather_direct.mlir");
  CHECK(state.compare.active());
  REQUIRE(state.compare.run);
  CHECK(state.compare.run->fileName ==
        test::sourcePath("samples/nvidia/gather_direct.mlir"));
  // A link to another page opens it here; opening goes back to the file
  // as written.
  follow("08-gather_direct.md");
  CHECK(state.lesson.lessons[state.lesson.current].number == "08");
  follow("klx:open=samples/nvidia/gather_direct.mlir");
  CHECK(state.defines.empty());
  CHECK(state.source.path ==
        test::sourcePath("samples/nvidia/gather_direct.mlir"));
  // A step that is not in the run is said, not selected.
  follow("klx:pass=klx-bridge-steps");
  CHECK(state.messageIsError);
  CHECK(state.message == "no step named klx-bridge-steps in this run");
  // Two pages are about the warp-specialized GEMM (03 and the ladder, 13):
  // opening it brings the first, and a page about it stays when it opens
  // it again.
  std::string gemm = test::sourcePath("samples/nvidia/gemm_ws_persistent.mlir");
  controller.apply(cmd::OpenFile{gemm}, 0);
  waitForRun(controller, 0);
  REQUIRE(state.lesson.current >= 0);
  CHECK(state.lesson.lessons[state.lesson.current].number == "03");
  controller.apply(cmd::OpenLesson{"", 12}, 0); // the 13th page
  controller.apply(cmd::OpenFile{gemm}, 0);
  waitForRun(controller, 0);
  REQUIRE(state.lesson.current >= 0);
  CHECK(state.lesson.lessons[state.lesson.current].number == "13");
}

namespace {
/// The work the run's timeline covers ("4 tiles x 9 k steps").
std::string boundText(const PipelineRun &run) {
  int step = run.timelineStep();
  if (step < 0 || run.snapshots[step].facts.protocols.empty())
    return "";
  return run.snapshots[step].facts.protocols.front().bound;
}
} // namespace

TEST_CASE("Compare mode simulates both variants over the same work",
          "[app][compare]") {
  // One stage alone is simulated over 4 tiles x 3 k steps, four over 4 x 9:
  // side by side, the one-stage kernel looked faster (14288 cycles against
  // 14616). While comparing, both compile over the larger bound; closing
  // the comparison gives the run shown its own again.
  TempFolder folder;
  AppController controller(testOptions(folder));
  controller.apply(cmd::SetDefines{"stages=1"}, 0);
  controller.apply(
      cmd::OpenFile{test::sourcePath("samples/nvidia/gemm_ws_persistent.mlir")},
      0);
  waitForRun(controller, 0);
  const AppState &state = controller.state();
  CHECK(boundText(*state.run) == "4 tiles x 3 k steps");
  controller.apply(cmd::SetCompare{"stages=4"}, 0);
  auto equal = [&] {
    return !controller.busy() && !state.compare.compiling && state.run &&
           state.compare.run && state.compare.modelSize &&
           boundText(*state.run) == boundText(*state.compare.run);
  };
  for (int i = 0; i < 6000 && !equal(); ++i) {
    controller.tick(0);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(equal());
  CHECK(boundText(*state.run) == "4 tiles x 9 k steps");
  CHECK(state.compare.modelSize->kSteps == 9);
  Comparison rows =
      compareRuns(*state.run, *state.compare.run, "stages=1", "stages=4");
  auto row = [&](llvm::StringRef name) -> const ComparisonRow * {
    for (const ComparisonRow &r : rows.rows)
      if (r.name == name)
        return &r;
    return nullptr;
  };
  REQUIRE(row("bound (@gemm)"));
  CHECK_FALSE(row("bound (@gemm)")->differs());
  REQUIRE(row("verdict (@gemm)"));
  CHECK(row("verdict (@gemm)")->a == "completes in 42896 cycles");
  CHECK(row("verdict (@gemm)")->b == "completes in 14616 cycles");

  controller.apply(cmd::SetCompare{}, 0);
  waitForRun(controller, 0);
  CHECK_FALSE(state.compare.modelSize);
  CHECK(boundText(*state.run) == "4 tiles x 3 k steps");
}
