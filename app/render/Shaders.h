//===- Shaders.h - The GLSL of shaders/, built into the binary --*- C++ -*-===//
//
// shaders/EmbedShaders.cmake turns each file of the top-level shaders/
// folder into a string at build time, so an installed klx needs no
// shaders folder; a shader is named by its path ("shaders/lanes.vert"),
// which is also how its compile errors are reported.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_RENDER_SHADERS_H
#define KLX_APP_RENDER_SHADERS_H

#include <cstring>

namespace klx::app {

struct EmbeddedShader {
  const char *name;   // "shaders/lanes.vert"
  const char *source; // the file's text
};

/// Every shader, ending in {nullptr, nullptr}.
extern const EmbeddedShader kEmbeddedShaders[];

/// The source of shader `name`, or nullptr.
inline const char *embeddedShader(const char *name) {
  for (const EmbeddedShader *s = kEmbeddedShaders; s->name; ++s)
    if (std::strcmp(s->name, name) == 0)
      return s->source;
  return nullptr;
}

} // namespace klx::app

#endif // KLX_APP_RENDER_SHADERS_H
