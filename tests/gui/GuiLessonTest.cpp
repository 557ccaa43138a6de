//===- GuiLessonTest.cpp - A class walks the lessons by Next step ---------===//
//
// Lessons 01-06 walked as a class on a projector would: the Teach layout
// at 1280x720, each step reached by Next step (Alt+Right) alone, a
// screenshot at every step. Each step's "Look at" sentences name a pane
// and what to read there; the layout file says which tab is in front and
// which lines each text pane shows, and every line and instruction the
// step names must be among them.
//
//===----------------------------------------------------------------------===//

#include "GuiTestSupport.h"

#include "core/Lesson.h"

using namespace klx::guitest;
using namespace klx::app;

namespace {

constexpr ScreenSize kProjector{1280, 720};

/// Starts klx on `sample` in Teach, presses Next step `steps` times and
/// has the window write `shot(i)` after step i; returns what it printed.
std::string walkLesson(const std::string &dir, const std::string &sample,
                       size_t steps,
                       const std::function<std::string(size_t)> &shot) {
  std::string keys;
  for (size_t i = 1; i <= steps; ++i) {
    std::string png = shot(i);
    llvm::sys::fs::remove(png);
    // The window takes the picture once the step's work is done, then
    // removes the file: the next step waits for that.
    keys +=
        pressKey("alt", "Right", 0.3) +
        llvm::formatv("echo '{1}' > {0}/look.new; mv {0}/look.new {0}/look\n"
                      "for j in $(seq 2400); do [ -e {0}/look ] || break; "
                      "sleep 0.1; done\n",
                      dir, png)
            .str();
  }
  std::string script =
      llvm::formatv(R"(set -u
"{1}" {2}/{3} --layout=teach --frames=3 --ready-file={0}/ready --screenshot={0}/last.png --screenshot-when={0}/look &
pid=$!
for i in $(seq 600); do [ -e {0}/ready ] && break; sleep 0.2; done
sleep 0.5
# The status bar: the window has the keyboard, and nothing is selected.
xdotool mousemove 600 705 click 1; sleep 0.3
{4}
touch {0}/look
wait $pid
)",
                    dir, KLX_BINARY, KLX_SOURCE_DIR, sample, keys)
          .str();
  std::string path = dir + "/walk.sh";
  writeFile(path, script);
  return runInXvfb(dir, kProjector, {"bash", path}).output;
}

/// The window showing `pane`: its own, or the tab group it is in front of.
bool paneInFront(const Image &image, llvm::StringRef pane) {
  if (image.panes.count(pane.str()))
    return true;
  for (const auto &[window, front] : image.front)
    if (front == pane)
      return true;
  return false;
}

/// Whether a line `pane` shows holds `text`.
bool shows(const Image &image, llvm::StringRef pane, llvm::StringRef text) {
  return llvm::any_of(image.linesShown(pane), [&](const auto &line) {
    return llvm::StringRef(line.second).contains(text);
  });
}

/// What the Source pane shows of line `wanted` of the file, if it is in
/// view.
std::optional<std::string> sourceLineShown(const Image &image,
                                           unsigned wanted) {
  for (const auto &[number, line] : image.linesShown("Source"))
    if (number == wanted)
      return line;
  return std::nullopt;
}

/// What `image` shows of `pane`, for a failure's message.
std::string shown(const Image &image, llvm::StringRef pane) {
  std::string out;
  for (const auto &[number, line] : image.linesShown(pane))
    out += "  " + std::to_string(number) + ": " + line + "\n";
  return out;
}

void checkStep(const Image &image, const LessonStep &step,
               const std::vector<std::string> &sample) {
  INFO("step " << step.number << " (" << step.link << ")");
  CHECK(step.lookAtError.empty());
  CHECK_FALSE(step.lookAt.empty());
  for (unsigned line : step.sourceLines) {
    INFO("source line " << line << "; the Source pane shows\n"
                        << shown(image, "Source"));
    std::optional<std::string> text = sourceLineShown(image, line);
    CHECK(text);
    if (!text)
      continue;
    // Its code, not a blank row: a narrow pane scrolls sideways to it.
    if (line <= sample.size() &&
        !llvm::StringRef(sample[line - 1]).trim().empty())
      CHECK_FALSE(llvm::StringRef(*text).trim().empty());
  }
  for (const LookAt &look : step.lookAt) {
    std::string pane = paneTitle(look.pane).str();
    INFO("Look at the " << pane);
    CHECK(paneInFront(image, pane));
    for (const std::string &text : look.text) {
      INFO("'" << text << "'; the pane shows\n" << shown(image, pane));
      CHECK(shows(image, pane, text));
    }
  }
}

void walkAndCheck(const std::string &page) {
  std::string path = std::string(KLX_SOURCE_DIR) + "/docs/lessons/" + page;
  LessonDoc doc = parseLesson(readFile(path));
  std::vector<LessonStep> steps = lessonSteps(doc);
  REQUIRE_FALSE(steps.empty());
  TempDir dir("klx-walk");
  std::string stem = page.substr(0, page.find('-'));
  auto shot = [&](size_t i) {
    return outputPath("lesson-" + stem + "-step" + std::to_string(i) + ".png");
  };
  INFO(walkLesson(dir.path, doc.sample, steps.size(), shot));
  std::vector<std::string> sample;
  llvm::SmallVector<llvm::StringRef> lines;
  std::string text = readFile(std::string(KLX_SOURCE_DIR) + "/" + doc.sample);
  llvm::StringRef(text).split(lines, '\n');
  for (llvm::StringRef line : lines)
    sample.push_back(line.str());
  for (size_t i = 0; i < steps.size(); ++i) {
    Image image = loadScreenshot(shot(i + 1));
    CHECK(image.layout == "teach");
    checkStep(image, steps[i], sample);
  }
}

} // namespace

TEST_CASE("GUI: Next step walks lessons 01-06, 14 and 15 and shows what "
          "each step names",
          "[gui][lesson-walk]") {
  requireTools({"xdotool", "xvfb-run"});
  std::string page =
      GENERATE(as<std::string>(), "01-saxpy.md", "02-gemm_tma_wgmma.md",
               "03-gemm_ws_persistent.md", "04-gemm_pingpong.md",
               "05-gemm_two_producers.md", "06-gemm_bar_array.md",
               "14-linear_gelu.md", "15-classifier_head.md");
  INFO("lesson " << page);
  walkAndCheck(page);
}
