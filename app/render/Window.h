//===- Window.h - A GLFW window with ImGui on OpenGL 3 ----------*- C++ -*-===//

#ifndef KLX_APP_RENDER_WINDOW_H
#define KLX_APP_RENDER_WINDOW_H

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;
struct ImGuiIO;
struct ImVec2;

namespace klx::app {

class Window {
public:
  struct Options {
    /// 0: the monitor's work area (the screen less the task bars).
    int width = 0;
    int height = 0;
    /// Where ImGui keeps the layout; empty keeps none (screenshots).
    std::string iniPath;
  };

  /// Fails with a message when there is no display or no OpenGL 3.
  static llvm::Expected<std::unique_ptr<Window>> create(const Options &options);
  ~Window();

  bool shouldClose() const;
  /// Blocks until an event arrives or `timeoutSeconds` pass (negative:
  /// forever). Returns true if an event (input, resize, wake) arrived.
  bool waitEvents(double timeoutSeconds);
  /// Handles pending events without blocking; true if there were any.
  bool pollEvents();
  /// Wakes a thread blocked in waitEvents (safe from any thread).
  static void wake();
  /// Runs `release` before the OpenGL context goes (GPU objects made with
  /// it must be deleted while it is current).
  static void atContextEnd(std::function<void()> release);

  /// `adjustInput` runs after the backend has read input and before ImGui
  /// consumes it: benchmarks use it to scroll without a person.
  void beginFrame(const std::function<void(ImGuiIO &)> &adjustInput = {});
  /// ImGui::Render(), then submitFrame().
  void endFrame();
  /// Draws the rendered ImGui data with OpenGL and swaps.
  void submitFrame();
  /// The monitor's content scale (2 on a HiDPI screen set to 200%).
  float contentScale() const;
  /// Rebuilds the font at `scale` times its size and scales the style's
  /// paddings and spacings; call between frames. Crisp at any scale: the
  /// font is rasterised again, not stretched.
  void setUiScale(float scale);
  float uiScale() const { return scale; }
  /// ImGui's light or dark style for the widgets, and the colour behind
  /// the panes; the style keeps the UI scale.
  void setColours(bool light, float clearRed, float clearGreen,
                  float clearBlue);
  /// The window's size in screen coordinates.
  ImVec2 size() const;

  /// Turns vsync off so that frame times measure work, not the display.
  void disableVsync();
  /// Reads the frame just rendered (call between render and swap, i.e.
  /// inside endFrame's hook) and writes it as PNG.
  llvm::Error saveScreenshot(const std::string &path);
  /// Files dropped on the window since the last call.
  std::vector<std::string> takeDroppedFiles();
  double now() const;

  /// Set by endFrame when a screenshot was requested before it.
  void requestScreenshot(std::string path) { screenshotPath = std::move(path); }
  llvm::Error takeScreenshotError();

private:
  Window() = default;
  GLFWwindow *window = nullptr;
  float scale = 0; // the UI scale the font was built for
  bool lightStyle = false;
  float clearColour[3] = {0.09f, 0.09f, 0.10f};
  void applyStyle();
  std::string iniPath;
  std::string screenshotPath;
  llvm::Error screenshotError = llvm::Error::success();
};

} // namespace klx::app

#endif // KLX_APP_RENDER_WINDOW_H
