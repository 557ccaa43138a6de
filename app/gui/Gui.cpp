//===- Gui.cpp - The klx window: panels, menu, status bar, frame loop -----===//
//
// Index:
//   [SECTION] Arguments
//   [SECTION] Menu, status bar and shortcuts
//   [SECTION] Frame loop (idle frames are not drawn)
//
//===----------------------------------------------------------------------===//

#include "Gui.h"

#include "core/AppController.h"
#include "panels/Panel.h"
#include "render/Window.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

#include <imgui.h>

#include <cstdlib>

using namespace klx;
using namespace klx::app;

namespace {

// [SECTION] Arguments -------------------------------------------------------

struct GuiArguments {
  std::string file;
  std::string pass;
  std::string role;
  /// The step whose protocol model the Barrier timeline pane draws.
  std::string timelineAt;
  bool counterexample = false;
  /// A pane to bring forward at start (the tab of a group).
  std::string show;
  /// Once the first compile is done, the Source pane's text is replaced
  /// by this file's, as a paste would (tests feed bad input this way).
  std::string paste;
  /// -D values to compile with, and a variant to compare with.
  std::vector<std::string> defines;
  std::string compare;
  std::string screenshot;
  int frames = 3;
  std::string target;
  /// Run on the GPU once the first compile is done ("MxNxK", or "default"),
  /// recording a measured timeline with --run-timeline.
  std::string run;
  bool runTimeline = false;
  /// Diagnostics: exit after this many seconds without input once the
  /// first compile is done, printing how many frames were drawn.
  double exitAfterIdle = 0;
  /// Seconds a compile may take before it is reported stopped.
  double timeout = kDefaultCompileSeconds;
  std::string ptxas, nvdisasm;
  /// MB of IR text a compile keeps over its steps.
  double snapshotLimitMB = double(CompileOptions().maxSnapshotBytes >> 20);
};

std::optional<GuiArguments> parseGuiArguments(int argc, char **argv) {
  GuiArguments args;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("--pass="))
      args.pass = arg.str();
    else if (arg.consume_front("--role="))
      args.role = arg.str();
    else if (arg.consume_front("--timeline-at="))
      args.timelineAt = arg.str();
    else if (arg == "--counterexample")
      args.counterexample = true;
    else if (arg.consume_front("--show="))
      args.show = arg.str();
    else if (arg.consume_front("--paste="))
      args.paste = arg.str();
    else if (arg.consume_front("--compare="))
      args.compare = arg.str();
    else if (arg == "-D" && i + 1 < argc)
      args.defines.push_back(argv[++i]);
    else if (arg.consume_front("-D") && !arg.empty())
      args.defines.push_back(arg.str());
    else if (arg.consume_front("--screenshot="))
      args.screenshot = arg.str();
    else if (arg.consume_front("--frames=")) {
      if (arg.getAsInteger(10, args.frames) || args.frames < 1) {
        llvm::errs() << "klx: --frames expects a positive number\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--exit-after-idle=")) {
      if (arg.getAsDouble(args.exitAfterIdle) || args.exitAfterIdle <= 0) {
        llvm::errs() << "klx: --exit-after-idle expects seconds\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--timeout=")) {
      if (arg.getAsDouble(args.timeout) || args.timeout <= 0) {
        llvm::errs() << "klx: --timeout expects seconds\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--snapshot-limit=")) {
      if (arg.getAsDouble(args.snapshotLimitMB) || args.snapshotLimitMB <= 0) {
        llvm::errs() << "klx: --snapshot-limit expects megabytes\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--ptxas="))
      args.ptxas = arg.str();
    else if (arg.consume_front("--nvdisasm="))
      args.nvdisasm = arg.str();
    else if (arg.consume_front("--target="))
      args.target = arg.str();
    else if (arg.consume_front("--run="))
      args.run = arg.str();
    else if (arg.consume_front("--run-timeline=")) {
      args.run = arg.str();
      args.runTimeline = true;
    } else if (arg.starts_with("-")) {
      llvm::errs() << "klx: unknown option '" << arg << "' (see `klx help`)\n";
      return std::nullopt;
    } else if (args.file.empty())
      args.file = arg.str();
    else {
      llvm::errs() << "klx: more than one FILE\n";
      return std::nullopt;
    }
  }
  if (!args.target.empty() && !parseTarget(args.target)) {
    llvm::errs() << "klx: unknown target '" << args.target << "'\n";
    return std::nullopt;
  }
  return args;
}

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

