//===- LaneRenderer.cpp - Timeline lanes drawn by the GPU -----------------===//

#include "render/LaneRenderer.h"

#include <algorithm>
#include <cstddef>

using namespace klx::app;

using Instance = LaneRenderer::Instance;

std::unique_ptr<LaneRenderer>
LaneRenderer::create(std::shared_ptr<const LaneProgram> program) {
  std::unique_ptr<LaneRenderer> r(new LaneRenderer());
  r->program = std::move(program);
  const GlFunctions &gl = r->gl();
  gl.GenVertexArrays(1, &r->vertexArray);
  gl.GenBuffers(1, &r->buffer);
  gl.GenQueries(1, &r->query);
  gl.BindVertexArray(r->vertexArray);
  for (GLuint attribute : {0u, 1u, 2u}) {
    gl.EnableVertexAttribArray(attribute);
    gl.VertexAttribDivisor(attribute, 1);
  }
  r->pointAttributesAt(0);
  gl.BindVertexArray(0);
  return r;
}

llvm::Expected<std::unique_ptr<LaneRenderer>>
LaneRenderer::create(GetGlProc getProc) {
  llvm::Expected<std::shared_ptr<const LaneProgram>> program =
      LaneProgram::create(getProc);
  if (!program)
    return program.takeError();
  return create(std::move(*program));
}

void LaneRenderer::pointAttributesAt(size_t first) {
  const GlFunctions &gl = this->gl();
  auto at = [&](size_t member) {
    return reinterpret_cast<void *>(first * sizeof(Instance) + member);
  };
  gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
  gl.VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(Instance),
                         at(offsetof(Instance, start)));
  gl.VertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(Instance),
                         at(offsetof(Instance, lane)));
  gl.VertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Instance),
                         at(offsetof(Instance, rgba)));
  gl.BindBuffer(GL_ARRAY_BUFFER, 0);
}

LaneRenderer::~LaneRenderer() {
  const GlFunctions &gl = this->gl();
  if (gl.DeleteBuffers && buffer)
    gl.DeleteBuffers(1, &buffer);
  if (gl.DeleteVertexArrays && vertexArray)
    gl.DeleteVertexArrays(1, &vertexArray);
  if (gl.DeleteQueries && query)
    gl.DeleteQueries(1, &query);
}

namespace {

bool byStart(const Instance &a, const Instance &b) { return a.start < b.start; }

/// `events` (sorted by start) merged per lane into buckets `bucket` wide:
/// one rectangle from the first start to the last end of each bucket's
/// events, in the colour of its longest; sorted by start.
std::vector<Instance> mergeBuckets(const std::vector<Instance> &events,
                                   const std::vector<uint32_t> &byLane,
                                   double bucket) {
  std::vector<Instance> out;
  int64_t current = -1;
  uint32_t lane = ~0u;
  float longest = -1;
  for (uint32_t i : byLane) {
    const Instance &e = events[i];
    int64_t b = int64_t(double(e.start) / bucket);
    if (out.empty() || uint32_t(e.lane) != lane || b != current) {
      out.push_back(e);
      lane = uint32_t(e.lane);
      current = b;
      longest = e.end - e.start;
      continue;
    }
    Instance &merged = out.back();
    merged.end = std::max(merged.end, e.end);
    if (e.end - e.start > longest) {
      longest = e.end - e.start;
      merged.rgba = e.rgba;
    }
  }
  std::sort(out.begin(), out.end(), byStart);
  return out;
}

} // namespace

