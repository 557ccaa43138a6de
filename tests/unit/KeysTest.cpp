//===- KeysTest.cpp - Help > Keys lists what the menus promise ------------===//

#include "core/Keys.h"

#include <catch2/catch.hpp>

#include <string>

using namespace klx::app;

TEST_CASE("Help > Keys: every shortcut a menu shows is listed", "[app][keys]") {
  // The shortcut labels of the File, View and Help menus (Gui.cpp) and
  // the keys the window handles (handleShortcuts, the Passes pane, the
  // find bar).
  std::string listed;
  for (const KeyHelp &key : keyHelp())
    listed += std::string(key.keys) + " | ";
  for (const char *shortcut :
       {"Ctrl+O", "Ctrl+S", "Ctrl+Enter", "Alt+1", "Alt+2", "Alt+3", "Alt+0",
        "Ctrl+=", "Ctrl+-", "Ctrl+0", "Alt+L", "F1", "F10", "Shift+F10",
        "Ctrl+F", "Ctrl+G", "Escape", "Down", "Up"}) {
    INFO(shortcut);
    CHECK(listed.find(shortcut) != std::string::npos);
  }
  for (const KeyHelp &key : keyHelp()) {
    CHECK(std::string(key.what).size() > 3);
    CHECK(std::string(key.where).size() > 3);
  }
}
