//===- LaneBench.cpp - Timeline lanes drawn by shaders, measured ----------===//

#include "LaneBench.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>

using namespace klx::app;

namespace {

using Clock = std::chrono::steady_clock;
using Ms = std::chrono::duration<double, std::milli>;

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

/// Medians over the frames drawn at one zoom.
struct ZoomFigures {
  double level = 0, drawn = 0, cpuMs = 0, gpuMs = 0;
};

/// `frames` frames of 1/`zoom` of the run, panning across it a step per
/// frame.
ZoomFigures drawFrames(LaneRenderer &renderer, double end, double zoom,
                       int width, int height, int frames,
                       llvm::function_ref<void()> present) {
  const GlFunctions &gl = renderer.gl();
  std::vector<double> cpu, gpu, drawn, level;
  for (int f = 0; f < frames; ++f) {
    LaneRenderer::View view;
    double span = end / zoom;
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
    renderer.draw(view, /*timed=*/true);
    cpu.push_back(Ms(Clock::now() - start).count());
    drawn.push_back(double(renderer.lastDrawn()));
    level.push_back(double(renderer.lastLevelDrawn()));
    present();
    gpu.push_back(renderer.lastGpuMs());
  }
  return {medianOf(level), medianOf(drawn), medianOf(cpu), medianOf(gpu)};
}

} // namespace

int klx::bench::intArgument(int argc, char **argv, const char *prefix,
                            int fallback) {
  size_t length = std::strlen(prefix);
  int value = fallback;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], prefix, length) == 0)
      value = std::atoi(argv[i] + length);
  return value;
}

void klx::bench::measureLaneFrames(LaneRenderer &renderer, int width,
                                   int height, int frames,
                                   llvm::function_ref<void()> present,
                                   llvm::raw_ostream &out) {
  out << "| events | prepare ms (any thread) | upload ms (GUI "
         "thread) | zoom | level | drawn (median) | CPU ms per frame "
         "(median) | GPU ms per frame (median) |\n"
         "|---|---|---|---|---|---|---|---|\n";
  for (size_t count :
       {size_t(100'000), size_t(1'000'000), size_t(10'000'000)}) {
    double end = 0;
    std::vector<LaneEvent> events = makeEvents(count, 132, end);
    auto t0 = Clock::now();
    std::shared_ptr<const LaneRenderer::Prepared> prepared =
        LaneRenderer::prepare(events);
    auto t1 = Clock::now();
    renderer.upload(*prepared);
    renderer.gl().Finish();
    double prepareMs = Ms(t1 - t0).count();
    double uploadMs = Ms(Clock::now() - t1).count();
    for (double zoom : {1.0, 100.0, 10000.0}) {
      ZoomFigures z =
          drawFrames(renderer, end, zoom, width, height, frames, present);
      out << llvm::formatv(
          "| {0} | {1:f1} | {2:f1} | 1/{3} | {4} | {5} | {6:f3} | {7:f2} |\n",
          count, prepareMs, uploadMs, int64_t(zoom), int64_t(z.level),
          int64_t(z.drawn), z.cpuMs, z.gpuMs);
    }
  }
}
