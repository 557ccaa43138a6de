//===- GpuLanes.h - Timeline lanes through the GPU, inside ImGui -*- C++ -*-=//
//
// The panes draw timeline lanes with LaneRenderer (shaders/lanes.*) when
// the window has OpenGL 3.3: each set of lanes is uploaded once (keyed by
// what it shows) and drawn by an ImGui draw callback at its place in the
// pane's draw list, clipped to the pane, so text and overlays drawn after
// it land on top. A large set (a whole kernel's trace: millions of events)
// is sorted and given its levels of detail on a thread of its own; the
// lanes say so until it lands, and the window stays responsive. Without
// OpenGL 3.3 (or with KLX_CPU_LANES=1) it says why and the panes draw with
// ImGui's draw lists, as before.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_GPULANES_H
#define KLX_APP_WIDGETS_GPULANES_H

#include "core/Background.h"
#include "render/LaneRenderer.h"

#include <imgui.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace klx::app {

class GpuLanes {
public:
  /// The window's; the renderer is made on first use, on the GUI thread
  /// with its context current.
  static GpuLanes &get();

  /// True when lanes can be drawn by the GPU; else whyNot() says why.
  bool available();
  const std::string &whyNot() const { return why; }

  /// Queues `events` (built by `build`, only when `key` was not uploaded
  /// before) to be drawn into `draw` with `view`'s time window and plot
  /// (ImGui coordinates; the callback turns them into framebuffer
  /// pixels).
  void draw(ImDrawList *draw, const std::string &key,
            const std::function<std::vector<LaneEvent>()> &build,
            const LaneRenderer::View &view);

  /// Forgets the GPU objects (the context is about to go).
  void release();

private:
  struct Pending {
    LaneRenderer *renderer = nullptr;
    LaneRenderer::View view; // ImGui coordinates until the callback
  };
  static void callback(const ImDrawList *, const ImDrawCmd *cmd);
  /// The events of `key`, prepared: at once for a small set; for a large
  /// one, null until the thread preparing it has finished.
  std::shared_ptr<const LaneRenderer::Prepared>
  takePrepared(const std::string &key,
               const std::function<std::vector<LaneEvent>()> &build);
  struct Preparing {
    Background<LaneRenderer::Prepared> job;
    size_t events = 0;
  };
  std::map<std::string, Preparing> preparing;

  bool tried = false;
  std::string why;
  std::shared_ptr<const LaneProgram> program; // every set draws with it
  /// One renderer (buffer) per set of lanes shown, by key; the oldest go
  /// when there are more than a few.
  std::map<std::string, std::unique_ptr<LaneRenderer>> sets;
  std::deque<std::string> order; // least recently drawn first
  std::deque<Pending> pending;
  /// Renderers evicted this frame: a queued callback may still use one.
  std::vector<std::unique_ptr<LaneRenderer>> retired;
  int pendingFrame = -1;
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_GPULANES_H
