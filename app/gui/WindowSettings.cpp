//===- WindowSettings.cpp - What the window remembers between starts ------===//

#include "WindowSettings.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cstdio>
#include <cstring>

using namespace klx::gui;

namespace {

void *openSection(ImGuiContext *, ImGuiSettingsHandler *handler,
                  const char *name) {
  return std::strcmp(name, "window") == 0 ? handler->UserData : nullptr;
}

void readLine(ImGuiContext *, ImGuiSettingsHandler *, void *entry,
              const char *line) {
  auto &settings = *static_cast<WindowSettings *>(entry);
  int value = 0;
  char text[32] = {};
  if (std::sscanf(line, "arranged=%d", &value) == 1)
    settings.userArranged = value != 0;
  else if (std::sscanf(line, "zoom=%d", &value) == 1)
    settings.zoomPercent = value;
  else if (std::sscanf(line, "layout=%31s", text) == 1)
    settings.layout = text;
  else if (std::sscanf(line, "theme=%31s", text) == 1)
    settings.theme = text;
  else if (std::strncmp(line, "recent=", 7) == 0 && line[7])
    settings.recent.push_back(line + 7); // a path may hold spaces
}

void writeAll(ImGuiContext *, ImGuiSettingsHandler *handler,
              ImGuiTextBuffer *out) {
  const auto &settings = *static_cast<WindowSettings *>(handler->UserData);
  out->appendf("[klx][window]\narranged=%d\nlayout=%s\nzoom=%d\ntheme=%s\n",
               settings.userArranged ? 1 : 0,
               settings.layout.empty() ? "explore" : settings.layout.c_str(),
               settings.zoomPercent > 0 ? settings.zoomPercent : 100,
               settings.theme.empty() ? "dark" : settings.theme.c_str());
  for (const std::string &path : settings.recent)
    out->appendf("recent=%s\n", path.c_str());
  out->appendf("\n");
}

} // namespace

void klx::gui::loadWindowSettings(const std::string &iniPath,
                                  WindowSettings &settings) {
  ImGuiSettingsHandler handler;
  handler.TypeName = "klx";
  handler.TypeHash = ImHashStr("klx");
  handler.ReadOpenFn = openSection;
  handler.ReadLineFn = readLine;
  handler.WriteAllFn = writeAll;
  handler.UserData = &settings;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(handler);
  if (!iniPath.empty())
    ImGui::LoadIniSettingsFromDisk(iniPath.c_str());
}

void klx::gui::windowSettingsChanged() { ImGui::MarkIniSettingsDirty(); }

double klx::gui::secondsUntilSettingsSave() {
  ImGuiContext &context = *ImGui::GetCurrentContext();
  if (!context.IO.IniFilename || context.SettingsDirtyTimer <= 0)
    return -1;
  return context.SettingsDirtyTimer;
}
