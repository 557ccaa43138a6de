//===- WindowStateTest.cpp - Layouts, selections and saving, no window ----===//

#include "AppTestSupport.h"

#include "core/Artifacts.h"
#include "core/Layout.h"
#include "views/TextSelection.h"
#include "views/TimelineView.h"

#include "llvm/Support/MemoryBuffer.h"

#ifdef KLX_HAVE_IMGUI_HEADERS
#include "widgets/Palette.h"
#endif

#include <cmath>
#include <map>

using namespace klx;
using namespace klx::app;
using namespace klx::test;

TEST_CASE("Named layouts and zoom in the window's state", "[app][layout]") {
  CHECK(parseLayoutName("Teach") == LayoutName::Teach);
  CHECK(parseLayoutName("diff") == LayoutName::Diff);
  CHECK_FALSE(parseLayoutName("tiled"));
  for (LayoutName layout :
       {LayoutName::Explore, LayoutName::Diff, LayoutName::Teach})
    CHECK(parseLayoutName(layoutNameText(layout)) == layout);
  // Browser-like steps, clamped at both ends.
  CHECK(nextZoomPercent(100, +1) == 110);
  CHECK(nextZoomPercent(100, -1) == 90);
  CHECK(nextZoomPercent(137, +1) == 150);
  CHECK(nextZoomPercent(137, -1) == 125);
  CHECK(nextZoomPercent(kMaxZoomPercent, +1) == kMaxZoomPercent);
  CHECK(nextZoomPercent(kMinZoomPercent, -1) == kMinZoomPercent);
  CHECK(clampZoomPercent(1000) == kMaxZoomPercent);

  TempFolder folder;
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  unsigned generation = state.view.layoutGeneration;
  // Teach is read from the back of a room: at least 150%.
  controller.apply(cmd::SetLayout{"teach"}, 0);
  CHECK(state.view.layout == LayoutName::Teach);
  CHECK(state.view.zoomPercent == kTeachZoomPercent);
  CHECK(state.view.layoutGeneration == generation + 1);
  controller.apply(cmd::SetZoom{200}, 0);
  controller.apply(cmd::SetLayout{"teach"}, 0);
  CHECK(state.view.zoomPercent == 200); // larger already: kept
  // Diff turns the diff on.
  CHECK_FALSE(state.view.showDiff);
  controller.apply(cmd::SetLayout{"diff"}, 0);
  CHECK(state.view.layout == LayoutName::Diff);
  CHECK(state.view.showDiff);
  // An unknown name keeps the layout and says why.
  controller.apply(cmd::SetLayout{"tiled"}, 0);
  CHECK(state.view.layout == LayoutName::Diff);
  CHECK(state.messageIsError);
  CHECK(state.message.find("explore, diff or teach") != std::string::npos);
  controller.apply(cmd::SetZoom{10}, 0);
  CHECK(state.view.zoomPercent == kMinZoomPercent);
  // Themes: light for projectors; an unknown one keeps the theme.
  CHECK(state.view.theme == ThemeName::Dark);
  controller.apply(cmd::SetTheme{"light"}, 0);
  CHECK(state.view.theme == ThemeName::Light);
  controller.apply(cmd::SetTheme{"sepia"}, 0);
  CHECK(state.view.theme == ThemeName::Light);
  CHECK(state.message.find("dark or light") != std::string::npos);
}

TEST_CASE("One pane enlarged over the window, and every pane put back",
          "[app][layout]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  controller.apply(cmd::EnlargeWindow{"Guide"}, 0);
  CHECK(state.view.enlargedWindow == "Guide");
  // The status bar says how to put the others back.
  CHECK(state.message.find("Guide fills the window") != std::string::npos);
  CHECK_FALSE(state.messageIsError);
  controller.apply(cmd::EnlargeWindow{""}, 0);
  CHECK(state.view.enlargedWindow.empty());
  CHECK(state.message == "every pane is back"); // not how to put them back
  // Choosing or resetting a layout puts every pane back too.
  controller.apply(cmd::EnlargeWindow{"IR"}, 0);
  controller.apply(cmd::SetLayout{"teach"}, 0);
  CHECK(state.view.enlargedWindow.empty());
  controller.apply(cmd::EnlargeWindow{"Output"}, 0);
  controller.apply(cmd::ResetLayout{}, 0);
  CHECK(state.view.enlargedWindow.empty());
}

