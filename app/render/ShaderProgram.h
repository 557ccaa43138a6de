//===- ShaderProgram.h - GLSL compiled and linked, errors by name -*- C++ -*-=//
//
// Compiles a vertex and a fragment shader and links them. A compile error
// comes back as "shaders/lanes.vert:12:5: error: ...": the driver's log
// ("0:12(5): error" from Mesa, "0(12) : error" from NVIDIA, "ERROR: 0:12:"
// from others) with the shader's name in place of its source number.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_RENDER_SHADERPROGRAM_H
#define KLX_APP_RENDER_SHADERPROGRAM_H

#include "render/GlFunctions.h"

#include "llvm/Support/Error.h"

#include <string>

namespace klx::app {

/// The driver's info log of shader `name`, each line's source position
/// rewritten as NAME:LINE[:COL]:.
std::string formatShaderLog(const std::string &name, const std::string &log);

/// A linked program; 0 when empty. The caller deletes it (gl.DeleteProgram).
llvm::Expected<GLuint> buildProgram(const GlFunctions &gl,
                                    const char *vertexName,
                                    const char *vertexSource,
                                    const char *fragmentName,
                                    const char *fragmentSource);

} // namespace klx::app

#endif // KLX_APP_RENDER_SHADERPROGRAM_H