// [SECTION] Menu, status bar and shortcuts ------------------------------------

void drawMenu(const AppState &state, CommandQueue &commands) {
  if (!ImGui::BeginMainMenuBar())
    return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Save", "Ctrl+S", false, state.source.modified()))
      commands.push({Command::SaveSource});
    if (ImGui::MenuItem("Revert to file", nullptr, false,
                        state.source.modified()))
      commands.push({Command::RevertSource});
    if (ImGui::MenuItem("Compile now", "Ctrl+Enter"))
      commands.push({Command::Recompile});
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Hide passes that changed nothing", nullptr,
                        state.view.hideUnchanged))
      commands.push(
          {Command::SetHideUnchanged, "", 0, !state.view.hideUnchanged});
    if (ImGui::MenuItem("Diff against the previous step", nullptr,
                        state.view.showDiff))
      commands.push({Command::SetShowDiff, "", 0, !state.view.showDiff});
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout"))
      commands.push({Command::ResetLayout});
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void drawStatusBar(const AppState &state, ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  if (state.compiling) {
    double elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now().time_since_epoch())
                         .count() -
                     state.compileStartedAt;
    const char *name =
        state.compilingFile.empty()
            ? "untitled"
            : llvm::sys::path::filename(state.compilingFile).data();
    std::string where =
        state.compilingStep.empty()
            ? ""
            : llvm::formatv(": {0} ({1} of {2})", state.compilingStep,
                            state.compilingIndex + 1, state.compilingCount)
                  .str();
    if (elapsed > 2)
      ImGui::Text("compiling %s%s ... %.0f s", name, where.c_str(), elapsed);
    else
      ImGui::Text("compiling %s%s ...", name, where.c_str());
  } else if (state.run) {
    const PipelineRun &run = *state.run;
    ImGui::Text("%s: %zu step%s for %s in %.0f ms, %s",
                llvm::sys::path::filename(run.fileName).data(),
                run.snapshots.size(), run.snapshots.size() == 1 ? "" : "s",
                targetName(run.target).data(), state.lastCompileMs,
                run.succeeded()                       ? "ok"
                : run.status == RunStatus::InputError ? "the kernel has errors"
                : run.status == RunStatus::Stopped
                    ? "stopped: past the time limit"
                    : "an option is wrong or a tool is missing");
  }
  if (!state.message.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(state.messageIsError ? ImVec4(1, 0.45f, 0.4f, 1)
                                            : ImVec4(0.6f, 0.6f, 0.6f, 1),
                       "  |  %s", state.message.c_str());
  }
  ImGui::End();
}

void handleShortcuts(CommandQueue &commands) {
  ImGuiIO &io = ImGui::GetIO();
  constexpr int kF10 = 299; // GLFW_KEY_F10
  constexpr int kS = 83;    // GLFW_KEY_S
  if (ImGui::IsKeyPressed(kF10))
    commands.push({io.KeyShift ? Command::StepBack : Command::StepForward});
  if (io.KeyCtrl && ImGui::IsKeyPressed(kS))
    commands.push({Command::SaveSource});
}

// [SECTION] Frame loop (idle frames are not drawn) ----------------------------

/// Frames still to draw after the last event: ImGui settles hover and
/// layout over a couple of frames.
constexpr int kFramesAfterEvent = 3;

