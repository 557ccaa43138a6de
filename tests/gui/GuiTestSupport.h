//===- GuiTestSupport.h - Screenshots of the real window, read back -*- C++
//-*-===//
//
// What the GUI tests share: running klx under xvfb-run with --screenshot,
// loading the PNG and the layout.json beside it, finding panes, measuring
// a region's colours, and driving the window with an xdotool script.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_TESTS_GUI_GUITESTSUPPORT_H
#define KLX_TESTS_GUI_GUITESTSUPPORT_H

#include "klx/Support/ExternalTool.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>
#include <stb/stb_image.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include <signal.h>
#include <unistd.h>

namespace klx::guitest {

using namespace klx;

/// The screen Xvfb gives the window; the window takes its work area.
struct ScreenSize {
  int width, height;
};
inline constexpr ScreenSize kDefaultScreen{1600, 900};

/// A rectangle in pixels, end exclusive.
struct Rect {
  int x0, y0, x1, y1;
};

/// What `--screenshot=OUT.png` wrote: the pixels and, from
/// OUT.layout.json, where the menu bar, the status bar and each pane are.
struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  Rect menuBar{}, statusBar{};
  std::map<std::string, Rect> panes;
  double fontSize = 0;
  int zoom = 0;
  std::string layout;
  std::string theme;
  std::string source; // the kernel's file the Source pane has open
  std::vector<std::string> dialogs; // windows over the panes ("Keys")
  std::string step;                 // the selected step
  /// A window of tabs' tab in front ("Output" -> "Assembly").
  std::map<std::string, std::string> front;
  /// The lines each text view shows, as the window says (TextInView.h).
  struct Text {
    std::string pane, view;
    std::vector<std::pair<unsigned, std::string>> lines; // number, text
  };
  std::vector<Text> texts;

  /// The lines the layout says `pane` shows (of its view `view`, or of
  /// all its views), numbered.
  std::vector<std::pair<unsigned, std::string>>
  linesShown(llvm::StringRef pane, llvm::StringRef view = "") const {
    std::vector<std::pair<unsigned, std::string>> lines;
    for (const Text &text : texts)
      if (text.pane == pane && (view.empty() || text.view == view))
        lines.insert(lines.end(), text.lines.begin(), text.lines.end());
    return lines;
  }

  const unsigned char *at(int x, int y) const {
    return &rgba[(size_t(y) * width + x) * 4];
  }
  Rect whole() const { return {0, 0, width, height}; }
};

// Panes by the title of their window (a tab group's window for tabs).
inline constexpr const char *kSamples = "Samples";
inline constexpr const char *kPasses = "Passes";
inline constexpr const char *kSource = "Source";
inline constexpr const char *kWarpRoles = "Structure";
inline constexpr const char *kIR = "IR";
inline constexpr const char *kTimeline = "Barrier timeline";
/// The default sample, which a window given no FILE opened before first
/// starts opened the first lesson's instead.
inline const std::string kSample =
    std::string(KLX_SOURCE_DIR) + "/samples/nvidia/gemm_ws_persistent.mlir";
inline constexpr const char *kAssembly = "Assembly";
inline constexpr const char *kRun = "Guide";

/// A pane's contents: below its title bar, inside its border.
inline Rect paneRect(const Image &image, const std::string &name) {
  auto it = image.panes.find(name);
  INFO("pane " << name);
  REQUIRE(it != image.panes.end());
  Rect r = it->second;
  int title = int(image.fontSize * 1.6);
  return {std::max(0, r.x0 + 2), std::max(0, r.y0 + title),
          std::min(image.width, r.x1 - 2), std::min(image.height, r.y1 - 2)};
}

struct RegionStats {
  double stddev = 0;
  double meanLuma = 0;
  size_t distinctColours = 0;
  size_t reddish = 0; // pixels of the error-line background
  size_t orange = 0;  // pixels of the first role's colours
  size_t blue = 0;    // pixels of the second role's colours
  size_t green = 0;   // pixels of a passed run
};

