//===- LaneFramesEgl.cpp - Timeline lanes on a GPU with no display --------===//
//
// klx-bench-lanes without a window: an OpenGL 3.3 core context on an EGL
// pbuffer, from EGL device N (EGL_EXT_platform_device: a GPU server's
// card, no X server; the first unless --device=N) or else the default
// display. It links the lanes' renderer and LLVMSupport alone, no MLIR,
// so it can be carried to a machine with the card's driver (its EGL
// vendor library) and nothing of klx. The renderer it found is printed
// first: where a driver lists Mesa's software device too, that line says
// which one was measured. LaneBench.h says what it measures.
//
// usage: klx-bench-lanes-egl [--frames=N] [--device=N]
//
//===----------------------------------------------------------------------===//

#include "LaneBench.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>

using namespace klx::app;

namespace {

constexpr int kWidth = 1920, kHeight = 1080;

/// EGL device `wanted`'s display, else the default one.
EGLDisplay openDisplay(int wanted, std::string &how) {
  auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(
      eglGetProcAddress("eglQueryDevicesEXT"));
  auto platformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDeviceEXT devices[8];
  EGLint count = 0;
  if (queryDevices && platformDisplay && queryDevices(8, devices, &count) &&
      wanted < count) {
    EGLDisplay display =
        platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[wanted], nullptr);
    if (display != EGL_NO_DISPLAY && eglInitialize(display, nullptr, nullptr)) {
      how = "EGL device " + std::to_string(wanted) + " of " +
            std::to_string(count);
      return display;
    }
  }
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display != EGL_NO_DISPLAY && eglInitialize(display, nullptr, nullptr)) {
    how = "EGL's default display";
    return display;
  }
  how = "no EGL display: device " + std::to_string(wanted) +
        (wanted < count
             ? " did not initialise"
             : " is not among the " + std::to_string(count) + " EGL devices") +
        ", and the default display did not initialise";
  return EGL_NO_DISPLAY;
}

/// An OpenGL 3.3 core context current on a kWidth x kHeight pbuffer.
bool makeContext(EGLDisplay display, EGLSurface &surface, std::string &error) {
  const EGLint configAttributes[] = {EGL_SURFACE_TYPE,
                                     EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT,
                                     EGL_RED_SIZE,
                                     8,
                                     EGL_GREEN_SIZE,
                                     8,
                                     EGL_BLUE_SIZE,
                                     8,
                                     EGL_NONE};
  EGLConfig config;
  EGLint configs = 0;
  if (!eglChooseConfig(display, configAttributes, &config, 1, &configs) ||
      configs == 0) {
    error = "no EGL config with an OpenGL pbuffer";
    return false;
  }
  const EGLint size[] = {EGL_WIDTH, kWidth, EGL_HEIGHT, kHeight, EGL_NONE};
  surface = eglCreatePbufferSurface(display, config, size);
  if (surface == EGL_NO_SURFACE || !eglBindAPI(EGL_OPENGL_API)) {
    error = "no pbuffer, or no OpenGL API in EGL";
    return false;
  }
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      3,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
  EGLContext context =
      eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
  if (context == EGL_NO_CONTEXT ||
      !eglMakeCurrent(display, surface, surface, context)) {
    error = "no OpenGL 3.3 core context";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int frames =
      std::max(3, klx::bench::intArgument(argc, argv, "--frames=", 60));
  int device = std::max(0, klx::bench::intArgument(argc, argv, "--device=", 0));
  std::string how, error;
  EGLDisplay display = openDisplay(device, how);
  if (display == EGL_NO_DISPLAY) {
    llvm::errs() << "klx-bench-lanes-egl: " << how << "\n";
    return 2;
  }
  EGLSurface surface = EGL_NO_SURFACE;
  if (!makeContext(display, surface, error)) {
    llvm::errs() << "klx-bench-lanes-egl: " << error << " on " << how << "\n";
    eglTerminate(display);
    return 2;
  }
  llvm::Expected<std::unique_ptr<LaneRenderer>> renderer =
      LaneRenderer::create(eglGetProcAddress);
  if (!renderer) {
    llvm::errs() << "klx-bench-lanes-egl: "
                 << llvm::toString(renderer.takeError()) << "\n";
    eglTerminate(display);
    return 2;
  }
  llvm::outs() << "klx-bench-lanes-egl: " << (*renderer)->gl().describe()
               << " (" << how << "); pbuffer " << kWidth << "x" << kHeight
               << ", 132 lanes, " << frames << " frames per zoom\n";
  klx::bench::measureLaneFrames(
      **renderer, kWidth, kHeight, frames,
      [&] { eglSwapBuffers(display, surface); }, llvm::outs());
  renderer->reset();
  eglTerminate(display);
  return 0;
}