/// The window from start to close; the AppController and its compile
/// threads are gone when it returns.
int runWindow(int argc, char **argv) {
  std::optional<GuiArguments> args = parseGuiArguments(argc, argv);
  if (!args)
    return 2;
  bool screenshotMode = !args->screenshot.empty();
  Window::Options windowOptions;
  if (!screenshotMode)
    windowOptions.iniPath = configFile("imgui.ini");
  auto window = Window::create(windowOptions);
  if (!window) {
    llvm::errs() << "klx: " << llvm::toString(window.takeError()) << "\n";
    return 2;
  }

  // A screenshot shows the state, not wherever the pointer happens to be.
  if (screenshotMode)
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;

  ControllerOptions options;
  options.samplesDir = defaultSamplesDir();
  options.lessonsDir = defaultLessonsDir();
  options.compileLimitSeconds = args->timeout;
  options.maxSnapshotBytes = size_t(args->snapshotLimitMB * (1 << 20));
  options.ptxasPath = args->ptxas;
  options.nvdisasmPath = args->nvdisasm;
  options.initialStep = args->pass;
  options.initialRole = args->role;
  // Screenshots show the file as it is on disk.
  options.autosave = !screenshotMode;
  AppController controller(options, [] { Window::wake(); });
  CommandQueue commands;
  std::string file = args->file.empty() ? options.samplesDir +
                                              "/nvidia/gemm_ws_persistent.mlir"
                                        : args->file;
  if (!args->target.empty())
    controller.apply({Command::SetTarget, args->target}, (*window)->now());
  controller.apply({Command::ShowTimelineOf, args->timelineAt},
                   (*window)->now());
  controller.apply({Command::ShowCounterexample, "", 0, args->counterexample},
                   (*window)->now());
  if (!args->show.empty())
    controller.apply({Command::ShowPanel, args->show}, (*window)->now());
  if (!args->defines.empty())
    controller.apply({Command::SetDefines, llvm::join(args->defines, ", ")},
                     (*window)->now());
  controller.apply({Command::OpenFile, file}, (*window)->now());
  if (!args->compare.empty()) {
    controller.apply({Command::SetCompare, args->compare}, (*window)->now());
    controller.apply({Command::ShowPanel, "Compare"}, (*window)->now());
  }
  if (controller.state().source.path.empty()) {
    llvm::errs() << "klx: " << controller.state().message << "\n";
    return 2;
  }
  // Said on the terminal too: the window was killed with edits unsaved.
  if (controller.state().source.restoredFromAutosave)
    llvm::outs() << "klx: " << controller.state().message << "\n";

  std::vector<std::unique_ptr<Panel>> panels = createPanels();
  unsigned layoutGeneration = controller.state().view.layoutGeneration;
  unsigned raiseSeen = 0;
  int framesLeft = kFramesAfterEvent;
  int framesSinceReady = 0;
  // --exit-after-idle: frames drawn since the first compile finished.
  double idleSince = -1;
  unsigned idleFrames = 0;
  // Past its limit a compile is reported stopped; allow that and a GPU run.
  double screenshotWait = std::max(300.0, args->timeout + 60);
  double screenshotDeadline = (*window)->now() + screenshotWait;
  bool runRequested = false;
  bool pasted = false;
  unsigned drawn = 0, pastedAt = 0; // frames drawn; the frame of the paste
  while (!(*window)->shouldClose()) {
    double now = (*window)->now();
    bool event;
    if (framesLeft > 0 || screenshotMode) {
      event = (*window)->pollEvents();
    } else {
      // Idle: sleep until input, a finished compile, or the typing pause.
      double deadline = controller.secondsUntilDeadline(now);
      bool typing = ImGui::GetIO().WantTextInput; // the caret blinks
      double timeout = deadline >= 0 ? deadline : typing ? 0.5 : -1;
      // A compile in flight: the status bar's seconds tick once a second.
      bool compiling = controller.busy();
      if (compiling && (timeout < 0 || timeout > 1))
        timeout = 1;
      if (args->exitAfterIdle > 0 && timeout < 0)
        timeout = 0.25; // wake to check the clock
      event = (*window)->waitEvents(timeout);
      if (!event && (typing || compiling))
        event = true; // redraw the caret, or the compile's seconds
    }
    now = (*window)->now();
    for (std::string &path : (*window)->takeDroppedFiles())
      commands.push({Command::OpenFile, std::move(path)});
    bool changed = controller.tick(now);
    // --run: once the kernel compiled and the GPU probe has answered.
    if (!args->run.empty() && !runRequested && !controller.busy() &&
        controller.state().run &&
        controller.state().gpu.availability !=
            GpuStatus::Availability::Probing) {
      commands.push({Command::RunOnGpu,
                     args->run == "default" ? std::string() : args->run, 0,
                     args->runTimeline});
      runRequested = true;
    }
    // --paste: once the first compile is done.
    if (!args->paste.empty() && !pasted && !controller.busy() &&
        controller.state().run) {
      auto text = llvm::MemoryBuffer::getFile(args->paste);
      commands.push({Command::EditSource,
                     text ? (*text)->getBuffer().str() : std::string()});
      commands.push({Command::Recompile});
      pasted = true;
      pastedAt = drawn;
    }
    if (event || changed || !commands.empty())
      framesLeft = kFramesAfterEvent;
    if (args->exitAfterIdle > 0) {
      // Measure from one second after the compile, past the frames that
      // settle the layout.
      if (idleSince < 0 && !controller.busy() && controller.state().run)
        idleSince = now + 1.0;
      if (idleSince >= 0 && now - idleSince >= args->exitAfterIdle) {
        llvm::outs() << "klx: " << idleFrames << " frames drawn in "
                     << llvm::format("%.1f", now - idleSince)
                     << " s of idle (from 1 s after the compile finished)\n";
        return 0;
      }
    }
    if (framesLeft <= 0 && !screenshotMode)
      continue;
    --framesLeft;
    if (idleSince >= 0 && now >= idleSince)
      ++idleFrames;

    ++drawn;
    (*window)->beginFrame();
    const AppState &state = controller.state();
    handleShortcuts(commands);
    drawMenu(state, commands);
    ImGuiViewport *viewport = ImGui::GetMainViewport();
    float statusHeight = ImGui::GetFrameHeightWithSpacing() + 4;
    ImVec2 workPos = viewport->WorkPos;
    ImVec2 workSize(viewport->WorkSize.x, viewport->WorkSize.y - statusHeight);
    bool reset = state.view.layoutGeneration != layoutGeneration;
    layoutGeneration = state.view.layoutGeneration;
    drawPanels(panels, state, commands, workPos, workSize, reset, raiseSeen);
    drawStatusBar(state, ImVec2(workPos.x, workPos.y + workSize.y),
                  ImVec2(workSize.x, statusHeight));

    bool ready = screenshotMode && !controller.busy() && state.run &&
                 (args->paste.empty() || (pasted && drawn > pastedAt + 1)) &&
                 (args->run.empty() || (runRequested && !state.gpu.running &&
                                        !state.gpuRuns.empty()));
    if (ready && ++framesSinceReady == args->frames)
      (*window)->requestScreenshot(args->screenshot);
    (*window)->endFrame();
    controller.applyAll(commands, (*window)->now());

    if (ready && framesSinceReady == args->frames) {
      if (llvm::Error error = (*window)->takeScreenshotError()) {
        llvm::errs() << "klx: " << llvm::toString(std::move(error)) << "\n";
        return 2;
      }
      llvm::outs() << "klx: wrote " << args->screenshot << "\n";
      return 0;
    }
    if (screenshotMode && now > screenshotDeadline) {
      llvm::errs() << "klx: the window was not ready within "
                   << int(screenshotWait) << " s; no screenshot\n";
      return 2;
    }
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