TEST_CASE("A text selection reads what an editor would copy", "[app][select]") {
  LineIndex index("alpha\nbeta gamma\ndelta");
  TextSelection none;
  CHECK(none.empty());
  CHECK(none.text(index).empty());
  // Dragged backwards: the same text as forwards.
  TextSelection word{{1, 10}, {1, 5}};
  CHECK(word.text(index) == "gamma");
  CHECK(word.ordered().first == TextPos{1, 5});
  TextSelection across{{0, 2}, {2, 3}};
  CHECK(across.text(index) == "pha\nbeta gamma\ndel");
  CHECK(across.columnsOn(0).first == 2);
  CHECK(across.columnsOn(1).second == SIZE_MAX);
  CHECK_FALSE(across.contains(3));
  CHECK(TextSelection::lines(1, 0).text(index) == "alpha\nbeta gamma\n");
  CHECK(TextSelection::lines(2, 2).text(index) == "delta\n");
  CHECK(TextSelection::all(index).text(index) == index.text);
  // Past the end of a line or of the text: clamped.
  TextSelection past{{0, 3}, {7, 99}};
  CHECK(past.text(index) == "ha\nbeta gamma\ndelta\n");
}

TEST_CASE("The window saves the step's IR, the PTX, the cubin and a bundle",
          "[app][save]") {
  TempFolder folder;
  std::string kernel = folder.file("gemm.mlir");
  writeFile(kernel, readSource("samples/nvidia/gemm_tma_wgmma.mlir"));
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  CHECK(artifactUnavailable(state, ArtifactKind::Ptx) ==
        "nothing compiled yet");
  controller.apply(cmd::OpenFile{kernel}, 0);
  waitForRun(controller, 0);
  REQUIRE(state.run->succeeded());
  controller.apply(cmd::SelectStepNamed{"parse"}, 0);

  // Beside the kernel, named after it and the step.
  CHECK(suggestedArtifactPath(state, ArtifactKind::StepIR) ==
        folder.file("gemm.parse.mlir"));
  CHECK(suggestedArtifactPath(state, ArtifactKind::Ptx) ==
        folder.file("gemm.ptx"));
  CHECK(suggestedArtifactPath(state, ArtifactKind::Bundle) ==
        folder.file("gemm-bundle"));
  CHECK(artifactUnavailable(state, ArtifactKind::Amdgcn) ==
        "an NVIDIA run has no AMDGCN");

  for (ArtifactKind kind : {ArtifactKind::StepIR, ArtifactKind::Ptx,
                            ArtifactKind::Cubin, ArtifactKind::Bundle}) {
    std::string path = suggestedArtifactPath(state, kind);
    controller.apply(cmd::SaveArtifact{path, kind}, 0);
    INFO(state.message);
    CHECK_FALSE(state.messageIsError);
    CHECK(llvm::sys::fs::exists(path));
  }
  auto text = [](const std::string &path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    REQUIRE(buffer);
    return (*buffer)->getBuffer().str();
  };
  CHECK(text(folder.file("gemm.parse.mlir")) == state.run->snapshots[0].text);
  CHECK(text(folder.file("gemm.ptx")).find(".entry") != std::string::npos);
  CHECK(text(folder.file("gemm.cubin")).substr(0, 4) == "\x7f"
                                                        "ELF");
  CHECK(llvm::sys::fs::exists(folder.file("gemm-bundle/manifest.json")));
  // A folder that cannot be written: said, nothing else changes.
  controller.apply(
      cmd::SaveArtifact{folder.file("no/such/dir/x.ptx"), ArtifactKind::Ptx},
      0);
  CHECK(state.messageIsError);
  CHECK(state.message.find("cannot write") != std::string::npos);
}

