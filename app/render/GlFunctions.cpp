//===- GlFunctions.cpp - Loading OpenGL 3.3 from the current context ------===//

#include "render/GlFunctions.h"

using namespace klx::app;

bool GlFunctions::load(GetGlProc getProc, std::string &error) {
  std::string missing;
#define KLX_GL_LOAD(type, name)                                                \
  name = reinterpret_cast<type>(getProc("gl" #name));                          \
  if (!name)                                                                   \
    missing += std::string(missing.empty() ? "" : ", ") + "gl" #name;
  KLX_GL_FUNCTIONS(KLX_GL_LOAD)
#undef KLX_GL_LOAD
  if (missing.empty())
    return true;
  error = "OpenGL 3.3 is missing " + missing + " (the context is " +
          describe() + ")";
  return false;
}

std::string GlFunctions::describe() const {
  if (!GetString)
    return "unknown";
  auto text = [&](GLenum what) {
    const GLubyte *s = GetString(what);
    return s ? std::string(reinterpret_cast<const char *>(s)) : "?";
  };
  return "OpenGL " + text(GL_VERSION) + ", " + text(GL_RENDERER);
}
