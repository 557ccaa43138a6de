//===- Window.cpp - A GLFW window with ImGui on OpenGL 3 ------------------===//

#include "Window.h"

#include "core/KeyQueue.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb/stb_image_write.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <mutex>

using namespace klx::app;

namespace {
std::atomic<unsigned> eventCount{0};
std::mutex droppedMutex;
std::vector<std::string> dropped;
std::string glfwErrorText;

void noteEvent(GLFWwindow *) { ++eventCount; }
void onCursor(GLFWwindow *, double, double) { ++eventCount; }
void onSize(GLFWwindow *, int, int) { ++eventCount; }
void onFocus(GLFWwindow *, int) { ++eventCount; }
void onContentScale(GLFWwindow *, float, float) { ++eventCount; }
void onDrop(GLFWwindow *, int count, const char **paths) {
  std::lock_guard<std::mutex> lock(droppedMutex);
  for (int i = 0; i < count; ++i)
    dropped.push_back(paths[i]);
  ++eventCount;
}
// ImGui's backend chains to callbacks installed before it.
void onKey(GLFWwindow *, int, int, int, int) { ++eventCount; }

// Key events reach ImGui's backend through the queue (core/KeyQueue.h),
// so that a press and release between two frames are both seen.
KeyQueue keyQueue;
void onKeyQueued(GLFWwindow *w, int key, int scancode, int action, int mods) {
  if (keyQueue.admit({key, scancode, action, mods}))
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
  else
    ++eventCount;
}
void onChar(GLFWwindow *, unsigned) { ++eventCount; }
void onMouseButton(GLFWwindow *, int, int, int) { ++eventCount; }
void onScroll(GLFWwindow *, double, double) { ++eventCount; }

const char *kMonospaceFont =
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
/// The font's size at 100%, in pixels.
constexpr float kFontPixels = 15.0f;

/// The size a new window takes: the primary monitor's work area, or the
/// size asked for.
void initialSize(const Window::Options &options, int &x, int &y, int &width,
                 int &height) {
  x = y = 0;
  width = options.width;
  height = options.height;
  if (width > 0 && height > 0)
    return;
  width = 1600;
  height = 900;
  if (GLFWmonitor *monitor = glfwGetPrimaryMonitor()) {
    int w = 0, h = 0;
    glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
    if (w > 0 && h > 0) {
      width = w;
      height = h;
    }
  }
}

void loadFonts(ImGuiIO &io, float pixels) {
  io.Fonts->Clear();
  if (FILE *probe = std::fopen(kMonospaceFont, "rb")) {
    std::fclose(probe);
    // Latin-1 plus the punctuation and arrows the lesson pages and the
    // IR use (dashes, quotes, x, ->, ...).
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190,
                                     0x21FF, 0x2200, 0x22FF, 0};
    io.Fonts->AddFontFromFileTTF(kMonospaceFont, pixels, nullptr, ranges);
  } else {
    ImFontConfig config;
    config.SizePixels = pixels;
    io.Fonts->AddFontDefault(&config);
  }
}
} // namespace

llvm::Expected<std::unique_ptr<Window>> Window::create(const Options &options) {
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY"))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "no display (DISPLAY is not set): the window cannot open. Use a "
        "subcommand such as `klx pipeline FILE`, or run under xvfb-run.");
  glfwSetErrorCallback(
      [](int, const char *text) { glfwErrorText = text ? text : ""; });
  if (!glfwInit())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot open the display: %s",
                                   glfwErrorText.c_str());
  // OpenGL 3.3 for the lanes' shaders (instancing); 3.2 is enough for
  // ImGui, and then the lanes are drawn on the CPU (GpuLanes says so).
  std::unique_ptr<Window> result(new Window());
  int x, y, width, height;
  initialSize(options, x, y, width, height);
  for (int minor : {3, 2}) {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
    result->window = glfwCreateWindow(
        width, height, "klx - Kernel Lowering eXplorer", nullptr, nullptr);
    if (result->window)
      break;
  }
  if (!result->window) {
    glfwTerminate();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot create an OpenGL 3.2 window: %s",
                                   glfwErrorText.c_str());
  }
  GLFWwindow *w = result->window;
  glfwSetWindowPos(w, x, y);
  glfwMakeContextCurrent(w);
  glfwSwapInterval(1);
  glfwSetCursorPosCallback(w, onCursor);
  glfwSetWindowSizeCallback(w, onSize);
  glfwSetWindowFocusCallback(w, onFocus);
  glfwSetWindowContentScaleCallback(w, onContentScale);
  glfwSetDropCallback(w, onDrop);
  glfwSetKeyCallback(w, onKey);
  glfwSetCharCallback(w, onChar);
  glfwSetMouseButtonCallback(w, onMouseButton);
  glfwSetScrollCallback(w, onScroll);
  glfwSetWindowRefreshCallback(w, noteEvent);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO &io = ImGui::GetIO();
  result->iniPath = options.iniPath;
  io.IniFilename = result->iniPath.empty() ? nullptr : result->iniPath.c_str();
  ImGui_ImplGlfw_InitForOpenGL(w, /*install_callbacks=*/true);
  glfwSetKeyCallback(w, onKeyQueued); // ImGui's, through the queue
  ImGui_ImplOpenGL3_Init("#version 150");
  result->setUiScale(result->contentScale());
  return result;
}