TEST_CASE("-D values belong to the file they were set for", "[app][define]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  std::string gemm = sourcePath("samples/nvidia/gemm_ws_persistent.mlir");
  std::string saxpy = sourcePath("samples/nvidia/saxpy.mlir");
  controller.apply(cmd::OpenFile{gemm}, 0);
  controller.apply(cmd::SetDefines{"stages=2"}, 0);
  waitForRun(controller, 0);
  CHECK(state.message == "compiled with -D stages=2"); // not "compiling"
  // Another file: its own klx.params, and the status bar says why.
  controller.apply(cmd::OpenFile{saxpy}, 0);
  CHECK(state.defines.empty());
  CHECK(state.message.find("-D stages=2 cleared") != std::string::npos);
  waitForRun(controller, 0);
  CHECK(state.run->succeeded());
  // Pinned, they follow the user.
  controller.apply(cmd::OpenFile{gemm}, 0);
  controller.apply(cmd::SetDefines{"stages=2"}, 0);
  controller.apply(cmd::PinDefines{true}, 0);
  controller.apply(cmd::OpenFile{gemm}, 0); // the same file: kept
  CHECK(state.defines == Defines{{"stages", "2"}});
  controller.apply(cmd::OpenFile{saxpy}, 0);
  CHECK(state.defines == Defines{{"stages", "2"}});
}

TEST_CASE("The selected pass is kept by name across errors and -D changes",
          "[app][select]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  controller.apply(
      cmd::OpenFile{sourcePath("samples/nvidia/gemm_ws_persistent.mlir")}, 0);
  waitForRun(controller, 0);
  controller.apply(cmd::SelectStepNamed{"klx-to-nvgpu"}, 0);
  auto selectedName = [&] {
    return state.run->snapshots[state.view.selected].displayName();
  };
  REQUIRE(selectedName() == "klx-to-nvgpu");
  std::string good = state.source.text;
  // Broken: the run is read at its failure...
  controller.apply(cmd::EditSource{good + "\n}}} garbage"}, 0);
  controller.apply(cmd::Recompile{}, 0);
  waitForRun(controller, 0);
  REQUIRE_FALSE(state.run->succeeded());
  CHECK(selectedName() == "parse");
  // ... and mended, back at the user's step.
  controller.apply(cmd::EditSource{good}, 0);
  controller.apply(cmd::Recompile{}, 0);
  waitForRun(controller, 0);
  CHECK(selectedName() == "klx-to-nvgpu");
  // A bad -D value, then a good one: the same.
  controller.apply(cmd::SetDefines{"stages=banana"}, 0);
  waitForRun(controller, 0);
  controller.apply(cmd::SetDefines{"stages=2"}, 0);
  waitForRun(controller, 0);
  CHECK(selectedName() == "klx-to-nvgpu");
  // Stepping is a choice too.
  controller.apply(cmd::StepForward{}, 0);
  std::string next = selectedName();
  CHECK(next != "klx-to-nvgpu");
  controller.apply(cmd::Recompile{}, 0);
  waitForRun(controller, 0);
  CHECK(selectedName() == next);
}

