//===- LaneRendererTest.cpp - Timeline lanes drawn by the shaders ---------===//
//
// shaders/lanes.vert and lanes.frag on a real OpenGL 3.3 context (Mesa's
// under Xvfb): rectangles land where the view puts them, pixel by pixel;
// panning is a uniform; only the events a window can show are drawn; a
// shader that does not compile says which file and line.
//
//===----------------------------------------------------------------------===//

#include "render/LaneRenderer.h"
#include "render/ShaderProgram.h"
#include "render/Shaders.h"

#include <GLFW/glfw3.h>
#include <catch2/catch.hpp>

#include <array>

using namespace klx::app;

namespace {

/// A hidden window whose OpenGL 3.3 context is current, and a 200 x 40
/// framebuffer to draw into.
struct Context {
  GLFWwindow *window = nullptr;
  Context() {
    REQUIRE(glfwInit());
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window = glfwCreateWindow(64, 64, "lanes", nullptr, nullptr);
    REQUIRE(window);
    glfwMakeContextCurrent(window);
  }
  ~Context() {
    glfwDestroyWindow(window);
    glfwTerminate();
  }
};

constexpr int kWidth = 200, kHeight = 40;
constexpr uint32_t kRed = 0xff0000ff, kGreen = 0xff00ff00, kBlue = 0xffff0000;

/// Draws `view` into a fresh framebuffer cleared to black; returns RGBA
/// pixels, row 0 at the top.
std::vector<uint32_t> render(LaneRenderer &lanes, LaneRenderer::View view) {
  const GlFunctions &gl = lanes.gl();
  GLuint fbo = 0, colour = 0;
  gl.GenFramebuffers(1, &fbo);
  gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
  gl.GenRenderbuffers(1, &colour);
  gl.BindRenderbuffer(GL_RENDERBUFFER, colour);
  gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kWidth, kHeight);
  gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                             GL_RENDERBUFFER, colour);
  REQUIRE(gl.CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  gl.Disable(GL_SCISSOR_TEST);
  gl.Disable(GL_BLEND);
  gl.ClearColor(0, 0, 0, 1);
  gl.Clear(GL_COLOR_BUFFER_BIT);
  view.framebufferWidth = kWidth;
  view.framebufferHeight = kHeight;
  lanes.draw(view);
  std::vector<uint32_t> pixels(size_t(kWidth * kHeight));
  gl.ReadPixels(0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE,
                pixels.data());
  gl.DeleteRenderbuffers(1, &colour);
  gl.DeleteFramebuffers(1, &fbo);
  gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
  // GL's rows go up; flip them.
  std::vector<uint32_t> top(pixels.size());
  for (int y = 0; y < kHeight; ++y)
    std::copy_n(&pixels[size_t((kHeight - 1 - y) * kWidth)], kWidth,
                &top[size_t(y * kWidth)]);
  return top;
}

/// A renderer on the current context, or the test fails with why not.
std::unique_ptr<LaneRenderer> makeRenderer() {
  llvm::Expected<std::unique_ptr<LaneRenderer>> made =
      LaneRenderer::create(glfwGetProcAddress);
  if (!made)
    FAIL(llvm::toString(made.takeError()));
  return std::move(*made);
}

uint32_t at(const std::vector<uint32_t> &pixels, int x, int y) {
  return pixels[size_t(y * kWidth + x)];
}

} // namespace

TEST_CASE("lanes: the shaders put each event where the view says",
          "[gui][lanes]") {
  Context context;
  std::unique_ptr<LaneRenderer> renderer = makeRenderer();
  LaneRenderer &lanes = *renderer;
  // Lane 0: red over cycles [1000, 1050), green over [1060, 1100); lane 1:
  // blue over [1000, 1100). The origin is subtracted on the CPU.
  lanes.upload(
      {{1000, 1050, 0, kRed}, {1060, 1100, 0, kGreen}, {1000, 1100, 1, kBlue}});
  LaneRenderer::View view;
  view.start = 1000;
  view.end = 1100;
  view.x0 = 0;
  view.x1 = kWidth;
  view.y0 = 0;
  view.laneHeight = 20;
  view.laneGap = 0;
  std::vector<uint32_t> pixels = render(lanes, view);
  CHECK(lanes.lastDrawn() == 3);
  CHECK(at(pixels, 50, 10) == kRed);        // 2 pixels per cycle
  CHECK(at(pixels, 110, 10) == 0xff000000); // the gap, cycles 1050-1060
  CHECK(at(pixels, 150, 10) == kGreen);
  CHECK(at(pixels, 100, 30) == kBlue);

  // Panning is a uniform: the window [1050, 1100) puts green at 20-200
  // and leaves red out of the window, and of the draw.
  view.start = 1050;
  pixels = render(lanes, view);
  CHECK(at(pixels, 10, 10) == 0xff000000);
  CHECK(at(pixels, 100, 10) == kGreen);
  // What is drawn: the events that start within the longest event's
  // length (100) before the window, and before its end.
  view.start = 1150;
  view.end = 1250;
  render(lanes, view);
  CHECK(lanes.lastDrawn() == 1); // green, from 1060
  view.start = 1200;
  render(lanes, view);
  CHECK(lanes.lastDrawn() == 0);

  // An event narrower than a pixel is still one pixel wide.
  lanes.upload({{1000, 1000.01, 0, kRed}});
  view.start = 1000;
  pixels = render(lanes, view);
  CHECK(at(pixels, 0, 10) == kRed);
}

