//===- ScriptedRun.cpp - What tests and benchmarks ask of the window ------===//

#include "ScriptedRun.h"

#include "core/Background.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace klx;
using namespace klx::app;
using namespace klx::gui;

ScriptedRun::ScriptedRun(const GuiArguments &args, double now)
    : args(args), screenshotWait(std::max(300.0, args.timeout + 60)),
      screenshotDeadline(now + screenshotWait) {}

void ScriptedRun::pushInput(const AppController &controller,
                            CommandQueue &commands) {
  const AppState &state = controller.state();
  bool compiled = !controller.busy() && state.run;
  // --run: once the kernel compiled and the GPU probe has answered.
  if (!args.run.empty() && !runRequested && compiled &&
      state.gpu.availability != GpuStatus::Availability::Probing) {
    commands.push(cmd::RunOnGpu{
        args.run == "default" ? std::string() : args.run, args.runTimeline});
    runRequested = true;
  }
  // --paste: once the first compile is done.
  if (!args.paste.empty() && !pasted && compiled) {
    auto text = llvm::MemoryBuffer::getFile(args.paste);
    commands.push(
        cmd::EditSource{text ? (*text)->getBuffer().str() : std::string()});
    commands.push(cmd::Recompile{});
    pasted = true;
    pastedAt = drawn;
  }
}

std::optional<int> ScriptedRun::idleExit(const AppController &controller,
                                         double now) {
  if (args.exitAfterIdle <= 0)
    return std::nullopt;
  // Measure from one second after the compile, past the frames that settle
  // the layout.
  if (idleSince < 0 && !controller.busy() && controller.state().run)
    idleSince = now + 1.0;
  if (idleSince < 0 || now - idleSince < args.exitAfterIdle)
    return std::nullopt;
  llvm::outs() << "klx: " << idleFrames << " frames drawn in "
               << llvm::format("%.1f", now - idleSince)
               << " s of idle (from 1 s after the compile finished)\n";
  return 0;
}

void ScriptedRun::frameDrawn(double now) {
  ++drawn;
  if (idleSince >= 0 && now >= idleSince)
    ++idleFrames;
}

bool ScriptedRun::readyToLook(const AppController &controller) const {
  const AppState &state = controller.state();
  // background::pending(): a diff or a comparison still being computed.
  return !controller.busy() && state.run && background::pending() == 0 &&
         (args.paste.empty() || (pasted && drawn > pastedAt + 1)) &&
         (args.run.empty() ||
          (runRequested && !state.gpu.running && !state.gpuRuns.empty()));
}

void ScriptedRun::beforeFrameEnd(const AppController &controller,
                                 Window &window, const ScreenLayout &layout) {
  // Frames drawn since the window shows what the script waits for.
  // Work started since (a diff asked for by this frame) starts the count
  // again: the screenshot shows its result, not "computing...".
  framesSinceReady = readyToLook(controller) ? framesSinceReady + 1 : 0;
  if (framesSinceReady < args.frames)
    return;
  if (!args.readyFile.empty() && !readyWritten) {
    std::error_code error;
    llvm::raw_fd_ostream touch(args.readyFile, error);
    if (error)
      llvm::errs() << "klx: cannot write " << args.readyFile << ": "
                   << error.message() << "\n";
    readyWritten = true;
  }
  if (!drawsEveryFrame() || screenshotRequested)
    return;
  std::string path = args.screenshot;
  if (!args.screenshotWhen.empty()) {
    if (!lookSeenAt && !llvm::sys::fs::exists(args.screenshotWhen))
      return;
    lookSeenAt = lookSeenAt ? lookSeenAt : drawn;
    // What the script typed before it created the file is in the window's
    // queue by now; the frames after this one read it and draw what it
    // did (or start work, which the readiness above then waits for).
    if (drawn < lookSeenAt + unsigned(args.frames))
      return;
    // A path in the file: one of several pictures, and the window goes on.
    if (auto text = llvm::MemoryBuffer::getFile(args.screenshotWhen)) {
      intermediateShot = llvm::StringRef((*text)->getBuffer()).trim().str();
      if (!intermediateShot.empty())
        path = intermediateShot;
    }
  }
  window.requestScreenshot(path);
  screenshotRequested = true;
  shotPath = path;
  std::string layoutPath = path;
  if (llvm::StringRef(layoutPath).ends_with(".png"))
    layoutPath.resize(layoutPath.size() - 4);
  layoutPath += ".layout.json";
  if (llvm::Error error = writeScreenLayout(layout, layoutPath))
    llvm::errs() << "klx: " << llvm::toString(std::move(error)) << "\n";
}

std::optional<int> ScriptedRun::afterFrameEnd(Window &window, double now) {
  if (!drawsEveryFrame())
    return std::nullopt;
  if (screenshotRequested) {
    if (llvm::Error error = window.takeScreenshotError()) {
      llvm::errs() << "klx: " << llvm::toString(std::move(error)) << "\n";
      return 2;
    }
    llvm::outs() << "klx: wrote " << shotPath << "\n";
    if (intermediateShot.empty())
      return 0;
    // The script waits for the file to go before it drives on.
    llvm::sys::fs::remove(args.screenshotWhen);
    intermediateShot.clear();
    screenshotRequested = false;
    lookSeenAt = 0;
    screenshotDeadline = now + screenshotWait;
  }
  if (now > screenshotDeadline) {
    llvm::errs() << "klx: the window was not ready within "
                 << int(screenshotWait) << " s; no screenshot\n";
    return 2;
  }
  return std::nullopt;
}

namespace {
llvm::json::Object rectJson(const PaneRect &rect) {
  return llvm::json::Object{{"x", rect.pos.x},
                            {"y", rect.pos.y},
                            {"w", rect.size.x},
                            {"h", rect.size.y}};
}
} // namespace

llvm::Error klx::gui::writeScreenLayout(const ScreenLayout &layout,
                                        const std::string &path) {
  llvm::json::Array panes;
  for (const PaneRect &pane : layout.panes) {
    llvm::json::Object object = rectJson(pane);
    object["name"] = pane.name;
    if (!pane.front.empty())
      object["front"] = pane.front;
    panes.push_back(std::move(object));
  }
  llvm::json::Array texts;
  for (const TextInView &text : layout.texts) {
    llvm::json::Array lines;
    for (const LineInView &line : text.lines)
      lines.push_back(
          llvm::json::Object{{"n", line.number}, {"text", line.text}});
    texts.push_back(llvm::json::Object{
        {"pane", text.pane}, {"view", text.view}, {"lines", std::move(lines)}});
  }
  llvm::json::Array dialogs;
  for (const std::string &dialog : layout.dialogs)
    dialogs.push_back(dialog);
  llvm::json::Object root{
      {"window", llvm::json::Object{{"w", layout.windowSize.x},
                                    {"h", layout.windowSize.y}}},
      {"menu_bar", rectJson(layout.menuBar)},
      {"status_bar", rectJson(layout.statusBar)},
      {"panes", std::move(panes)},
      {"font_size", layout.fontSize},
      {"zoom", layout.zoomPercent},
      {"layout", layout.layout},
      {"theme", layout.theme},
      {"source", layout.source},
      {"step", layout.step},
      {"dialogs", std::move(dialogs)},
      {"texts", std::move(texts)}};
  std::error_code error;
  llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return llvm::createStringError(error, "cannot write %s: %s", path.c_str(),
                                   error.message().c_str());
  out << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return llvm::Error::success();
}