#ifdef KLX_HAVE_IMGUI_HEADERS
namespace {
/// WCAG's contrast ratio of two IM_COL32 colours (red in the low byte).
double contrastRatio(ImU32 a, ImU32 b) {
  auto luminance = [](ImU32 colour) {
    auto channel = [&](int shift) {
      double c = double((colour >> shift) & 0xFF) / 255;
      return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(IM_COL32_R_SHIFT) +
           0.7152 * channel(IM_COL32_G_SHIFT) +
           0.0722 * channel(IM_COL32_B_SHIFT);
  };
  double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
} // namespace

TEST_CASE("Every syntax colour reads at 4.5:1 on every background, in both "
          "themes",
          "[app][palette]") {
  for (const palette::Theme *theme :
       {&palette::darkTheme(), &palette::lightTheme()}) {
    INFO("theme " << themeNameText(theme->name).str());
    std::vector<ImU32> foregrounds(std::begin(theme->tokens),
                                   std::end(theme->tokens));
    foregrounds.push_back(theme->lineNumber);
    double worst = 100;
    for (ImU32 background : palette::textBackgrounds(*theme))
      for (size_t i = 0; i < foregrounds.size(); ++i) {
        double ratio = contrastRatio(foregrounds[i], background);
        INFO("colour " << i << " on background " << std::hex << background
                       << ": " << ratio);
        CHECK(ratio >= 4.5);
        worst = std::min(worst, ratio);
      }
    WARN("the lowest contrast of a syntax colour, "
         << themeNameText(theme->name).str() << " theme: " << worst << ":1");
  }
}

TEST_CASE("Status text and labels read at 4.5:1 on the panes, in both themes",
          "[app][palette]") {
  for (const palette::Theme *theme :
       {&palette::darkTheme(), &palette::lightTheme()}) {
    INFO("theme " << themeNameText(theme->name).str());
    const ImU32 onPanes[] = {
        theme->dimText,        theme->brightText,   theme->errorText,
        theme->warningText,    theme->goodText,     theme->headingText,
        theme->variantA,       theme->variantB,     theme->linkText,
        theme->inlineCodeText, theme->failedMarker, theme->searchOutline};
    for (ImU32 colour : onPanes) {
      INFO("colour " << std::hex << colour);
      CHECK(contrastRatio(colour, theme->windowBackground) >= 4.5);
    }
    // Lane labels: a role's colour on the lane's track.
    for (ImU32 role : theme->roleSlots) {
      INFO("role colour " << std::hex << role);
      CHECK(contrastRatio(role, theme->laneBackground) >= 4.5);
    }
    CHECK(contrastRatio(theme->codeText, theme->codeBackground) >= 4.5);
    CHECK(contrastRatio(theme->measuredLaneText,
                        theme->measuredLaneBackground) >= 4.5);
  }
}

TEST_CASE("The theme is chosen by name and the palette follows it",
          "[app][palette]") {
  CHECK(parseThemeName("Light") == ThemeName::Light);
  CHECK(parseThemeName("dark") == ThemeName::Dark);
  CHECK(!parseThemeName("solarized"));
  palette::useTheme(ThemeName::Light);
  CHECK(palette::theme().name == ThemeName::Light);
  CHECK(palette::token(TokenKind::Keyword) ==
        palette::lightTheme().tokens[int(TokenKind::Keyword)]);
  palette::useTheme(ThemeName::Dark);
  CHECK(palette::theme().windowBackground ==
        palette::darkTheme().windowBackground);
}
#endif

TEST_CASE("Diffs that ignore spaces and timings", "[app][diff]") {
  LineIndex before("a = 1\n  b = 2\nc = 3\nCompile time = 519.796 ms\n");
  LineIndex after("a = 1\n      b = 2\nc = 4\nCompile time = 497.112 ms\n");
  LineDiff exact = diffLines(before, after);
  CHECK(exact.added == 3);
  CHECK(exact.removed == 3);
  DiffOptions spaces;
  spaces.ignoreWhitespace = true;
  LineDiff lenient = diffLines(before, after, 2000, spaces);
  CHECK(lenient.added == 2); // c, and the timing
  spaces.ignoreTimings = true;
  LineDiff both = diffLines(before, after, 2000, spaces);
  CHECK(both.added == 1);
  CHECK(both.removed == 1);
  CHECK(isTimingLine("ptxas info    : Compile time = 12.5 ms"));
  CHECK_FALSE(isTimingLine("%time = arith.constant 3 : i32"));
}

TEST_CASE("Timeline ticks at round values", "[app][timeline]") {
  // 10,494 cycles over at most 5 ticks: every 2,500, not every 2,623.
  CHECK(niceTickStep(10494, 5) == 2500);
  CHECK(niceTickStep(10494, 11) == 1000);
  CHECK(niceTickStep(100, 4) == 25);
  CHECK(niceTickStep(37, 10) == 5);
  CHECK(niceTickStep(3, 10) == 1); // moves are whole
  CHECK(formatTick(7500, 2500) == "7500");
  CHECK(formatTick(12500, 2500) == "12.5k");
  CHECK(formatTick(2000000, 500000) == "2M");
  // Zero reached by adding steps from a negative start: not "-0".
  CHECK(formatTick(-1e-12, 2500) == "0");
  CHECK(formatTick(-0.0, 0.5) == "0");
}

TEST_CASE("A kernel with errors keeps its last good result", "[app][stale]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  controller.apply(
      cmd::OpenFile{sourcePath("samples/nvidia/gemm_tma_wgmma.mlir")}, 0);
  waitForRun(controller, 0);
  bool stale = true;
  CHECK(resultRun(state, stale) == state.run.get());
  CHECK_FALSE(stale);
  std::shared_ptr<const PipelineRun> good = state.run;
  std::string text = state.source.text;
  controller.apply(cmd::EditSource{text + "\n}}}"}, 0);
  controller.apply(cmd::Recompile{}, 0);
  waitForRun(controller, 0);
  REQUIRE_FALSE(state.run->succeeded());
  CHECK(resultRun(state, stale) == good.get());
  CHECK(stale);
  CHECK(state.lastGoodTimeline);
  // Another file: the old one's result is not shown for it.
  controller.apply(cmd::OpenFile{sourcePath("samples/nvidia/saxpy.mlir")}, 0);
  CHECK_FALSE(state.lastGoodRun);
  waitForRun(controller, 0);
  CHECK(state.lastGoodRun == state.run);
}

TEST_CASE("The timeline pane saves its trace and draws its flows",
          "[app][save][timeline]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  openSampleCopy(controller, folder, "samples/nvidia/gemm_ws_persistent.mlir",
                 "ws.mlir");
  REQUIRE(state.run->succeeded());
  REQUIRE(state.timeline);

