//===- Gui.cpp - The klx window: panels, menu, status bar, frame loop -----===//
//
// Index:
//   [SECTION] Settings
//   [SECTION] Frame loop (idle frames are not drawn)
// The menu bar, the status bar and the shortcuts are MenuBar.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Gui.h"
#include "GuiArguments.h"
#include "MenuBar.h"
#include "ScriptedRun.h"
#include "WindowSettings.h"

#include "core/AppController.h"
#include "core/Background.h"
#include "panels/PaneArranger.h"
#include "render/Window.h"
#include "widgets/KeysWindow.h"
#include "widgets/Palette.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

#include <imgui.h>

#include <cctype>
#include <cstdlib>

using namespace klx;
using namespace klx::app;
using namespace klx::gui;

namespace {

// [SECTION] Settings ---------------------------------------------------------

std::string configFile(llvm::StringRef name) {
  llvm::SmallString<256> dir;
  if (const char *xdg = std::getenv("XDG_CONFIG_HOME"))
    dir = xdg;
  else if (const char *home = std::getenv("HOME"))
    llvm::sys::path::append(dir, home, ".config");
  else
    return "";
  llvm::sys::path::append(dir, "klx");
  if (llvm::sys::fs::create_directories(dir))
    return "";
  llvm::sys::path::append(dir, name);
  return std::string(dir);
}

// [SECTION] Frame loop (idle frames are not drawn) ----------------------------

/// A first start: no FILE, and no window settings saved (no imgui.ini).
bool isFirstStart(const GuiArguments &args) {
  std::string ini = configFile("imgui.ini");
  return args.file.empty() && !ini.empty() && !llvm::sys::fs::exists(ini);
}

/// On a first start: the first lesson in the Guide, large beside the
/// sample it opens (Teach, at 100%: a laptop's screen, not a projector),
/// and a line on where to click first.
void applyFirstStart(AppController &controller, double now) {
  controller.apply(cmd::SetLayout{"teach"}, now);
  controller.apply(cmd::SetZoom{100}, now);
  controller.apply(cmd::OpenLesson{"", 0}, now);
  controller.apply(cmd::ShowPanel{app::Pane::Lesson}, now);
  controller.apply(
      cmd::ShowMessage{"New here? Alt+Right walks the lesson on the left, "
                       "step by step; File > Open for your kernel; F1: keys"},
      now);
}

/// The sample a first start opens: the first lesson's, else saxpy.
std::string firstStartSample(const AppController &controller,
                             const ControllerOptions &options) {
  const std::vector<LessonEntry> &lessons = controller.state().lesson.lessons;
  llvm::SmallString<256> path(options.samplesDir);
  llvm::sys::path::remove_filename(path); // the lessons name it from the root
  if (!lessons.empty() && !lessons.front().sample.empty())
    llvm::sys::path::append(path, lessons.front().sample);
  else
    llvm::sys::path::append(path, "samples/nvidia/saxpy.mlir");
  return std::string(path);
}

/// The layout and zoom at start: the command line's, else as the window
/// was left, else Explore at 100%.
void applyStartView(const GuiArguments &args, const WindowSettings &settings,
                    AppController &controller, double now) {
  std::string layout = !args.layout.empty()       ? args.layout
                       : !settings.layout.empty() ? settings.layout
                                                  : "explore";
  controller.apply(cmd::SetLayout{layout}, now);
  // A layout named on the command line brings its own zoom (Teach's is
  // large) unless --zoom says otherwise.
  int zoom = args.zoomPercent > 0 ? args.zoomPercent
             : args.layout.empty() && settings.zoomPercent > 0
                 ? settings.zoomPercent
                 : 0;
  if (zoom > 0)
    controller.apply(cmd::SetZoom{zoom}, now);
  std::string theme = !args.theme.empty() ? args.theme : settings.theme;
  if (!theme.empty())
    controller.apply(cmd::SetTheme{theme}, now);
}

/// Applies the command line to a new controller: target, views, -D values,
/// the file and a variant to compare. False when the file cannot open.
bool applyArguments(const GuiArguments &args, const ControllerOptions &options,
                    AppController &controller, double now) {
  std::string file = !args.file.empty() ? args.file
                     : args.firstStart  ? firstStartSample(controller, options)
                                        : options.samplesDir +
                                              "/nvidia/gemm_ws_persistent.mlir";
  if (!args.target.empty())
    controller.apply(cmd::SetTarget{args.target}, now);
  controller.apply(cmd::ShowTimelineOf{args.timelineAt}, now);
  controller.apply(cmd::ShowCounterexample{args.counterexample}, now);
  if (args.diff)
    controller.apply(cmd::SetShowDiff{true}, now);
  if (args.show)
    controller.apply(cmd::ShowPanel{*args.show}, now);
  if (!args.defines.empty())
    controller.apply(cmd::SetDefines{llvm::join(args.defines, ", ")}, now);
  controller.apply(cmd::OpenFile{file}, now);
  if (!args.compare.empty()) {
    controller.apply(cmd::SetCompare{args.compare}, now);
    controller.apply(cmd::ShowPanel{app::Pane::Compare}, now);
  }
  if (!args.sweep.empty())
    controller.apply(cmd::OpenSweepResults{args.sweep}, now);
  if (!args.trace.empty())
    controller.apply(cmd::OpenTrace{args.trace, args.measuredCta}, now);
  if (args.firstStart)
    applyFirstStart(controller, now);
  return !controller.state().source.path.empty();
}

ControllerOptions controllerOptions(const GuiArguments &args,
                                    const WindowSettings &settings,
                                    bool screenshotMode) {
  ControllerOptions options;
  options.samplesDir = defaultSamplesDir();
  options.lessonsDir = defaultLessonsDir();
  options.compileLimitSeconds = args.timeout;
  options.maxSnapshotBytes = size_t(args.snapshotLimitMB * (1 << 20));
  options.ptxasPath = args.ptxas;
  options.nvdisasmPath = args.nvdisasm;
  // A first start shows the lesson's first step: the file as written.
  options.initialStep =
      args.pass.empty() && args.firstStart ? std::string("parse") : args.pass;
  options.initialRole = args.role;
  options.recentFiles = settings.recent;
  // Screenshots show the file as it is on disk.
  options.autosave = !screenshotMode;
  return options;
}

/// Keeps what the ini file says of the window in step with the state;
/// ImGui writes the file when something changed.
void rememberWindow(const AppState &state, const PaneArranger &arranger,
                    WindowSettings &settings) {
  std::string layout = layoutNameText(state.view.layout).str();
  if (settings.userArranged == arranger.userArranged &&
      settings.layout == layout &&
      settings.zoomPercent == state.view.zoomPercent &&
      settings.theme == themeNameText(state.view.theme) &&
      settings.recent == state.recentFiles)
    return;
  settings.userArranged = arranger.userArranged;
  settings.layout = layout;
  settings.zoomPercent = state.view.zoomPercent;
  settings.theme = themeNameText(state.view.theme).str();
  settings.recent = state.recentFiles;
  windowSettingsChanged();
}

/// Draws one frame: menu, panes, status bar; returns where they are.
ScreenLayout drawFrame(const AppState &state, int wheelZoom,
                       std::vector<std::unique_ptr<Panel>> &panels,
                       PaneArranger &arranger, Dialogs &dialogs,
                       CommandQueue &commands) {
  handleShortcuts(state, wheelZoom, arranger.focusedWindow, dialogs, commands);
  ScreenLayout screen;
  screen.menuBar = drawMenu(state, commands, dialogs);
  dialogs.saveAs.draw(commands);
  if (dialogs.open.draw(state, commands))
    screen.dialogs.push_back("Open");
  ImGuiViewport *viewport = ImGui::GetMainViewport();
  float statusHeight = ImGui::GetFrameHeightWithSpacing() + 4;
  // Below the menu bar as drawn this frame: ImGui's work area lags a
  // frame behind it (the first frame would put the panes over the menu).
  float top = screen.menuBar.pos.y + screen.menuBar.size.y;
  ImVec2 workPos(viewport->Pos.x, std::max(viewport->Pos.y, top));
  ImVec2 workSize(viewport->Size.x, viewport->Pos.y + viewport->Size.y -
                                        workPos.y - statusHeight);
  drawPanels(panels, state, commands, workPos, workSize, arranger);
  if (drawKeysWindow(state, commands))
    screen.dialogs.push_back("Keys");
  screen.statusBar =
      drawStatusBar(state, ImVec2(workPos.x, workPos.y + workSize.y),
                    ImVec2(workSize.x, statusHeight));
  screen.windowSize = viewport->Size;
  screen.panes = arranger.drawn;
  screen.texts = textInViewThisFrame();
  screen.fontSize = ImGui::GetFontSize();
  screen.zoomPercent = state.view.zoomPercent;
  screen.layout = layoutNameText(state.view.layout).str();
  screen.theme = themeNameText(state.view.theme).str();
  screen.source = state.source.path;
  if (state.run && state.view.selected >= 0 &&
      state.view.selected < int(state.run->snapshots.size()))
    screen.step = state.run->snapshots[state.view.selected].displayName();
  return screen;
}

/// Frames still to draw after the last event: ImGui settles hover and
/// layout over a couple of frames.
constexpr int kFramesAfterEvent = 3;
/// How often a window with --screenshot draws while nothing happens.
constexpr double kScriptedFrameSeconds = 1.0 / 60;

/// How long an idle window may sleep (-1: until input): until the typing
/// pause ends, the caret blinks, a compile's seconds tick, the script
/// checks its clock or ImGui saves its settings. `redraw`: a wake without
/// input still draws a frame (the caret, the seconds, the save).
double idleTimeout(const AppController &controller, const ScriptedRun &script,
                   double now, bool &redraw) {
  double deadline = controller.secondsUntilDeadline(now);
  bool typing = ImGui::GetIO().WantTextInput; // the caret blinks
  double timeout = deadline >= 0 ? deadline : typing ? 0.5 : -1;
  // A compile in flight: the status bar's seconds tick once a second.
  bool compiling = controller.busy();
  if (compiling && (timeout < 0 || timeout > 1))
    timeout = 1;
  if (script.watchesClock() && timeout < 0)
    timeout = 0.25; // wake to check the clock
  double save = secondsUntilSettingsSave();
  if (save >= 0 && (timeout < 0 || timeout > save))
    timeout = save + 0.05;
  redraw = typing || compiling || save >= 0;
  return timeout;
}

/// Waits for what the next frame needs; true when something happened.
/// While frames are owed, it only polls; a scripted window draws at a
/// display's pace; an idle one sleeps until input, a finished compile or
/// the typing pause.
bool waitForEvent(Window &window, const AppController &controller,
                  const ScriptedRun &script, int framesLeft,
                  uint64_t landedSeen, double now) {
  if (framesLeft > 0)
    return window.pollEvents();
  // Frames drawn back to back by a software renderer took the cores from
  // the compile a scripted window waits for.
  if (script.drawsEveryFrame())
    return window.waitEvents(kScriptedFrameSeconds);
  bool redraw = false;
  double timeout = idleTimeout(controller, script, now, redraw);
  // Work off the GUI thread: look again soon, since its wake may come
  // between this frame and the sleep, where it would be lost.
  if (background::pending() > 0 || background::landed() != landedSeen)
    timeout = timeout < 0 ? 0.05 : std::min(timeout, 0.05);
  return window.waitEvents(timeout) || redraw;
}

/// Draws a frame at the state's zoom and theme: the font is rasterised
/// again when the zoom or the monitor changes; Ctrl+wheel zooms the
/// window instead of scrolling a pane.
ScreenLayout drawWindowFrame(Window &window, const AppState &state,
                             std::vector<std::unique_ptr<Panel>> &panels,
                             PaneArranger &arranger, Dialogs &dialogs,
                             CommandQueue &commands) {
  window.setUiScale(window.contentScale() * state.view.zoomPercent / 100.0f);
  palette::useTheme(state.view.theme);
  ImVec4 clear = palette::toVec4(palette::theme().clear);
  window.setColours(state.view.theme == ThemeName::Light, clear.x, clear.y,
                    clear.z);
  int wheelZoom = 0;
  window.beginFrame([&](ImGuiIO &io) {
    if (io.KeyCtrl && io.MouseWheel != 0) {
      wheelZoom = io.MouseWheel > 0 ? 1 : -1;
      io.MouseWheel = 0;
    }
  });
  return drawFrame(state, wheelZoom, panels, arranger, dialogs, commands);
}

/// The window from start to close; the AppController and its compile
/// threads are gone when it returns.
int runWindow(int argc, char **argv) {
  std::optional<GuiArguments> args = parseGuiArguments(argc, argv);
  if (!args)
    return 2;
  args->firstStart = isFirstStart(*args);
  bool screenshotMode = !args->screenshot.empty();
  // Outlives the window: ImGui writes the ini, this section included, as
  // the window closes.
  WindowSettings settings;
  Window::Options windowOptions;
  if (!screenshotMode)
    windowOptions.iniPath = configFile("imgui.ini");
  auto window = Window::create(windowOptions);
  if (!window) {
    llvm::errs() << "klx: " << llvm::toString(window.takeError()) << "\n";
    return 2;
  }
  loadWindowSettings(windowOptions.iniPath, settings);

  // A screenshot shows the state, not wherever the pointer happens to be;
  // unless a script drives the window before it (--screenshot-when).
  if (screenshotMode && args->screenshotWhen.empty())
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;

  ControllerOptions options =
      controllerOptions(*args, settings, screenshotMode);
  AppController controller(options, [] { Window::wake(); });
  // A diff or a comparison computed off the GUI thread wakes it too; no
  // more once the window is gone (a job may outlive it).
  background::setWake([] { Window::wake(); });
  struct ForgetWake {
    ~ForgetWake() { background::setWake({}); }
  } forgetWake;
  uint64_t landedSeen = background::landed();
  applyStartView(*args, settings, controller, (*window)->now());
  if (!applyArguments(*args, options, controller, (*window)->now())) {
    llvm::errs() << "klx: " << controller.state().message << "\n";
    return 2;
  }
  // Said on the terminal too: the window was killed with edits unsaved.
  if (controller.state().source.restoredFromAutosave)
    llvm::outs() << "klx: " << controller.state().message << "\n";

  std::vector<std::unique_ptr<Panel>> panels = createPanels();
  PaneArranger arranger;
  Dialogs dialogs; // File > Open, File > Save ... as
  arranger.layoutGeneration = controller.state().view.layoutGeneration;
  arranger.userArranged = settings.userArranged && args->layout.empty();
  ScriptedRun script(*args, (*window)->now());
  CommandQueue commands;
  int framesLeft = kFramesAfterEvent;
  while (!(*window)->shouldClose()) {
    bool event = waitForEvent(**window, controller, script, framesLeft,
                              landedSeen, (*window)->now());
    double now = (*window)->now();
    for (std::string &path : (*window)->takeDroppedFiles())
      commands.push(openCommandFor(std::move(path)));
    bool changed = controller.tick(now);
    // A result that landed while the last frames were drawn (its wake may
    // have come before the sleep began) is drawn now.
    if (background::landed() != landedSeen) {
      landedSeen = background::landed();
      changed = true;
    }
    script.pushInput(controller, commands);
    if (event || changed || !commands.empty())
      framesLeft = kFramesAfterEvent;
    if (std::optional<int> code = script.idleExit(controller, now))
      return *code;
    if (framesLeft <= 0 && !script.drawsEveryFrame())
      continue;
    --framesLeft;
    script.frameDrawn(now);

    const AppState &state = controller.state();
    beginTextInViewFrame(script.drawsEveryFrame());
    ScreenLayout screen =
        drawWindowFrame(**window, state, panels, arranger, dialogs, commands);
    rememberWindow(state, arranger, settings);
    script.beforeFrameEnd(controller, **window, screen);
    (*window)->endFrame();
    controller.applyAll(commands, (*window)->now());
    if (std::optional<int> code = script.afterFrameEnd(**window, now))
      return *code;
  }
  return 0;
}

} // namespace

int klx::gui::run(int argc, char **argv) {
  int code = runWindow(argc, argv);
  // A compile left behind at its limit still runs inside LLVM, whose
  // global state exit() would destroy under it.
  if (CompileWorker::leftBehind()) {
    llvm::outs().flush();
    llvm::errs().flush();
    std::_Exit(code);
  }
  return code;
}
