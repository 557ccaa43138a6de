//===- LaneFrames.cpp - Timeline lanes drawn by shaders, per frame --------===//
//
// Opens an OpenGL 3.3 window (under xvfb-run where there is no display)
// and measures the lanes in it (LaneBench.h says what). Goal: at most 2 ms
// of CPU per frame at 10M events. Under Xvfb the GPU is Mesa's llvmpipe,
// software on the CPU: it shades vertices in the thread that calls the
// draw, so there the CPU column holds the software GPU's vertex work too,
// and neither column is a graphics card's (klx-bench-lanes-egl measures
// one where there is no display).
//
// usage: xvfb-run -a -s "-screen 0 1920x1080x24" klx-bench-lanes [--frames=N]
//
//===----------------------------------------------------------------------===//

#include "LaneBench.h"

#include <GLFW/glfw3.h>

#include <algorithm>

using namespace klx::app;

int main(int argc, char **argv) {
  int frames =
      std::max(3, klx::bench::intArgument(argc, argv, "--frames=", 60));
  if (!glfwInit()) {
    llvm::errs() << "klx-bench-lanes: cannot open the display (run it under "
                    "xvfb-run)\n";
    return 2;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow *window =
      glfwCreateWindow(1920, 1080, "klx-bench-lanes", nullptr, nullptr);
  if (!window) {
    llvm::errs() << "klx-bench-lanes: no OpenGL 3.3 window\n";
    glfwTerminate();
    return 2;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(0);
  llvm::Expected<std::unique_ptr<LaneRenderer>> renderer =
      LaneRenderer::create(glfwGetProcAddress);
  if (!renderer) {
    llvm::errs() << "klx-bench-lanes: " << llvm::toString(renderer.takeError())
                 << "\n";
    return 2;
  }
  const GlFunctions &gl = (*renderer)->gl();
  int width = 0, height = 0;
  glfwGetFramebufferSize(window, &width, &height);
  llvm::outs() << "klx-bench-lanes: " << gl.describe() << "; framebuffer "
               << width << "x" << height << ", 132 lanes, " << frames
               << " frames per zoom\n";
  klx::bench::measureLaneFrames(
      **renderer, width, height, frames,
      [&] {
        glfwSwapBuffers(window);
        glfwPollEvents();
      },
      llvm::outs());
  renderer->reset();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