static std::vector<std::function<void()>> &contextEndHooks() {
  static std::vector<std::function<void()>> hooks;
  return hooks;
}

void Window::atContextEnd(std::function<void()> release) {
  contextEndHooks().push_back(std::move(release));
}

Window::~Window() {
  llvm::consumeError(std::move(screenshotError));
  if (!window)
    return;
  for (std::function<void()> &release : contextEndHooks())
    release();
  contextEndHooks().clear();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
}

bool Window::shouldClose() const { return glfwWindowShouldClose(window); }

bool Window::waitEvents(double timeoutSeconds) {
  // Held keys are events a frame still has to see.
  if (keyQueue.holding()) {
    glfwPollEvents();
    return true;
  }
  unsigned before = eventCount;
  if (timeoutSeconds < 0)
    glfwWaitEvents();
  else
    glfwWaitEventsTimeout(timeoutSeconds);
  return eventCount != before;
}

bool Window::pollEvents() {
  unsigned before = eventCount;
  glfwPollEvents();
  return eventCount != before;
}

void Window::wake() {
  ++eventCount;
  glfwPostEmptyEvent();
}

double Window::now() const { return glfwGetTime(); }

float Window::contentScale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window, &x, &y);
  return x > 0 ? x : 1;
}

ImVec2 Window::size() const {
  int width = 0, height = 0;
  glfwGetWindowSize(window, &width, &height);
  return ImVec2(float(width), float(height));
}

void Window::setUiScale(float newScale) {
  if (newScale == scale)
    return;
  scale = newScale;
  ImGuiIO &io = ImGui::GetIO();
  // Before the first frame the backend has uploaded nothing yet; it
  // uploads the atlas when it creates its objects.
  bool uploaded = io.Fonts->TexID != ImTextureID();
  loadFonts(io, std::round(kFontPixels * scale));
  io.Fonts->Build();
  if (uploaded) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  applyStyle();
}

void Window::setColours(bool light, float clearRed, float clearGreen,
                        float clearBlue) {
  clearColour[0] = clearRed;
  clearColour[1] = clearGreen;
  clearColour[2] = clearBlue;
  if (light == lightStyle)
    return;
  lightStyle = light;
  applyStyle();
}

void Window::applyStyle() {
  if (scale <= 0)
    return; // setUiScale applies it
  ImGuiStyle style;
  if (lightStyle)
    ImGui::StyleColorsLight(&style);
  else
    ImGui::StyleColorsDark(&style);
  // Menus and popups opaque: the text behind showed through their items.
  style.Colors[ImGuiCol_PopupBg].w = 1.0f;
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

std::vector<std::string> Window::takeDroppedFiles() {
  std::lock_guard<std::mutex> lock(droppedMutex);
  return std::move(dropped);
}

void Window::beginFrame(const std::function<void(ImGuiIO &)> &adjustInput) {
  ImGui_ImplOpenGL3_NewFrame();
  for (const KeyEvent &e : keyQueue.takeReady())
    ImGui_ImplGlfw_KeyCallback(window, e.key, e.scancode, e.action, e.mods);
  ImGui_ImplGlfw_NewFrame();
  if (adjustInput)
    adjustInput(ImGui::GetIO());
  ImGui::NewFrame();
  keyQueue.frameBegan();
}

void Window::disableVsync() { glfwSwapInterval(0); }

void Window::endFrame() {
  ImGui::Render();
  submitFrame();
}

void Window::submitFrame() {
  int width, height;
  glfwGetFramebufferSize(window, &width, &height);
  glViewport(0, 0, width, height);
  glClearColor(clearColour[0], clearColour[1], clearColour[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (!screenshotPath.empty()) {
    screenshotError = saveScreenshot(screenshotPath);
    screenshotPath.clear();
  }
  glfwSwapBuffers(window);
}

llvm::Error Window::takeScreenshotError() { return std::move(screenshotError); }

llvm::Error Window::saveScreenshot(const std::string &path) {
  int width, height;
  glfwGetFramebufferSize(window, &width, &height);
  std::vector<unsigned char> pixels(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's rows run bottom-up; PNG's top-down.
  std::vector<unsigned char> flipped(pixels.size());
  size_t stride = size_t(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(&pixels[size_t(height - 1 - y) * stride], stride,
                &flipped[size_t(y) * stride]);
  if (!stbi_write_png(path.c_str(), width, height, 4, flipped.data(),
                      int(stride)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write the screenshot %s",
                                   path.c_str());
  return llvm::Error::success();
}
