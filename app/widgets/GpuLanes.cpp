//===- GpuLanes.cpp - Timeline lanes through the GPU, inside ImGui --------===//

#include "widgets/GpuLanes.h"

#include "render/Window.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace klx::app;

namespace {
constexpr size_t kKeptSets = 8;
/// Below this many events preparing takes a few milliseconds: done at once,
/// with no frame of empty lanes.
constexpr size_t kPrepareAtOnce = 100000;
} // namespace

GpuLanes &GpuLanes::get() {
  static GpuLanes lanes;
  return lanes;
}

bool GpuLanes::available() {
  if (!tried) {
    tried = true;
    Window::atContextEnd([this] { release(); });
    if (const char *cpu = std::getenv("KLX_CPU_LANES"); cpu && *cpu == '1') {
      why = "KLX_CPU_LANES=1";
      return false;
    }
    // Loads OpenGL 3.3 and compiles the shaders, once for every set.
    llvm::Expected<std::shared_ptr<const LaneProgram>> made =
        LaneProgram::create(glfwGetProcAddress);
    if (!made) {
      why = llvm::toString(made.takeError());
      return false;
    }
    program = std::move(*made);
  }
  return why.empty();
}

void GpuLanes::draw(ImDrawList *draw, const std::string &key,
                    const std::function<std::vector<LaneEvent>()> &build,
                    const LaneRenderer::View &view) {
  if (!available())
    return;
  // The callbacks run when the frame renders; what they read (and the
  // renderers they draw with) lives until the next frame queues its own.
  if (pendingFrame != ImGui::GetFrameCount()) {
    pending.clear();
    retired.clear();
    pendingFrame = ImGui::GetFrameCount();
  }
  auto found = sets.find(key);
  if (found == sets.end()) {
    std::shared_ptr<const LaneRenderer::Prepared> prepared =
        takePrepared(key, build);
    if (!prepared) {
      char text[96];
      std::snprintf(text, sizeof text, "preparing %zu events for the GPU...",
                    preparing[key].events);
      draw->AddText(ImVec2(view.x0 + 4, view.y0),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
      return;
    }
    std::unique_ptr<LaneRenderer> made = LaneRenderer::create(program);
    made->upload(*prepared);
    found = sets.emplace(key, std::move(made)).first;
  } else {
    order.erase(std::find(order.begin(), order.end(), key));
  }
  // Least recently drawn first; one drawn this frame may be queued, so it
  // is retired, not deleted, until the next frame.
  order.push_back(key);
  if (order.size() > kKeptSets) {
    auto oldest = sets.find(order.front());
    retired.push_back(std::move(oldest->second));
    sets.erase(oldest);
    order.pop_front();
  }
  pending.push_back({found->second.get(), view});
  draw->AddCallback(&GpuLanes::callback, &pending.back());
  draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

std::shared_ptr<const LaneRenderer::Prepared>
GpuLanes::takePrepared(const std::string &key,
                       const std::function<std::vector<LaneEvent>()> &build) {
  auto it = preparing.find(key);
  if (it == preparing.end()) {
    std::vector<LaneEvent> events = build();
    if (events.size() < kPrepareAtOnce)
      return LaneRenderer::prepare(events);
    it = preparing.try_emplace(key).first;
    it->second.events = events.size();
    auto shared =
        std::make_shared<const std::vector<LaneEvent>>(std::move(events));
    it->second.job.request(0,
                           [shared] { return LaneRenderer::prepare(*shared); });
    return nullptr;
  }
  std::shared_ptr<const LaneRenderer::Prepared> ready = it->second.job.get();
  if (ready)
    preparing.erase(it);
  return ready;
}

void GpuLanes::callback(const ImDrawList *, const ImDrawCmd *cmd) {
  const Pending &p = *static_cast<const Pending *>(cmd->UserCallbackData);
  const ImDrawData *data = ImGui::GetDrawData();
  if (!data || !p.renderer)
    return;
  ImVec2 scale = data->FramebufferScale, at = data->DisplayPos;
  int width = int(data->DisplaySize.x * scale.x);
  int height = int(data->DisplaySize.y * scale.y);
  auto toPixelsX = [&](float x) { return (x - at.x) * scale.x; };
  auto toPixelsY = [&](float y) { return (y - at.y) * scale.y; };
  LaneRenderer::View view = p.view;
  view.x0 = toPixelsX(view.x0);
  view.x1 = toPixelsX(view.x1);
  view.y0 = toPixelsY(view.y0);
  view.laneHeight *= scale.y;
  view.laneGap *= scale.y;
  view.framebufferWidth = width;
  view.framebufferHeight = height;
  // The pane's clip rectangle, in GL's framebuffer pixels (y up).
  const GlFunctions &gl = p.renderer->gl();
  float cx0 = toPixelsX(cmd->ClipRect.x), cy0 = toPixelsY(cmd->ClipRect.y);
  float cx1 = toPixelsX(cmd->ClipRect.z), cy1 = toPixelsY(cmd->ClipRect.w);
  if (cx1 <= cx0 || cy1 <= cy0)
    return;
  gl.Enable(GL_SCISSOR_TEST);
  gl.Scissor(int(cx0), int(float(height) - cy1), int(cx1 - cx0),
             int(cy1 - cy0));
  p.renderer->draw(view);
}

void GpuLanes::release() {
  sets.clear();
  preparing.clear(); // a thread still preparing holds its own job
  order.clear();
  pending.clear();
  retired.clear();
  program.reset(); // after the sets that draw with it
  tried = false;
  why.clear();
}
