//===- LaneProgram.cpp - The lanes' shaders, built once -------------------===//

#include "render/LaneProgram.h"

#include "render/ShaderProgram.h"
#include "render/Shaders.h"

using namespace klx::app;

llvm::Expected<std::shared_ptr<const LaneProgram>>
LaneProgram::create(GetGlProc getProc) {
  std::shared_ptr<LaneProgram> p(new LaneProgram());
  std::string error;
  if (!p->functions.load(getProc, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
  const GlFunctions &gl = p->functions;
  llvm::Expected<GLuint> program = buildProgram(
      gl, "shaders/lanes.vert", embeddedShader("shaders/lanes.vert"),
      "shaders/lanes.frag", embeddedShader("shaders/lanes.frag"));
  if (!program)
    return program.takeError();
  p->program = *program;
  Uniforms &u = p->locations;
  u.viewStart = gl.GetUniformLocation(p->program, "viewStart");
  u.viewStartLow = gl.GetUniformLocation(p->program, "viewStartLow");
  u.viewSpan = gl.GetUniformLocation(p->program, "viewSpan");
  u.plotPixels = gl.GetUniformLocation(p->program, "plotPixels");
  u.framebuffer = gl.GetUniformLocation(p->program, "framebuffer");
  u.laneHeight = gl.GetUniformLocation(p->program, "laneHeight");
  u.laneGap = gl.GetUniformLocation(p->program, "laneGap");
  return std::shared_ptr<const LaneProgram>(std::move(p));
}

LaneProgram::~LaneProgram() {
  if (functions.DeleteProgram && program)
    functions.DeleteProgram(program);
}
