//===- LaneRenderer.h - Timeline lanes drawn by the GPU ---------*- C++ -*-===//
//
// Events of a timeline (one rectangle each: a lane, a start and an end, a
// colour) are uploaded to a GPU buffer once; each frame draws them all as
// instanced rectangles with shaders/lanes.vert and lanes.frag, the view's
// time window and the plot's rectangle as uniforms. The CPU's cost per
// frame is a handful of GL calls whatever the number of events (the
// Tracy way of drawing what does not change). The events are kept sorted
// by start, so the ones a time window can show are one contiguous range,
// found by two binary searches and drawn by pointing the attributes at
// its first; zoomed out, a coarser level of detail (each lane's events
// merged per bucket narrower than a pixel) keeps the rectangles drawn
// near two per pixel per lane. Times are relative to an origin so that
// floats keep their precision.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_RENDER_LANERENDERER_H
#define KLX_APP_RENDER_LANERENDERER_H

#include "render/GlFunctions.h"
#include "render/LaneProgram.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace klx::app {

struct LaneEvent {
  double start = 0, end = 0;
  uint32_t lane = 0;
  uint32_t rgba = 0xffffffff; // R in the low byte (ImGui's IM_COL32)
};

class LaneRenderer {
public:
  /// What the vertex shader reads per instance: 16 bytes.
  struct Instance {
    float start, end, lane;
    uint32_t rgba;
  };
  /// Level 0 is every event; level k, each lane's events merged into
  /// buckets of `bucket` cycles (twice level k-1's), drawn when a bucket
  /// is narrower than a pixel. All levels sit in one buffer.
  struct Level {
    double bucket = 0;
    size_t offset = 0;          // the level's first instance in the buffer
    std::vector<double> starts; // sorted
    double longest = 0;         // its longest rectangle's length
    size_t count = 0;
  };
  struct Prepared {
    double origin = 0;
    size_t count = 0;                // events (level 0)
    std::vector<Instance> instances; // every level's, one after another
    std::vector<Level> levels;
  };

  /// A buffer and a vertex array for one set of lanes, drawn with
  /// `program` (shared by every set of one context).
  static std::unique_ptr<LaneRenderer>
  create(std::shared_ptr<const LaneProgram> program);
  /// ... with a program of its own (benchmarks, tests): an error says
  /// what is missing or which shader line failed, and the caller draws
  /// the slower way.
  static llvm::Expected<std::unique_ptr<LaneRenderer>>
  create(GetGlProc getProc);
  ~LaneRenderer();

  /// What the GPU buffer will hold: the events sorted, their levels of
  /// detail (Prepared, above). Made without OpenGL, so on any thread:
  /// for millions of events it takes seconds, which GpuLanes spends off
  /// the GUI thread.
  static std::shared_ptr<const Prepared>
  prepare(const std::vector<LaneEvent> &events);
  /// Replaces the events on the GPU (once per change of data, not per
  /// frame): a buffer upload.
  void upload(const Prepared &prepared);
  void upload(const std::vector<LaneEvent> &events) {
    upload(*prepare(events));
  }
  size_t eventCount() const { return count; }

  struct View {
    double start = 0, end = 1;    // the visible time window
    float x0 = 0, y0 = 0, x1 = 0; // the plot, framebuffer pixels, y down
    float laneHeight = 16, laneGap = 2;
    int framebufferWidth = 1, framebufferHeight = 1;
  };
  /// Draws every event into the plot (the caller sets the scissor), timed
  /// by a GL timer query when `timed`.
  void draw(const View &view, bool timed = false);
  /// GPU milliseconds of the last timed draw; waits for the result.
  double lastGpuMs();
  /// Instances the last draw drew (those that may show in its window),
  /// and from which level of detail (0: every event).
  size_t lastDrawn() const { return drawn; }
  size_t lastLevelDrawn() const { return lastLevel; }

  const GlFunctions &gl() const { return program->gl(); }

private:
  LaneRenderer() = default;
  /// The per-instance attributes read from instance `first` on (the VAO
  /// bound).
  void pointAttributesAt(size_t first);
  std::shared_ptr<const LaneProgram> program;
  GLuint vertexArray = 0, buffer = 0, query = 0;
  size_t count = 0, drawn = 0, lastLevel = 0;
  double origin = 0; // subtracted from every time before it becomes a float
  std::vector<Level> levels;
  bool queried = false;
};

} // namespace klx::app

#endif // KLX_APP_RENDER_LANERENDERER_H
