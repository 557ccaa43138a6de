//===- MenuBar.cpp - The menu bar, the status bar and the shortcuts -------===//

#include "MenuBar.h"

#include "views/RoleView.h"
#include "widgets/Palette.h"

#include "klx/Support/Target.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <chrono>

using namespace klx;
using namespace klx::app;
using namespace klx::gui;

namespace {

/// What the theme item and Alt+L do: the other theme.
cmd::SetTheme otherTheme(const AppState &state) {
  return {state.view.theme == ThemeName::Light ? "dark" : "light"};
}

void drawLayoutItems(const AppState &state, CommandQueue &commands) {
  static const std::pair<LayoutName, const char *> layouts[] = {
      {LayoutName::Explore, "Alt+1"},
      {LayoutName::Diff, "Alt+2"},
      {LayoutName::Teach, "Alt+3"}};
  for (const auto &[layout, key] : layouts) {
    std::string label = "Layout: " + layoutNameText(layout).str();
    label[8] = char(std::toupper(label[8]));
    if (ImGui::MenuItem(label.c_str(), key, state.view.layout == layout))
      commands.push(cmd::SetLayout{layoutNameText(layout).str()});
  }
  if (ImGui::MenuItem("Reset layout"))
    commands.push(cmd::ResetLayout{});
  if (!state.view.enlargedWindow.empty()) {
    if (ImGui::MenuItem("Every pane back", "Alt+0"))
      commands.push(cmd::EnlargeWindow{""});
  } else {
    ImGui::TextDisabled("Enlarge a pane: double-click its title (Alt+0)");
  }
  ImGui::Separator();
  int zoom = state.view.zoomPercent;
  if (ImGui::MenuItem("Zoom in", "Ctrl+=", false, zoom < kMaxZoomPercent))
    commands.push(cmd::SetZoom{nextZoomPercent(zoom, +1)});
  if (ImGui::MenuItem("Zoom out", "Ctrl+-", false, zoom > kMinZoomPercent))
    commands.push(cmd::SetZoom{nextZoomPercent(zoom, -1)});
  std::string actual = llvm::formatv("Actual size ({0}%)", zoom).str();
  if (ImGui::MenuItem(actual.c_str(), "Ctrl+0", false, zoom != 100))
    commands.push(cmd::SetZoom{100});
  ImGui::Separator();
  if (ImGui::MenuItem("Light theme (projectors)", "Alt+L",
                      state.view.theme == ThemeName::Light))
    commands.push(otherTheme(state));
}

// GLFW's key codes, which ImGui 1.86 indexes its key state by.
constexpr int kKeyS = 83, kKeyL = 76, kKeyO = 79, kKey0 = 48, kKey1 = 49,
              kKeyEqual = 61, kKeyMinus = 45, kKeyF1 = 290, kKeyF10 = 299,
              kKeypad0 = 320, kKeypadSubtract = 333, kKeypadAdd = 334,
              kKeyRight = 262, kKeyLeft = 263;

} // namespace

/// Draws the menu bar and returns its rectangle.
PaneRect klx::gui::drawMenu(const AppState &state, CommandQueue &commands,
                            Dialogs &dialogs) {
  if (!ImGui::BeginMainMenuBar())
    return {"menu_bar", ImVec2(0, 0), ImVec2(0, 0), {}};
  PaneRect rect{"menu_bar", ImGui::GetWindowPos(), ImGui::GetWindowSize(), {}};
  if (ImGui::BeginMenu("File")) {
    dialogs.open.menuItems(state, commands);
    ImGui::Separator();
    if (ImGui::MenuItem("Save", "Ctrl+S", false, state.source.modified()))
      commands.push(cmd::SaveSource{});
    if (ImGui::MenuItem("Revert to file", nullptr, false,
                        state.source.modified()))
      commands.push(cmd::RevertSource{});
    if (ImGui::MenuItem("Compile now", "Ctrl+Enter"))
      commands.push(cmd::Recompile{});
    ImGui::Separator();
    dialogs.saveAs.menuItems(state);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Hide passes that changed nothing", nullptr,
                        state.view.hideUnchanged))
      commands.push(cmd::SetHideUnchanged{!state.view.hideUnchanged});
    if (ImGui::MenuItem("Diff against the previous step", nullptr,
                        state.view.showDiff))
      commands.push(cmd::SetShowDiff{!state.view.showDiff});
    ImGui::Separator();
    drawLayoutItems(state, commands);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keys", "F1", state.view.keysShown))
      commands.push(cmd::ShowKeys{!state.view.keysShown});
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
  return rect;
}