TEST_CASE("lanes: zoomed out, a coarser level draws about two per pixel",
          "[gui][lanes]") {
  Context context;
  std::unique_ptr<LaneRenderer> renderer = makeRenderer();
  LaneRenderer &lanes = *renderer;
  // 10,000 events of one cycle, a cycle apart, red and green in turn.
  std::vector<LaneEvent> events;
  for (int i = 0; i < 10000; ++i)
    events.push_back({2.0 * i, 2.0 * i + 1, 0, i % 2 ? kGreen : kRed});
  lanes.upload(events);
  CHECK(lanes.eventCount() == 10000);
  LaneRenderer::View view;
  view.start = 0;
  view.end = 20000; // 100 cycles per pixel
  view.x0 = 0;
  view.x1 = kWidth;
  view.laneHeight = 20;
  view.laneGap = 0;
  std::vector<uint32_t> pixels = render(lanes, view);
  CHECK(lanes.lastLevelDrawn() > 0);
  CHECK(lanes.lastDrawn() <= 2 * size_t(kWidth) + 2);
  for (int x : {0, 50, 100, 199}) {
    INFO("x = " << x);
    uint32_t p = at(pixels, x, 10);
    CHECK((p == kRed || p == kGreen));
  }
  // Zoomed in to 40 cycles, every event is drawn as itself.
  view.end = 40;
  pixels = render(lanes, view);
  CHECK(lanes.lastLevelDrawn() == 0);
  CHECK(at(pixels, 2, 10) == kRed);       // cycle 0.4
  CHECK(at(pixels, 7, 10) == 0xff000000); // cycle 1.4: the gap
  CHECK(at(pixels, 12, 10) == kGreen);    // cycle 2.4
}

TEST_CASE("lanes: a shader that does not compile says where", "[gui][lanes]") {
  Context context;
  GlFunctions gl;
  std::string error;
  REQUIRE(gl.load(glfwGetProcAddress, error));
  CHECK(embeddedShader("shaders/lanes.vert"));
  CHECK(embeddedShader("shaders/lanes.frag"));
  CHECK_FALSE(embeddedShader("shaders/none.vert"));
  const char *broken = "#version 330 core\n"
                       "void main() {\n"
                       "  gl_Position = vec4(notDeclared);\n"
                       "}\n";
  llvm::Expected<GLuint> program =
      buildProgram(gl, "shaders/broken.vert", broken, "shaders/lanes.frag",
                   embeddedShader("shaders/lanes.frag"));
  REQUIRE_FALSE(bool(program));
  std::string message = llvm::toString(program.takeError());
  INFO(message);
  CHECK(message.rfind("shaders/broken.vert:3:", 0) == 0);
  llvm::Expected<GLuint> missing =
      buildProgram(gl, "shaders/none.vert", nullptr, "shaders/lanes.frag",
                   embeddedShader("shaders/lanes.frag"));
  REQUIRE_FALSE(bool(missing));
  CHECK(llvm::toString(missing.takeError()) ==
        "shaders/none.vert: no such shader in the binary");
}

TEST_CASE("lanes: driver logs become NAME:LINE", "[gui][lanes]") {
  CHECK(formatShaderLog("shaders/a.vert", "0:12(5): error: `x' undeclared\n") ==
        "shaders/a.vert:12:5: error: `x' undeclared");
  CHECK(formatShaderLog("shaders/a.vert",
                        "0(7) : error C1008: undefined variable \"x\"") ==
        "shaders/a.vert:7: error C1008: undefined variable \"x\"");
  CHECK(formatShaderLog("shaders/a.frag", "ERROR: 0:3: 'x' : undeclared") ==
        "shaders/a.frag:3: error: 'x' : undeclared");
  CHECK(formatShaderLog("shaders/a.frag", "") ==
        "shaders/a.frag: the driver gave no log");
}
