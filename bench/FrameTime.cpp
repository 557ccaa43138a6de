//===- FrameTime.cpp - CPU time per frame of the explorer window ----------===//
//
// Opens the real window (run it under xvfb-run where there is no display),
// puts a 50,000-line IR in the IR pane, scrolls it with the mouse wheel
// frame after frame, then does the same with the diff against a second
// 50,000-line snapshot, and prints the median CPU milliseconds spent
// building a frame (panels + ImGui::Render) and, apart, submitting it to
// OpenGL. Then it runs `klx --exit-after-idle` to count frames drawn while
// the window sits idle. Goals: under 8 ms per frame while scrolling, no
// frames while idle. Last, the Barrier timeline pane with a simulated
// protocol of over 100,000 events, zoomed in and out with the wheel frame
// after frame (goal: under 8 ms median).
//
// usage: xvfb-run -a klx-bench-frames [--frames=N]
//
//===----------------------------------------------------------------------===//

#include "core/AppState.h"
#include "core/Background.h"
#include "panels/PaneArranger.h"
#include "render/Window.h"
#include "views/TimelineView.h"

#include "klx/Pipeline/Compiler.h"
#include "klx/Support/ExternalTool.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace klx;
using namespace klx::app;

namespace {

double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

/// Lowered GEMM IR repeated until it has `lines` lines; `variant` changes
/// every 97th line so that a diff has work to do.
std::string bigIR(const std::string &unit, size_t lines, bool variant) {
  std::string text;
  size_t count = 0, start = 0;
  while (count < lines) {
    size_t end = unit.find('\n', start);
    if (end == std::string::npos) {
      start = 0;
      continue;
    }
    text.append(unit, start, end - start);
    if (variant && count % 97 == 0)
      text += " // changed";
    text += '\n';
    ++count;
    start = end + 1;
  }
  return text;
}

struct FrameTimes {
  std::vector<double> build, submit;
  std::vector<double> vertices; // what each frame hands to OpenGL
};

FrameTimes scroll(Window &window, std::vector<std::unique_ptr<Panel>> &panels,
                  const AppState &state, int frames, float x = 0.58f,
                  float y = 0.5f) {
  FrameTimes times;
  CommandQueue commands;
  PaneArranger arranger; // the Explore layout, laid out at the first frame
  arranger.layoutGeneration = ~0u;
  // Until the panes settle: the diff is computed off the GUI thread, and
  // the frames that wait for it are not the ones measured.
  for (int frame = 0, quiet = 0; quiet < 3 && frame < 2000; ++frame) {
    window.beginFrame();
    ImGuiViewport *viewport = ImGui::GetMainViewport();
    drawPanels(panels, state, commands, viewport->WorkPos, viewport->WorkSize,
               arranger);
    ImGui::Render();
    window.submitFrame();
    commands.take();
    quiet = background::pending() == 0 ? quiet + 1 : 0;
    if (quiet == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (int frame = 0; frame < frames; ++frame) {
    auto start = std::chrono::steady_clock::now();
    window.beginFrame([&](ImGuiIO &io) {
      // Over the IR pane (the middle of the window), three notches a frame,
      // down for the first half and back up for the second.
      io.MousePos = ImVec2(io.DisplaySize.x * x, io.DisplaySize.y * y);
      io.MouseWheel = frame < frames / 2 ? -3.0f : 3.0f;
    });
    ImGuiViewport *viewport = ImGui::GetMainViewport();
    drawPanels(panels, state, commands, viewport->WorkPos, viewport->WorkSize,
               arranger);
    ImGui::Render();
    auto built = std::chrono::steady_clock::now();
    double vertices = ImGui::GetDrawData()->TotalVtxCount;
    if (frame == frames / 2 && std::getenv("KLX_BENCH_SCREENSHOT"))
      window.requestScreenshot(std::getenv("KLX_BENCH_SCREENSHOT"));
    window.submitFrame();
    auto submitted = std::chrono::steady_clock::now();
    commands.take();
    if (frame >= 10) { // the first frames lay out and build caches
      times.build.push_back(
          std::chrono::duration<double, std::milli>(built - start).count());
      times.submit.push_back(
          std::chrono::duration<double, std::milli>(submitted - built).count());
      times.vertices.push_back(vertices);
    }
  }
  return times;
}

/// One producer and one consumer on a ring of 4 stages for enough k steps
/// to make over 100,000 events.
sim::ProtocolModel ringModel() {
  sim::ProtocolModel model;
  model.kernel = "bench";
  model.barriers = {{"full", 4, 1}, {"empty", 4, 1}};
  auto op = [](sim::OpKind kind, int barrier, bool previous, int64_t bytes,
               const char *label) {
    sim::Op o;
    o.kind = kind;
    o.barrier = barrier;
    o.previousPhase = previous;
    o.bytes = bytes;
    o.label = label;
    return o;
  };
  int64_t steps = 20000;
  model.roles.push_back(
      {"producer",
       steps,
       {op(sim::OpKind::Wait, 1, true, 0, "wait empty"),
        op(sim::OpKind::ArriveExpectTx, 0, false, 32768, "arrive.expect_tx"),
        op(sim::OpKind::Copy, 0, false, 16384, "copy a"),
        op(sim::OpKind::Copy, 0, false, 16384, "copy b")}});
  model.roles.push_back({"consumer",
                         steps,
                         {op(sim::OpKind::Wait, 0, false, 0, "wait full"),
                          op(sim::OpKind::Compute, -1, false, 0, "mma"),
                          op(sim::OpKind::Arrive, 1, false, 0, "arrive")}});
  return model;
}

/// Reads --frames=N and --size=WxH; false (after the usage) for anything
/// else.
bool parseArguments(int argc, char **argv, int &frames,
                    Window::Options &windowOptions) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("--frames=") && !arg.getAsInteger(10, frames))
      continue;
    auto [width, height] = arg.drop_front(7).split('x');
    if (arg.starts_with("--size=") &&
        !width.getAsInteger(10, windowOptions.width) &&
        !height.getAsInteger(10, windowOptions.height))
      continue;
    llvm::errs() << "usage: klx-bench-frames [--frames=N] [--size=WxH]\n";
    return false;
  }
  return true;
}