std::shared_ptr<const LaneRenderer::Prepared>
LaneRenderer::prepare(const std::vector<LaneEvent> &events) {
  auto out = std::make_shared<Prepared>();
  double &origin = out->origin;
  std::vector<Level> &levels = out->levels;
  origin = events.empty() ? 0 : events.front().start;
  double last = origin;
  uint32_t lanes = 1;
  for (const LaneEvent &e : events) {
    origin = std::min(origin, e.start);
    last = std::max(last, e.end);
    lanes = std::max(lanes, e.lane + 1);
  }
  std::vector<Instance> raw;
  raw.reserve(events.size());
  for (const LaneEvent &e : events)
    raw.push_back({float(e.start - origin), float(e.end - origin),
                   float(e.lane), e.rgba});
  std::sort(raw.begin(), raw.end(), byStart);
  // Each lane's events in order, for merging: a counting sort by lane of
  // the events in start order.
  std::vector<size_t> next(size_t(lanes) + 1, 0);
  for (const Instance &e : raw)
    ++next[size_t(e.lane) + 1];
  for (size_t l = 1; l < next.size(); ++l)
    next[l] += next[l - 1];
  std::vector<uint32_t> byLane(raw.size());
  for (uint32_t i = 0; i < raw.size(); ++i)
    byLane[next[size_t(raw[i].lane)]++] = i;

  // Level 0 holds every event; level k merges them into buckets twice as
  // wide as level k-1's, from twice the mean distance between a lane's
  // events, until a level has about two rectangles per lane.
  levels.clear();
  std::vector<Instance> all = raw;
  levels.push_back({0, 0, {}, 0});
  double span = std::max(1.0, last - origin);
  double bucket =
      2 * span * double(lanes) / double(std::max<size_t>(1, raw.size()));
  size_t previous = raw.size();
  while (!raw.empty() && bucket < span) {
    std::vector<Instance> merged = mergeBuckets(raw, byLane, bucket);
    if (merged.size() * 10 > previous * 9) {
      bucket *= 2; // too little merged to be worth a level: coarser
      continue;
    }
    previous = merged.size();
    levels.push_back({bucket, all.size(), {}, 0});
    all.insert(all.end(), merged.begin(), merged.end());
    if (merged.size() <= 2 * size_t(lanes))
      break;
    bucket *= 2;
  }
  for (size_t l = 0; l < levels.size(); ++l) {
    Level &level = levels[l];
    size_t end = l + 1 < levels.size() ? levels[l + 1].offset : all.size();
    level.count = end - level.offset;
    level.starts.reserve(level.count);
    for (size_t i = level.offset; i < end; ++i) {
      level.starts.push_back(origin + double(all[i].start));
      level.longest =
          std::max(level.longest, double(all[i].end - all[i].start));
    }
  }
  out->count = raw.size();
  out->instances = std::move(all);
  return out;
}

void LaneRenderer::upload(const Prepared &prepared) {
  const GlFunctions &gl = this->gl();
  gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
  gl.BufferData(GL_ARRAY_BUFFER,
                GLsizeiptr(prepared.instances.size() * sizeof(Instance)),
                prepared.instances.data(), GL_STATIC_DRAW);
  gl.BindBuffer(GL_ARRAY_BUFFER, 0);
  origin = prepared.origin;
  levels = prepared.levels;
  count = prepared.count;
}

void LaneRenderer::draw(const View &view, bool timed) {
  drawn = 0;
  if (levels.empty())
    return;
  // The coarsest level whose buckets are narrower than a pixel: what it
  // merged could not be told apart.
  double perPixel = (view.end - view.start) / std::max(1.0f, view.x1 - view.x0);
  size_t pick = 0;
  for (size_t l = 1; l < levels.size(); ++l)
    if (levels[l].bucket <= perPixel)
      pick = l;
  const Level &level = levels[pick];
  lastLevel = pick;
  // What may show: started before the window ends, and not ended (at the
  // level's longest) before it starts.
  size_t first =
      size_t(std::lower_bound(level.starts.begin(), level.starts.end(),
                              view.start - level.longest) -
             level.starts.begin());
  size_t last = size_t(
      std::lower_bound(level.starts.begin(), level.starts.end(), view.end) -
      level.starts.begin());
  drawn = last > first ? last - first : 0;
  if (drawn == 0)
    return;
  const GlFunctions &gl = this->gl();
  const LaneProgram::Uniforms &u = program->uniforms();
  if (timed)
    gl.BeginQuery(GL_TIME_ELAPSED, query);
  gl.UseProgram(program->id());
  double start = view.start - origin;
  float high = float(start);
  gl.Uniform1f(u.viewStart, high);
  gl.Uniform1f(u.viewStartLow, float(start - double(high)));
  gl.Uniform1f(u.viewSpan, float(view.end - view.start));
  gl.Uniform4f(u.plotPixels, view.x0, view.y0, view.x1, 0);
  gl.Uniform2f(u.framebuffer, float(view.framebufferWidth),
               float(view.framebufferHeight));
  gl.Uniform1f(u.laneHeight, view.laneHeight);
  gl.Uniform1f(u.laneGap, view.laneGap);
  gl.Viewport(0, 0, view.framebufferWidth, view.framebufferHeight);
  gl.BindVertexArray(vertexArray);
  pointAttributesAt(level.offset + first);
  gl.DrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(drawn));
  gl.BindVertexArray(0);
  gl.UseProgram(0);
  if (timed) {
    gl.EndQuery(GL_TIME_ELAPSED);
    queried = true;
  }
}

double LaneRenderer::lastGpuMs() {
  if (!queried)
    return -1;
  GLuint64 nanoseconds = 0;
  gl().GetQueryObjectui64v(query, GL_QUERY_RESULT, &nanoseconds);
  return double(nanoseconds) / 1e6;
}
