//===- LaneFrames.cpp - Timeline lanes drawn by shaders, per frame --------===//
//
// Opens an OpenGL 3.3 window (under xvfb-run where there is no display),
// uploads 100k, 1M and 10M timeline events on 132 lanes (an H100's SMs)
// once, then draws them with LaneRenderer frame after frame at three
// zooms (everything, 1/100 of the time axis, 1/10000), panning, and
// prints per event count the milliseconds to prepare them (sort, levels:
// off the GUI thread in the window) and to upload them, and the medians of the
// instances drawn (those the window can show), the CPU milliseconds of a
// frame's draw() and the GPU milliseconds of the draw (a GL_TIME_ELAPSED
// query). Goal: at most 2 ms of CPU per frame at 10M events. Under Xvfb
// the GPU is Mesa's llvmpipe, software on the CPU: it shades vertices in
// the thread that calls the draw, so there the CPU column holds the
// software GPU's vertex work too, and neither column is a graphics
// card's.
//
// usage: xvfb-run -a -s "-screen 0 1920x1080x24" klx-bench-lanes [--frames=N]
//
//===----------------------------------------------------------------------===//

#include "render/LaneRenderer.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>

using namespace klx::app;

namespace {

double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

/// `count` events on `lanes` lanes, back to back with gaps, 50 to 500
/// cycles long, in four colours (waits, MMAs, copies, arrives).
std::vector<LaneEvent> makeEvents(size_t count, uint32_t lanes, double &end) {
  std::mt19937 random(42);
  std::uniform_real_distribution<double> length(50, 500), gap(0, 100);
  const uint32_t colours[] = {0xff3c3ca0, 0xffe0a040, 0xff50c878, 0xffc0c0c0};
  std::vector<LaneEvent> events;
  events.reserve(count);
  std::vector<double> at(lanes, 0);
  for (size_t i = 0; i < count; ++i) {
    uint32_t lane = uint32_t(i % lanes);
    double start = at[lane] + gap(random);
    double stop = start + length(random);
    at[lane] = stop;
    events.push_back({start, stop, lane, colours[i % 4]});
  }
  end = *std::max_element(at.begin(), at.end());
  return events;
}

} // namespace

int main(int argc, char **argv) {
  int frames = 60;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--frames=", 9) == 0)
      frames = std::max(3, std::atoi(argv[i] + 9));
  if (!glfwInit()) {
    llvm::errs() << "klx-bench-lanes: cannot open the display (run it under "
                    "xvfb-run)\n";
    return 2;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow *window =
      glfwCreateWindow(1920, 1080, "klx-bench-lanes", nullptr, nullptr);
  if (!window) {
    llvm::errs() << "klx-bench-lanes: no OpenGL 3.3 window\n";
    glfwTerminate();
    return 2;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(0);
  llvm::Expected<std::unique_ptr<LaneRenderer>> renderer =
      LaneRenderer::create();
  if (!renderer) {
    llvm::errs() << "klx-bench-lanes: " << llvm::toString(renderer.takeError())
                 << "\n";
    return 2;
  }
  const GlFunctions &gl = (*renderer)->gl();
  int width = 0, height = 0;
  glfwGetFramebufferSize(window, &width, &height);
  llvm::outs() << "klx-bench-lanes: " << gl.describe() << "; framebuffer "
               << width << "x" << height << ", 132 lanes, " << frames
               << " frames per zoom\n";
  llvm::outs() << "| events | prepare ms (any thread) | upload ms (GUI "
                  "thread) | zoom | level | drawn (median) | CPU ms per frame "
                  "(median) | GPU ms per frame (median) |\n"
                  "|---|---|---|---|---|---|---|---|\n";
  using Clock = std::chrono::steady_clock;
  for (size_t count :
       {size_t(100'000), size_t(1'000'000), size_t(10'000'000)}) {
    double end = 0;
    std::vector<LaneEvent> events = makeEvents(count, 132, end);
    auto t0 = Clock::now();
    std::shared_ptr<const LaneRenderer::Prepared> prepared =
        LaneRenderer::prepare(events);
    auto t1 = Clock::now();
    (*renderer)->upload(*prepared);
    gl.Finish();
    using Ms = std::chrono::duration<double, std::milli>;
    double prepareMs = Ms(t1 - t0).count();
    double uploadMs = Ms(Clock::now() - t1).count();
    for (double zoom : {1.0, 100.0, 10000.0}) {
      std::vector<double> cpu, gpu, drawn, level;
      for (int f = 0; f < frames; ++f) {
        LaneRenderer::View view;
        double span = end / zoom;
        // Pan across the run, a step per frame.
        view.start = (end - span) * double(f) / double(frames);
        view.end = view.start + span;
        view.x0 = 100;
        view.y0 = 20;
        view.x1 = float(width) - 10;
        view.laneHeight = float(height - 40) / 132;
        view.laneGap = 1;
        view.framebufferWidth = width;
        view.framebufferHeight = height;
        gl.ClearColor(0.1f, 0.1f, 0.12f, 1);
        gl.Clear(GL_COLOR_BUFFER_BIT);
        auto start = Clock::now();
        (*renderer)->draw(view, /*timed=*/true);
        cpu.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - start)
                .count());
        drawn.push_back(double((*renderer)->lastDrawn()));
        level.push_back(double((*renderer)->lastLevelDrawn()));
        glfwSwapBuffers(window);
        gpu.push_back((*renderer)->lastGpuMs());
        glfwPollEvents();
      }
      llvm::outs() << llvm::formatv(
          "| {0} | {7:f1} | {1:f1} | 1/{2} | {3} | {4} | {5:f3} | {6:f2} |\n",
          count, uploadMs, int64_t(zoom), int64_t(medianOf(level)),
          int64_t(medianOf(drawn)), medianOf(cpu), medianOf(gpu), prepareMs);
    }
  }
  renderer->reset();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