  std::string path = suggestedArtifactPath(state, ArtifactKind::Trace);
  CHECK(path == folder.file("ws.timeline.json"));
  CHECK(artifactUnavailable(state, ArtifactKind::Trace).empty());
  controller.apply(cmd::SaveArtifact{path, ArtifactKind::Trace}, 0);
  INFO(state.message);
  CHECK_FALSE(state.messageIsError);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  REQUIRE(buffer);
  llvm::StringRef trace = (*buffer)->getBuffer();
  CHECK(trace.contains("\"traceEvents\""));
  CHECK(trace.contains("producer"));
  CHECK(trace.contains("\"ph\":\"s\"")); // flow arrows

  // A wait released by an arrive (or a landed copy) has its arrow into
  // the wait's end, and the arrive has the same arrow out.
  const TimelineView &view = state.timeline->pick("");
  REQUIRE_FALSE(view.flowsByEnd.empty());
  const FlowArrow &flow = view.flowsByEnd.front();
  const TimelineLane &waits = view.lanes[flow.toLane];
  auto wait = std::find_if(
      waits.events.begin(), waits.events.end(), [&](const sim::Event &e) {
        return e.kind == sim::Event::Kind::Wait && e.end == flow.to;
      });
  REQUIRE(wait != waits.events.end());
  CHECK(view.laneOf(&*wait) == flow.toLane);
  std::vector<FlowArrow> into = view.flowsOf(flow.toLane, *wait);
  REQUIRE_FALSE(into.empty());
  CHECK(into.front().from == flow.from);
  const TimelineLane &arrives = view.lanes[flow.fromLane];
  auto arrive = std::find_if(arrives.events.begin(), arrives.events.end(),
                             [&](const sim::Event &e) {
                               return (e.kind == sim::Event::Kind::Arrive ||
                                       e.kind == sim::Event::Kind::CopyDone) &&
                                      e.start == flow.from;
                             });
  REQUIRE(arrive != arrives.events.end());
  CHECK_FALSE(view.flowsOf(flow.fromLane, *arrive).empty());