PaneRect klx::gui::drawStatusBar(const AppState &state, ImVec2 pos,
                                 ImVec2 size) {
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
    // Compiled, but its barriers break: said where it is seen.
    if (std::string broken = run.succeeded() ? firstRoleError(run) : "";
        !broken.empty()) {
      ImGui::SameLine(0, 0);
      ImGui::TextColored(palette::toVec4(palette::theme().errorText),
                         ", but the role checks fail: %s", broken.c_str());
    }
  }
  if (!state.message.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(state.messageIsError
                           ? palette::toVec4(palette::theme().errorText)
                           : palette::toVec4(palette::theme().dimText),
                       "  |  %s", state.message.c_str());
  }
  ImGui::End();
  return {"status_bar", pos, size, {}};
}

/// `focusedWindow`: the pane window that had the keyboard last frame
/// (PaneArranger), which Alt+0 enlarges.
void klx::gui::handleShortcuts(const AppState &state, int wheelZoom,
                               const std::string &focusedWindow,
                               Dialogs &dialogs, CommandQueue &commands) {
  ImGuiIO &io = ImGui::GetIO();
  if (io.KeyCtrl && ImGui::IsKeyPressed(kKeyO, /*repeat=*/false))
    dialogs.open.request();
  if (ImGui::IsKeyPressed(kKeyF10)) {
    if (io.KeyShift)
      commands.push(cmd::StepBack{});
    else
      commands.push(cmd::StepForward{});
  }
  if (io.KeyCtrl && ImGui::IsKeyPressed(kKeyS))
    commands.push(cmd::SaveSource{});
  if (ImGui::IsKeyPressed(kKeyF1, /*repeat=*/false))
    commands.push(cmd::ShowKeys{!state.view.keysShown});
  int zoom = state.view.zoomPercent;
  if (io.KeyCtrl &&
      (ImGui::IsKeyPressed(kKeyEqual) || ImGui::IsKeyPressed(kKeypadAdd)))
    wheelZoom += 1;
  if (io.KeyCtrl &&
      (ImGui::IsKeyPressed(kKeyMinus) || ImGui::IsKeyPressed(kKeypadSubtract)))
    wheelZoom -= 1;
  if (wheelZoom != 0)
    commands.push(cmd::SetZoom{nextZoomPercent(zoom, wheelZoom > 0 ? 1 : -1)});
  if (io.KeyCtrl &&
      (ImGui::IsKeyPressed(kKey0) || ImGui::IsKeyPressed(kKeypad0)))
    commands.push(cmd::SetZoom{100});
  // Alt+0: the pane with the keyboard fills the window, or every pane is
  // put back; held, it does not toggle.
  if (io.KeyAlt && !io.KeyCtrl && ImGui::IsKeyPressed(kKey0, /*repeat=*/false))
    commands.push(cmd::EnlargeWindow{
        state.view.enlargedWindow.empty() ? focusedWindow : ""});
  for (int i = 0; i < 3; ++i)
    if (io.KeyAlt && !io.KeyCtrl && ImGui::IsKeyPressed(kKey1 + i))
      commands.push(cmd::SetLayout{layoutNameText(LayoutName(i)).str()});
  if (io.KeyAlt && !io.KeyCtrl && ImGui::IsKeyPressed(kKeyL))
    commands.push(otherTheme(state));
  // The lesson's steps, in order: a class walks them with one key.
  if (io.KeyAlt && !io.KeyCtrl && ImGui::IsKeyPressed(kKeyRight))
    commands.push(cmd::LessonStepBy{+1});
  if (io.KeyAlt && !io.KeyCtrl && ImGui::IsKeyPressed(kKeyLeft))
    commands.push(cmd::LessonStepBy{-1});
}
