//===- ShaderProgram.cpp - GLSL compiled and linked -----------------------===//

#include "render/ShaderProgram.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace klx::app;

std::string klx::app::formatShaderLog(const std::string &name,
                                      const std::string &log) {
  // Mesa "0:12(5): ", NVIDIA "0(12) : ", others "ERROR: 0:12: ".
  static const llvm::Regex mesa("^([0-9]+):([0-9]+)\\(([0-9]+)\\): *(.*)$");
  static const llvm::Regex nvidia("^([0-9]+)\\(([0-9]+)\\) *: *(.*)$");
  static const llvm::Regex plain(
      "^(ERROR|WARNING): *([0-9]+):([0-9]+): *(.*)$");
  std::string out;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(log).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    line = line.rtrim();
    llvm::SmallVector<llvm::StringRef, 5> m;
    std::string formatted;
    if (mesa.match(line, &m))
      formatted =
          name + ":" + m[2].str() + ":" + m[3].str() + ": " + m[4].str();
    else if (nvidia.match(line, &m))
      formatted = name + ":" + m[2].str() + ": " + m[3].str();
    else if (plain.match(line, &m))
      formatted =
          name + ":" + m[3].str() + ": " + m[1].lower() + ": " + m[4].str();
    else
      formatted = name + ": " + line.str();
    out += (out.empty() ? "" : "\n") + formatted;
  }
  return out.empty() ? name + ": the driver gave no log" : out;
}

static llvm::Expected<GLuint> compile(const GlFunctions &gl, GLenum kind,
                                      const char *name, const char *source) {
  if (!source)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: no such shader in the binary", name);
  GLuint shader = gl.CreateShader(kind);
  gl.ShaderSource(shader, 1, &source, nullptr);
  gl.CompileShader(shader);
  GLint ok = 0;
  gl.GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok)
    return shader;
  GLint length = 0;
  gl.GetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(size_t(std::max(length, 1)), '\0');
  gl.GetShaderInfoLog(shader, GLsizei(log.size()), nullptr, log.data());
  gl.DeleteShader(shader);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 formatShaderLog(name, log.c_str()));
}

llvm::Expected<GLuint> klx::app::buildProgram(const GlFunctions &gl,
                                              const char *vertexName,
                                              const char *vertexSource,
                                              const char *fragmentName,
                                              const char *fragmentSource) {
  llvm::Expected<GLuint> vertex =
      compile(gl, GL_VERTEX_SHADER, vertexName, vertexSource);
  if (!vertex)
    return vertex.takeError();
  llvm::Expected<GLuint> fragment =
      compile(gl, GL_FRAGMENT_SHADER, fragmentName, fragmentSource);
  if (!fragment) {
    gl.DeleteShader(*vertex);
    return fragment.takeError();
  }
  GLuint program = gl.CreateProgram();
  gl.AttachShader(program, *vertex);
  gl.AttachShader(program, *fragment);
  gl.LinkProgram(program);
  gl.DeleteShader(*vertex);
  gl.DeleteShader(*fragment);
  GLint ok = 0;
  gl.GetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok)
    return program;
  char log[2048] = {};
  gl.GetProgramInfoLog(program, sizeof log, nullptr, log);
  gl.DeleteProgram(program);
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(), "linking %s with %s: %s", vertexName,
      fragmentName, llvm::StringRef(log).trim().str().c_str());
}