inline RegionStats measure(const Image &image, Rect r) {
  RegionStats stats;
  double sum = 0, sumSq = 0;
  size_t count = 0;
  std::set<uint32_t> colours;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const unsigned char *p = image.at(x, y);
      double luma = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
      sum += luma;
      sumSq += luma * luma;
      ++count;
      colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
      if (p[0] > p[1] + 25 && p[0] > p[2] + 25)
        ++stats.reddish;
      if (p[0] > p[2] + 40 && p[1] > p[2] + 15)
        ++stats.orange;
      if (p[2] > p[0] + 40 && p[1] > p[0] + 20)
        ++stats.blue;
      if (p[1] > p[0] + 50 && p[1] > p[2] + 50)
        ++stats.green;
    }
  double mean = count ? sum / count : 0;
  count = std::max<size_t>(count, 1);
  stats.stddev = std::sqrt(std::max(0.0, sumSq / count - mean * mean));
  stats.meanLuma = mean;
  stats.distinctColours = colours.size();
  return stats;
}

inline RegionStats measure(const Image &image, const char *pane) {
  return measure(image, paneRect(image, pane));
}

/// Pixels of `r` within `tolerance` of the colour (red, green, blue) in
/// each channel: one colour of the palette, told from its neighbours.
inline size_t countNear(const Image &image, Rect r, int red, int green,
                        int blue, int tolerance = 12) {
  size_t near = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const unsigned char *p = image.at(x, y);
      near += std::abs(p[0] - red) <= tolerance &&
              std::abs(p[1] - green) <= tolerance &&
              std::abs(p[2] - blue) <= tolerance;
    }
  return near;
}

/// Pixels that differ between two screenshots of one size inside `r`.
inline size_t countDiffering(const Image &a, const Image &b, Rect r) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  size_t differing = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x)
      differing += std::memcmp(a.at(x, y), b.at(x, y), 3) != 0;
  return differing;
}
inline size_t countDiffering(const Image &a, const Image &b, const char *pane) {
  return countDiffering(a, b, paneRect(b, pane));
}

inline std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  REQUIRE(buffer);
  return (*buffer)->getBuffer().str();
}

inline void writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  REQUIRE_FALSE(ec);
  os << text;
}

inline std::string outputPath(const std::string &name) {
  llvm::sys::fs::create_directories(KLX_TEST_OUTPUT_DIR);
  return std::string(KLX_TEST_OUTPUT_DIR) + "/" + name;
}

/// Runs klx under xvfb-run and loads the screenshot it wrote.
inline Rect rectFromJson(const llvm::json::Object *object) {
  REQUIRE(object);
  auto number = [&](llvm::StringRef key) {
    std::optional<double> value = object->getNumber(key);
    REQUIRE(value);
    return int(std::lround(*value));
  };
  int x = number("x"), y = number("y");
  return {x, y, x + number("w"), y + number("h")};
}

