//===- LaneProgram.h - The lanes' shaders, built once -----------*- C++ -*-===//
//
// shaders/lanes.vert and lanes.frag linked into one program with the
// OpenGL 3.3 functions loaded from the current context and the uniforms'
// locations looked up: made once per context and shared by every
// LaneRenderer (each set of lanes is only a buffer and a vertex array),
// so a pane that shows a new set of lanes does not compile shaders again.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_RENDER_LANEPROGRAM_H
#define KLX_APP_RENDER_LANEPROGRAM_H

#include "render/GlFunctions.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace klx::app {

class LaneProgram {
public:
  /// Loads OpenGL 3.3 from the current context (through `getProc`) and
  /// builds the shaders; an error says what is missing or which shader
  /// line failed.
  static llvm::Expected<std::shared_ptr<const LaneProgram>>
  create(GetGlProc getProc);
  ~LaneProgram();
  LaneProgram(const LaneProgram &) = delete;
  LaneProgram &operator=(const LaneProgram &) = delete;

  const GlFunctions &gl() const { return functions; }
  GLuint id() const { return program; }

  /// The uniforms lanes.vert reads.
  struct Uniforms {
    GLint viewStart = -1, viewStartLow = -1, viewSpan = -1, plotPixels = -1,
          framebuffer = -1, laneHeight = -1, laneGap = -1;
  };
  const Uniforms &uniforms() const { return locations; }

private:
  LaneProgram() = default;
  GlFunctions functions;
  GLuint program = 0;
  Uniforms locations;
};

} // namespace klx::app

#endif // KLX_APP_RENDER_LANEPROGRAM_H