void printRow(const char *what, const FrameTimes &t) {
  llvm::outs() << llvm::formatv(
      "  {0,-28} build {1,6:F2}   submit {2,6:F2}   vertices {3}\n", what,
      medianOf(t.build), medianOf(t.submit), int64_t(medianOf(t.vertices)));
}

/// The IR pane scrolled as text, then as a diff in two columns, inline
/// and at 200%.
void benchIRPane(Window &window, std::vector<std::unique_ptr<Panel>> &panels,
                 AppState &state, int frames) {
  FrameTimes text = scroll(window, panels, state, frames);
  state.view.showDiff = true;
  FrameTimes diff = scroll(window, panels, state, frames);
  state.view.sideBySide = false;
  FrameTimes inlineDiff = scroll(window, panels, state, frames);
  // At 200%: twice the font, half the lines on screen, glyphs four times
  // the pixels.
  window.setUiScale(2.0f);
  state.view.sideBySide = true;
  FrameTimes zoomedDiff = scroll(window, panels, state, frames);
  window.setUiScale(1.0f);

  ImVec2 size = window.size();
  llvm::outs() << llvm::formatv(
      "klx frame time, {0}x{1} window, IR pane with 50,000 lines, {2} frames "
      "each, median ms\n"
      "  (build: panels + ImGui::Render on the CPU; submit: OpenGL draw and\n"
      "   swap, here Mesa's software renderer under Xvfb)\n",
      int(size.x), int(size.y), frames);
  printRow("scrolling the IR", text);
  printRow("the diff, 2 columns if wide", diff);
  printRow("scrolling the diff, inline", inlineDiff);
  printRow("the diff, 200%", zoomedDiff);
}

/// The Barrier timeline pane: the pointer over the lanes, zooming in for
/// half the frames and out again.
void benchTimeline(Window &window, std::vector<std::unique_ptr<Panel>> &panels,
                   AppState &state, int frames) {
  sim::ProtocolModel model = ringModel();
  auto simStart = std::chrono::steady_clock::now();
  sim::Timeline simulated = sim::simulate(model);
  double simMs = std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - simStart)
                     .count();
  size_t events = 0;
  for (const auto &lane : simulated.lanes)
    events += lane.size();
  auto views = std::make_shared<TimelineViews>();
  views->views.push_back(
      makeTimelineView(model, std::move(simulated), 0, "bench"));
  state.timeline = std::move(views);
  FrameTimes timeline = scroll(window, panels, state, frames, 0.62f, 0.82f);
  llvm::outs() << llvm::formatv(
      "Barrier timeline pane, {0} simulated events (simulated in {1:F1} ms), "
      "zooming in and out:\n",
      events, simMs);
  printRow("zooming the timeline", timeline);
}

} // namespace

int main(int argc, char **argv) {
  int frames = 300;
  Window::Options windowOptions;
  windowOptions.width = 2560;
  windowOptions.height = 1440;
  if (!parseArguments(argc, argv, frames, windowOptions))
    return 2;
  auto window = Window::create(windowOptions);
  if (!window) {
    llvm::errs() << "klx-bench-frames: " << toString(window.takeError())
                 << "\n";
    return 2;
  }
  (*window)->disableVsync();

  CompileOptions options;
  options.stopAfter = "cse#2";
  std::string sample = KLX_SOURCE_DIR "/samples/nvidia/gemm_tma_wgmma.mlir";
  auto source = llvm::MemoryBuffer::getFile(sample);
  if (!source)
    return 2;
  PipelineRun lowered = runPipeline((*source)->getBuffer(), sample, options);
  if (!lowered.succeeded())
    return 1;
  auto run = std::make_shared<PipelineRun>();
  run->fileName = sample;
  for (bool variant : {false, true}) {
    Snapshot snapshot;
    snapshot.name = variant ? "after" : "before";
    snapshot.anchor = "builtin.module";
    snapshot.text = bigIR(lowered.snapshots.back().text, 50000, variant);
    snapshot.changed = true;
    run->snapshots.push_back(std::move(snapshot));
  }
  AppState state;
  state.run = run;
  state.runSerial = 1;
  state.source.text = (*source)->getBuffer().str();
  state.view.selected = 1;
  std::vector<std::unique_ptr<Panel>> panels = createPanels();

  benchIRPane(**window, panels, state, frames);
  benchTimeline(**window, panels, state, frames);
  window->reset(); // one window at a time on the display

  auto klx = runTool(KLX_BINARY, {"--exit-after-idle=3"}, 120);
  if (!klx) {
    llvm::errs() << toString(klx.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << "idle window: " << klx->output;
  return 0;
}
