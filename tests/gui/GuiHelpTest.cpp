//===- GuiHelpTest.cpp - Help a first-time user finds ---------------------===//
//
// Help > Keys, opened with F1 as a person would, and closed again.
//
//===----------------------------------------------------------------------===//

#include "GuiTestSupport.h"

#include <algorithm>

using namespace klx::guitest;

TEST_CASE("GUI: F1 lists every shortcut, and Escape closes the list",
          "[gui][help]") {
  requireTools({"xdotool", "xvfb-run"});
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-keys", dir));
  auto press = [](const char *key) {
    return llvm::formatv("xdotool keydown {0}; sleep 0.15; xdotool keyup "
                         "{0}; sleep 0.5",
                         key)
        .str();
  };
  // A click in the IR pane first: the keys go to the window.
  std::string click = "xdotool mousemove 900 300 click 1; sleep 0.3\n";
  Image open =
      typedIntoWindow(std::string(dir), "keys-open.png", click + press("F1"));
  CHECK(std::count(open.dialogs.begin(), open.dialogs.end(), "Keys") == 1);
  Image closed = typedIntoWindow(std::string(dir), "keys-closed.png",
                                 click + press("F1") + "\n" + press("Escape"));
  CHECK(closed.dialogs.empty());
  // The list is drawn over the panes, in the middle of the window.
  Rect middle{open.width / 3, open.height / 3, 2 * open.width / 3,
              2 * open.height / 3};
  size_t differing = countDiffering(open, closed, middle);
  INFO("pixels the list changed in the middle third: " << differing);
  CHECK(differing > 20000);
  llvm::sys::fs::remove_directories(dir);
}
