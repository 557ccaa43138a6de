//===- AppTestSupport.h - Helpers for tests of the window's state -*- C++ -*-//

#ifndef KLX_TESTS_UNIT_APPTESTSUPPORT_H
#define KLX_TESTS_UNIT_APPTESTSUPPORT_H

#include "TestSupport.h"

#include "core/AppController.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>

namespace klx::test {

/// A fresh folder for autosave files, removed afterwards.
struct TempFolder {
  llvm::SmallString<128> path;
  TempFolder() {
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-test", path));
  }
  ~TempFolder() { llvm::sys::fs::remove_directories(path); }
  std::string file(const std::string &name) const {
    return std::string(path) + "/" + name;
  }
};

inline void writeFile(const std::string &path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  REQUIRE_FALSE(ec);
  os << text;
}

/// Ticks the controller until its compile is done (at most 60 s).
inline void waitForRun(app::AppController &controller, double now) {
  for (int i = 0; i < 6000 && (controller.busy() || !controller.state().run);
       ++i) {
    controller.tick(now);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  controller.tick(now);
  REQUIRE(controller.state().run);
}

inline app::ControllerOptions testOptions(const TempFolder &folder) {
  app::ControllerOptions options;
  options.autosaveDir = folder.file("autosave");
  return options;
}

/// Opens a copy of the sample at `sample` (a path in the source tree) as
/// `name` in `folder` and waits for its compile.
inline void openSampleCopy(app::AppController &controller,
                           const TempFolder &folder, const std::string &sample,
                           const std::string &name) {
  std::string kernel = folder.file(name);
  writeFile(kernel, readSource(sample));
  controller.apply(app::cmd::OpenFile{kernel}, 0);
  waitForRun(controller, 0);
}

} // namespace klx::test

#endif // KLX_TESTS_UNIT_APPTESTSUPPORT_H