  // Lanes read from the nvgpu ops are named after the roles their threads
  // run, with the threads where a role has several lanes; they take the
  // colour of that role, as the Warp roles pane shows it.
  const TimelineView &lowered = state.timeline->pick("klx-to-nvgpu");
  REQUIRE(lowered.stepName == "klx-to-nvgpu");
  std::map<std::string, std::string> colours;
  for (const TimelineLane &lane : lowered.lanes)
    colours[lane.role] = lane.colourRole;
  CHECK(colours["consumer (threads 0-127)"] == "consumer");
  CHECK(colours["consumer (threads 128-255)"] == "consumer");
  CHECK(colours["producer (thread 256)"] == "producer");
  CHECK(view.lanes.front().colourRole == view.lanes.front().role);

  // A kernel without a protocol says why there is no trace to save.
  openSampleCopy(controller, folder, "samples/nvidia/saxpy.mlir", "ws.mlir");
  CHECK_FALSE(artifactUnavailable(state, ArtifactKind::Trace).empty());
}

TEST_CASE("A file with two gpu.modules: the Assembly pane and Save follow "
          "the module picked",
          "[app][save][modules]") {
  TempFolder folder;
  std::string kernel = folder.file("two.mlir");
  std::string module = R"(module attributes {gpu.container_module} {
  gpu.module @NAME_kernels {
    gpu.func @NAME(%x: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
)";
  auto named = [&](const std::string &name) {
    std::string text = module.substr(module.find("  gpu.module"));
    for (size_t at; (at = text.find("NAME")) != std::string::npos;)
      text.replace(at, 4, name);
    return text;
  };
  writeFile(kernel, module.substr(0, module.find("  gpu.module")) +
                        named("scale") + named("square") + "}\n");
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  controller.apply(cmd::OpenFile{kernel}, 0);
  waitForRun(controller, 0);
  REQUIRE(state.run->succeeded());
  REQUIRE(state.run->artifacts.size() == 2);

  // The first module until another is picked; the file names it.
  CHECK(shownModule(*state.run, state.view) == 0);
  CHECK(suggestedArtifactPath(state, ArtifactKind::Ptx) ==
        folder.file("two.scale_kernels.ptx"));
  controller.apply(cmd::SelectModule{"square_kernels"}, 0);
  CHECK(shownModule(*state.run, state.view) == 1);
  std::string path = suggestedArtifactPath(state, ArtifactKind::Ptx);
  CHECK(path == folder.file("two.square_kernels.ptx"));
  controller.apply(cmd::SaveArtifact{path, ArtifactKind::Ptx}, 0);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  REQUIRE(buffer);
  llvm::StringRef ptx = (*buffer)->getBuffer();
  CHECK(ptx.contains(".entry square("));
  CHECK_FALSE(ptx.contains(".entry scale("));

  // Selecting the other module's PTX step shows that module's assembly.
  int scalePtx = -1;
  for (size_t i = 0; i < state.run->snapshots.size(); ++i)
    if (state.run->snapshots[i].kind == EmitKind::PTX &&
        state.run->snapshots[i].anchor == "gpu.module @scale_kernels")
      scalePtx = int(i);
  REQUIRE(scalePtx >= 0);
  controller.apply(cmd::SelectStep{scalePtx}, 0);
  CHECK(state.view.module == "scale_kernels");
  CHECK(shownModule(*state.run, state.view) == 0);
  // The IR pane shows the LLVM IR of the same module (the other module's
  // llvm-opt step comes between them).
  const Snapshot &ir = state.run->snapshots[irStepFor(*state.run, scalePtx)];
  CHECK(ir.kind == EmitKind::LLVM);
  CHECK(ir.anchor == "gpu.module @scale_kernels");
  // A name no module has (after an edit renamed it): the first.
  controller.apply(cmd::SelectModule{"gone"}, 0);
  CHECK(shownModule(*state.run, state.view) == 0);

  // Passes nested on gpu.module ran once per module: labelled with it; a
  // plain name (a lesson link, --pass) takes the picked module's one, and
  // selecting one picks its module.
  REQUIRE(state.run->severalModules());
  auto selectedLabel = [&] {
    return state.run->snapshots[state.view.selected].label(true);
  };
  controller.apply(cmd::SelectModule{"square_kernels"}, 0);
  controller.apply(cmd::SelectStepNamed{"convert-gpu-to-nvvm"}, 0);
  CHECK(selectedLabel() == "convert-gpu-to-nvvm @square_kernels");
  controller.apply(cmd::SelectStepNamed{"cse#2 @scale_kernels"}, 0);
  CHECK(selectedLabel() == "cse#2 @scale_kernels");
  CHECK(state.view.module == "scale_kernels");
  // The choice is kept across a recompile, module and all.
  controller.apply(cmd::SelectModule{"square_kernels"}, 0);
  controller.apply(cmd::Recompile{}, 0);
  waitForRun(controller, 0);
  CHECK(selectedLabel() == "cse#2 @scale_kernels");
  CHECK(state.run->findStep("cse#2 @gone") < 0);
  CHECK(state.run->findStep("cse#2", "gone") ==
        state.run->findStep("cse#2 @scale_kernels"));
}

TEST_CASE("Teach shows an assembly step's code in the large pane and raises "
          "the tab a lesson link asks for",
          "[app][layout]") {
  TempFolder folder;
  AppController controller(testOptions(folder));
  const AppState &state = controller.state();
  openSampleCopy(controller, folder, "samples/nvidia/gemm_ws_persistent.mlir",
                 "ws.mlir");
  REQUIRE(state.run->succeeded());
  controller.apply(cmd::SelectStepNamed{"ptx"}, 0);
  const PipelineRun &run = *state.run;
  int ptx = state.view.selected;
  REQUIRE(run.snapshots[ptx].kind == EmitKind::PTX);

  // Explore: the IR pane shows the IR the PTX came from (the Assembly pane
  // has the PTX).
  CHECK(textStepFor(run, state.view) == irStepFor(run, ptx));
  CHECK(run.snapshots[textStepFor(run, state.view)].isIR());
  // Teach: the Assembly pane is a small tab, the large pane shows the PTX,
  // and saving "this step" saves it as .ptx.
  controller.apply(cmd::SetLayout{"teach"}, 0);
  CHECK(textStepFor(run, state.view) == ptx);
  CHECK(llvm::StringRef(suggestedArtifactPath(state, ArtifactKind::StepIR))
            .ends_with("/ws.ptx"));
  // The cubin step's text is ptxas's report: the IR stands for it.
  controller.apply(cmd::SelectStepNamed{"cubin"}, 0);
  CHECK(run.snapshots[textStepFor(run, state.view)].isIR());

  // A lesson link that reads the timeline brings its tab forward.
  unsigned raised = state.view.raiseSerial;
  controller.apply(cmd::ShowTimelineOf{"klx-circular-buffer"}, 0);
  REQUIRE_FALSE(state.view.raised.empty());
  CHECK(state.view.raised.back().pane == Pane::Timeline);
  CHECK(state.view.raiseSerial == raised + 1);
}
