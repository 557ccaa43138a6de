//===- GlFunctions.h - The OpenGL 3.3 entry points klx draws with -*- C++ -*-=//
//
// ImGui's OpenGL backend loads only what it needs; klx's own drawing
// (instanced timeline lanes, LaneRenderer) needs instancing, timer
// queries and framebuffers as well, loaded here from the current context
// through the loader its maker gives (glfwGetProcAddress in the window,
// eglGetProcAddress in klx-bench-lanes-egl): render/ knows no windowing
// library. Missing entry points are named, so a window without OpenGL
// 3.3 can say why it draws the slower way.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_RENDER_GLFUNCTIONS_H
#define KLX_APP_RENDER_GLFUNCTIONS_H

#include <GL/glcorearb.h>

#include <string>

namespace klx::app {

/// How a context gives its entry points: glfwGetProcAddress and
/// eglGetProcAddress both are one.
using GlProc = void (*)();
using GetGlProc = GlProc (*)(const char *name);

struct GlFunctions {
#define KLX_GL_FUNCTIONS(X)                                                    \
  X(PFNGLGETSTRINGPROC, GetString)                                             \
  X(PFNGLGETINTEGERVPROC, GetIntegerv)                                         \
  X(PFNGLGETERRORPROC, GetError)                                               \
  X(PFNGLVIEWPORTPROC, Viewport)                                               \
  X(PFNGLSCISSORPROC, Scissor)                                                 \
  X(PFNGLENABLEPROC, Enable)                                                   \
  X(PFNGLDISABLEPROC, Disable)                                                 \
  X(PFNGLISENABLEDPROC, IsEnabled)                                             \
  X(PFNGLBLENDFUNCPROC, BlendFunc)                                             \
  X(PFNGLCLEARCOLORPROC, ClearColor)                                           \
  X(PFNGLCLEARPROC, Clear)                                                     \
  X(PFNGLREADPIXELSPROC, ReadPixels)                                           \
  X(PFNGLFINISHPROC, Finish)                                                   \
  X(PFNGLCREATESHADERPROC, CreateShader)                                       \
  X(PFNGLSHADERSOURCEPROC, ShaderSource)                                       \
  X(PFNGLCOMPILESHADERPROC, CompileShader)                                     \
  X(PFNGLGETSHADERIVPROC, GetShaderiv)                                         \
  X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog)                               \
  X(PFNGLDELETESHADERPROC, DeleteShader)                                       \
  X(PFNGLCREATEPROGRAMPROC, CreateProgram)                                     \
  X(PFNGLATTACHSHADERPROC, AttachShader)                                       \
  X(PFNGLLINKPROGRAMPROC, LinkProgram)                                         \
  X(PFNGLGETPROGRAMIVPROC, GetProgramiv)                                       \
  X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog)                             \
  X(PFNGLDELETEPROGRAMPROC, DeleteProgram)                                     \
  X(PFNGLUSEPROGRAMPROC, UseProgram)                                           \
  X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation)                           \
  X(PFNGLUNIFORM1FPROC, Uniform1f)                                             \
  X(PFNGLUNIFORM2FPROC, Uniform2f)                                             \
  X(PFNGLUNIFORM4FPROC, Uniform4f)                                             \
  X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays)                                 \
  X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray)                                 \
  X(PFNGLDELETEVERTEXARRAYSPROC, DeleteVertexArrays)                           \
  X(PFNGLGENBUFFERSPROC, GenBuffers)                                           \
  X(PFNGLBINDBUFFERPROC, BindBuffer)                                           \
  X(PFNGLBUFFERDATAPROC, BufferData)                                           \
  X(PFNGLDELETEBUFFERSPROC, DeleteBuffers)                                     \
  X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer)                         \
  X(PFNGLVERTEXATTRIBDIVISORPROC, VertexAttribDivisor)                         \
  X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray)                 \
  X(PFNGLDRAWARRAYSINSTANCEDPROC, DrawArraysInstanced)                         \
  X(PFNGLGENQUERIESPROC, GenQueries)                                           \
  X(PFNGLBEGINQUERYPROC, BeginQuery)                                           \
  X(PFNGLENDQUERYPROC, EndQuery)                                               \
  X(PFNGLGETQUERYOBJECTIVPROC, GetQueryObjectiv)                               \
  X(PFNGLGETQUERYOBJECTUI64VPROC, GetQueryObjectui64v)                         \
  X(PFNGLDELETEQUERIESPROC, DeleteQueries)                                     \
  X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers)                                 \
  X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer)                                 \
  X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers)                           \
  X(PFNGLGENRENDERBUFFERSPROC, GenRenderbuffers)                               \
  X(PFNGLBINDRENDERBUFFERPROC, BindRenderbuffer)                               \
  X(PFNGLRENDERBUFFERSTORAGEPROC, RenderbufferStorage)                         \
  X(PFNGLDELETERENDERBUFFERSPROC, DeleteRenderbuffers)                         \
  X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, FramebufferRenderbuffer)                 \
  X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus)
#define KLX_GL_FIELD(type, name) type name = nullptr;
  KLX_GL_FUNCTIONS(KLX_GL_FIELD)
#undef KLX_GL_FIELD

  /// Loads every entry point from the current context through `getProc`.
  /// On failure returns false and says which are missing and what version
  /// the context has.
  bool load(GetGlProc getProc, std::string &error);
  /// "OpenGL 4.5 (Core Profile) Mesa 22.3.6, llvmpipe (LLVM 15.0.6, 256
  /// bits)": what draws, for benchmarks and messages.
  std::string describe() const;
};

} // namespace klx::app

#endif // KLX_APP_RENDER_GLFUNCTIONS_H