/// Reads OUT.layout.json, written beside the screenshot OUT.png.
inline void readLayout(const std::string &png, Image &image) {
  std::string path = png.substr(0, png.size() - 4) + ".layout.json";
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(readFile(path));
  if (!json)
    FAIL(path << ": " << llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  REQUIRE(root);
  image.menuBar = rectFromJson(root->getObject("menu_bar"));
  image.statusBar = rectFromJson(root->getObject("status_bar"));
  image.fontSize = root->getNumber("font_size").value_or(0);
  image.zoom = int(root->getInteger("zoom").value_or(0));
  image.layout = root->getString("layout").value_or("").str();
  image.theme = root->getString("theme").value_or("").str();
  image.source = root->getString("source").value_or("").str();
  image.step = root->getString("step").value_or("").str();
  if (const llvm::json::Array *dialogs = root->getArray("dialogs"))
    for (const llvm::json::Value &dialog : *dialogs)
      image.dialogs.push_back(dialog.getAsString().value_or("").str());
  const llvm::json::Array *panes = root->getArray("panes");
  REQUIRE(panes);
  for (const llvm::json::Value &pane : *panes) {
    const llvm::json::Object *object = pane.getAsObject();
    REQUIRE(object);
    std::string name = object->getString("name").value_or("").str();
    image.panes[name] = rectFromJson(object);
    if (std::optional<llvm::StringRef> front = object->getString("front"))
      image.front[name] = front->str();
  }
  if (const llvm::json::Array *texts = root->getArray("texts"))
    for (const llvm::json::Value &value : *texts) {
      const llvm::json::Object *text = value.getAsObject();
      REQUIRE(text);
      Image::Text shown{text->getString("pane").value_or("").str(),
                        text->getString("view").value_or("").str(),
                        {}};
      if (const llvm::json::Array *lines = text->getArray("lines"))
        for (const llvm::json::Value &line : *lines)
          if (const llvm::json::Object *object = line.getAsObject())
            shown.lines.emplace_back(
                unsigned(object->getInteger("n").value_or(0)),
                object->getString("text").value_or("").str());
      image.texts.push_back(std::move(shown));
    }
}

inline Image loadScreenshot(const std::string &png);

/// Where windowEnvironment(dir) puts one of its folders ("config": the
/// window's imgui.ini is in config/klx/; "klx-state": the autosave). Under
/// a hidden folder, which a path typed into the window does not list.
inline std::string environmentFolder(const std::string &dir,
                                     const char *folder) {
  return dir + "/.env/" + folder;
}

/// The environment each window of the tests starts in: an allowlist, not
/// what the machine has. Where the tools are (PATH, CUDA_HOME,
/// LD_LIBRARY_PATH) and the sanitizers' options where set, then
/// `extra` (NAME=VALUE: what a test sets on purpose); a HOME and every
/// folder klx keeps settings or state in (XDG_CONFIG_HOME: imgui.ini and
/// the window's settings; KLX_STATE_DIR, XDG_STATE_HOME: the autosave),
/// fresh under `dir`, so that nothing one window saved reaches another.
/// xvfb-run adds DISPLAY and XAUTHORITY.
inline std::vector<std::string>
windowEnvironment(const std::string &dir,
                  const std::vector<std::string> &extra = {}) {
  std::vector<std::string> env = {"LANG=C.UTF-8"};
  for (const char *name : {"PATH", "CUDA_HOME", "LD_LIBRARY_PATH",
                           "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"})
    if (const char *value = std::getenv(name))
      env.push_back(std::string(name) + "=" + value);
  const std::pair<const char *, const char *> folders[] = {
      {"HOME", "home"},
      {"XDG_CONFIG_HOME", "config"},
      {"XDG_STATE_HOME", "state"},
      {"XDG_DATA_HOME", "data"},
      {"XDG_CACHE_HOME", "cache"},
      {"XDG_RUNTIME_DIR", "runtime"},
      {"KLX_STATE_DIR", "klx-state"}};
  for (auto [name, folder] : folders) {
    std::string path = environmentFolder(dir, folder);
    REQUIRE_FALSE(llvm::sys::fs::create_directories(
        path, true, llvm::sys::fs::perms::owner_all));
    env.push_back(std::string(name) + "=" + path);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

/// xvfb-run's options for a server with a screen of `screen`'s size. ctest
/// runs test programs side by side: each looks for a free X display from
/// a number of its own, so that two servers seldom try the same one at
/// once (where they do, xvfb-run -a tries the next). -noreset: a script
/// that starts a second window on the server must not find it resetting
/// after the first one left.
inline std::vector<std::string> xvfbRunOptions(ScreenSize screen) {
  return {"-n", std::to_string(100 + (::getpid() % 100) * 8), "-a", "-s",
          "-screen 0 " + std::to_string(screen.width) + "x" +
              std::to_string(screen.height) + "x24 -noreset"};
}

/// Runs `args` under xvfb-run on a screen of `screen`'s size, in
/// windowEnvironment(dir, extraEnv); what it printed, and how it ended.
inline ToolResult runInXvfb(const std::string &dir, ScreenSize screen,
                            const std::vector<std::string> &args,
                            const std::vector<std::string> &extraEnv = {}) {
  auto xvfbRun = llvm::sys::findProgramByName("xvfb-run");
  if (!xvfbRun)
    FAIL("xvfb-run is not installed; scripts/setup.sh installs it");
  auto env = llvm::sys::findProgramByName("env");
  REQUIRE(env);
  std::vector<std::string> command = {"-i"};
  for (std::string &var : windowEnvironment(dir, extraEnv))
    command.push_back(std::move(var));
  command.push_back(*xvfbRun);
  for (std::string &arg : xvfbRunOptions(screen))
    command.push_back(std::move(arg));
  command.insert(command.end(), args.begin(), args.end());
  auto result = runTool(*env, command, /*timeoutSeconds=*/300);
  if (!result)
    FAIL(llvm::toString(result.takeError()));
  return *result;
}

/// Runs klx under xvfb-run on a screen of `screen`'s size, from a fresh
/// folder of its own with `extraEnv` (NAME=VALUE) in its environment, and
/// loads the screenshot it wrote with the layout beside it.
inline Image screenshotOn(ScreenSize screen, const std::string &name,
                          std::vector<std::string> klxArgs,
                          const std::vector<std::string> &extraEnv = {}) {
  std::string png = outputPath(name);
  llvm::sys::fs::remove(png);
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-shot", dir));
  std::vector<std::string> args = {KLX_BINARY, "--screenshot=" + png,
                                   "--frames=3"};
  args.insert(args.end(), klxArgs.begin(), klxArgs.end());
  // The default sample where no FILE is given: a window with neither a
  // FILE nor saved settings is a first start (GuiHelpTest's).
  bool file = false;
  for (size_t i = 0; i < klxArgs.size(); ++i)
    file |= !llvm::StringRef(klxArgs[i]).starts_with("-") &&
            (i == 0 || klxArgs[i - 1] != "-D");
  if (!file)
    args.push_back(kSample);
  ToolResult result = runInXvfb(std::string(dir), screen, args, extraEnv);
  llvm::sys::fs::remove_directories(dir);
  INFO(result.output);
  REQUIRE(result.exitCode == 0);
  return loadScreenshot(png);
}

/// The PNG a window wrote with --screenshot, and its layout.
inline Image loadScreenshot(const std::string &png) {
  Image image;
  int channels;
  std::unique_ptr<unsigned char, void (*)(void *)> pixels(
      stbi_load(png.c_str(), &image.width, &image.height, &channels, 4),
      stbi_image_free);
  REQUIRE(pixels);
  image.rgba.assign(pixels.get(),
                    pixels.get() + size_t(image.width) * image.height * 4);
  readLayout(png, image);
  return image;
}

inline Image screenshot(const std::string &name,
                        std::vector<std::string> klxArgs,
                        const std::vector<std::string> &extraEnv = {}) {
  return screenshotOn(kDefaultScreen, name, std::move(klxArgs), extraEnv);
}

inline void requireBusy(const Image &image, Rect region, const char *what) {
  RegionStats stats = measure(image, region);
  INFO(what << ": luma stddev " << stats.stddev << ", " << stats.distinctColours
            << " colours");
  CHECK(stats.stddev > 8.0);
  CHECK(stats.distinctColours > 20);
}
inline void requireBusy(const Image &image, const char *pane,
                        const char *what) {
  requireBusy(image, paneRect(image, pane), what);
}

/// Fails the test, with how to get them, where `tools` are missing.
inline void requireTools(std::initializer_list<const char *> tools) {
  for (const char *tool : tools)
    if (!llvm::sys::findProgramByName(tool))
      FAIL(tool << " is not installed; scripts/setup.sh installs it");
}

/// Shell lines for a driving script: a drag with the left button from
/// (x0, y0) to (x1, y1), then Ctrl+C (held, not tapped: ImGui 1.86 misses
/// a press and release within one frame), and the clipboard as xclip reads
/// it written to `clipboardPath`.
inline std::string dragAndCopy(int x0, int y0, int x1, int y1,
                               const std::string &clipboardPath) {
  // Tried again while the clipboard stays empty: on a loaded machine the
  // text under the pointer (a diff the worker computes) may come a frame
  // after the window says it is ready. The same drag selects the same rows.
  return llvm::formatv(R"(for attempt in 1 2 3 4 5; do
xdotool mousemove {0} {1} mousedown 1; sleep 0.2
xdotool mousemove {2} {3}; sleep 0.2; xdotool mouseup 1; sleep 0.3
xdotool keydown ctrl; sleep 0.15; xdotool key c; sleep 0.2
xdotool keyup ctrl; sleep 0.5
xclip -o -selection clipboard > {4} 2>/dev/null && [ -s {4} ] && break
sleep 1
done)",
                       x0, y0, x1, y1, clipboardPath)
      .str();
}

/// Every pane inside the window and below the menu bar, the status bar at
/// the bottom, and the panes covering the area between the bars with no
/// strip left over (Compare lies over other panes and is not counted).
inline void requireFits(const Image &image) {
  INFO(image.layout << " layout at " << image.width << "x" << image.height
                    << ", zoom " << image.zoom << "%");
  CHECK(image.menuBar.y0 == 0);
  CHECK(image.menuBar.x1 >= image.width - 1);
  CHECK(image.menuBar.y1 - image.menuBar.y0 >= image.fontSize);
  CHECK(image.statusBar.y1 >= image.height - 1);
  CHECK(image.statusBar.y1 <= image.height);
  long covered = 0;
  for (const auto &[name, r] : image.panes) {
    INFO("pane " << name << ": " << r.x0 << "," << r.y0 << " to " << r.x1 << ","
                 << r.y1);
    CHECK(r.x0 >= 0);
    CHECK(r.x1 <= image.width);
    CHECK(r.y0 >= image.menuBar.y1);
    CHECK(r.y1 <= image.statusBar.y0 + 1);
    if (name != "Compare")
      covered += long(r.x1 - r.x0) * (r.y1 - r.y0);
  }
  long work = long(image.width) * (image.statusBar.y0 - image.menuBar.y1);
  INFO("panes cover " << covered << " of " << work << " pixels");
  CHECK(covered >= work * 98 / 100);
  CHECK(covered <= work * 101 / 100);
}

inline std::set<std::string> paneNames(const Image &image) {
  std::set<std::string> names;
  for (const auto &entry : image.panes)
    names.insert(entry.first);
  return names;
}

/// xdotool lines for a click held as a hand holds it (a press and a
/// release a few frames apart), at (x, y).
inline std::string heldClick(int x, int y) {
  return llvm::formatv("xdotool mousemove {0} {1}; sleep 0.3; xdotool "
                       "mousedown 1; sleep 0.15; xdotool mouseup 1; sleep "
                       "0.5\n",
                       x, y)
      .str();
}

/// A folder of its own for a test, removed however the test ends.
struct TempDir {
  std::string path;
  explicit TempDir(const char *prefix) {
    llvm::SmallString<128> made;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory(prefix, made));
    path = std::string(made);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

/// An xdotool line that presses `key` with `modifier` held ("ctrl",
/// "alt"; "" for none), then waits `settle` seconds for the window to act
/// on it. Held, not tapped: ImGui 1.86 misses a press and release that
/// arrive within one frame.
inline std::string pressKey(const std::string &modifier, const std::string &key,
                            double settle = 0.4) {
  std::string keys = llvm::formatv("xdotool keydown {0}; sleep 0.15; "
                                   "xdotool keyup {0}; ",
                                   key)
                         .str();
  if (!modifier.empty())
    keys = llvm::formatv("xdotool keydown {0}; sleep 0.15; xdotool keydown "
                         "{1}; sleep 0.15; xdotool keyup {1}; sleep 0.2; "
                         "xdotool keyup {0}; ",
                         modifier, key)
               .str();
  return keys + llvm::formatv("sleep {0}\n", settle).str();
}

/// An xdotool line that clicks into the window (the IR pane of the
/// default layout at 1600x900), so that the keys after it reach it.
inline const std::string kClickIntoWindow =
    "xdotool mousemove 900 300 click 1; sleep 0.3\n";

/// The keys that walk the open lesson `steps` steps by Next step
/// (Alt+Right), each given 1.5 s for its compile.
inline std::string lessonStepKeys(int steps) {
  std::string keys = kClickIntoWindow;
  for (int i = 0; i < steps; ++i)
    keys += pressKey("alt", "Right", 1.5);
  return keys;
}

/// Runs `script` (which starts klx and drives it with xdotool) under
/// xvfb-run on a 1600x900 screen, from `dir`, in windowEnvironment(dir);
/// returns what it printed.
inline std::string driveWindow(const std::string &dir,
                               const std::string &script) {
  std::string scriptPath = dir + "/drive.sh";
  writeFile(scriptPath, script);
  return runInXvfb(dir, kDefaultScreen, {"bash", scriptPath}).output;
}

/// Starts klx on the sample with `klxArgs`, runs `keys` (xdotool lines,
/// from `dir`, its environment fresh in it) once the window is ready and
/// returns its screenshot, taken when they are done: the window reads
/// what they typed in the frames after the script says so
/// (--screenshot-when), and waits for any work it started.
inline Image typedIntoWindow(const std::string &dir, const std::string &name,
                             const std::string &keys,
                             const std::vector<std::string> &klxArgs = {}) {
  std::string png = outputPath(name);
  llvm::sys::fs::remove(png);
  llvm::sys::fs::remove(dir + "/ready");
  llvm::sys::fs::remove(dir + "/look");
  std::string args;
  for (const std::string &arg : klxArgs)
    args += " '" + arg + "'";
  std::string script =
      llvm::formatv(R"(set -u
"{1}" {2}/samples/nvidia/gemm_ws_persistent.mlir{5} --ready-file={0}/ready --screenshot={3} --screenshot-when={0}/look &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
{4}
touch {0}/look
wait $pid
)",
                    dir, KLX_BINARY, KLX_SOURCE_DIR, png, keys, args)
          .str();
  INFO(driveWindow(dir, script));
  return loadScreenshot(png);
}

} // namespace klx::guitest

#endif // KLX_TESTS_GUI_GUITESTSUPPORT_H
