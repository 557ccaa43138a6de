//===- LessonStepsTest.cpp - Walking a lesson's steps in order ------------===//
//
// A class walks a page with Next step (Alt+Right): each numbered item with
// a klx: link is a step, followed as its link, the Source pane taken to
// the first line its words name.
//
//===----------------------------------------------------------------------===//

#include "AppTestSupport.h"

#include "core/AppController.h"
#include "core/Lesson.h"

using namespace klx;
using namespace klx::app;
using namespace klx::test;

namespace {
LessonDoc page(const std::string &name) {
  return parseLesson(readSource("docs/lessons/" + name));
}

/// The pages a class walks step by step (GuiLessonTest walks them too).
constexpr const char *kWalkedLessons[] = {"01-saxpy.md",
                                          "02-gemm_tma_wgmma.md",
                                          "03-gemm_ws_persistent.md",
                                          "04-gemm_pingpong.md",
                                          "05-gemm_two_producers.md",
                                          "06-gemm_bar_array.md",
                                          "14-linear_gelu.md",
                                          "15-classifier_head.md"};

/// Options for a controller that opens the lessons and samples of the tree.
ControllerOptions lessonOptions(TempFolder &folder) {
  ControllerOptions options = testOptions(folder);
  options.lessonsDir = sourcePath("docs/lessons");
  options.samplesDir = sourcePath("samples");
  return options;
}
} // namespace

TEST_CASE("lessons: the steps a class walks, and the lines they name",
          "[lessons]") {
  std::vector<LessonStep> ws = lessonSteps(page("03-gemm_ws_persistent.md"));
  REQUIRE(ws.size() == 8);
  CHECK(ws[0].number == "1");
  CHECK(ws[0].link == "klx:open=samples/nvidia/gemm_ws_persistent.mlir");
  CHECK(ws[3].link == "klx:pass=klx-to-nvgpu&line=96&timeline=klx-to-nvgpu");
  // "mark line 96", then "The `klx.mma` of line 96", ...
  REQUIRE_FALSE(ws[3].sourceLines.empty());
  CHECK(ws[3].sourceLines.front() == 96);
  // "producers = 2 on line 53 and shared_full_barrier = false on line 54"
  std::vector<LessonStep> two = lessonSteps(page("05-gemm_two_producers.md"));
  REQUIRE_FALSE(two.empty());
  CHECK(two[0].sourceLines == std::vector<unsigned>{53, 54});
  // Every step of lessons 01-06 has a link a class can follow.
  for (const char *name : kWalkedLessons) {
    INFO(name);
    std::vector<LessonStep> steps = lessonSteps(page(name));
    CHECK(steps.size() >= 6);
    for (const LessonStep &step : steps)
      CHECK(followLinkFrom(step.link, sourcePath("docs/lessons/") + name)
                .error.empty());
  }
}

TEST_CASE("lessons: Next step follows each step's link in order",
          "[lessons][app]") {
  TempFolder folder;
  AppController controller(lessonOptions(folder));
  controller.apply(cmd::LessonStepBy{+1}, 0);
  CHECK(controller.state().messageIsError); // no lesson open yet
  controller.apply(cmd::OpenLesson{"", 0}, 0);
  REQUIRE(controller.state().lesson.doc);
  CHECK(controller.state().lesson.step == -1);
  // Step 1 opens saxpy; step 2 selects gpu-kernel-outlining.
  controller.apply(cmd::LessonStepBy{+1}, 0);
  CHECK(controller.state().lesson.step == 0);
  CHECK(llvm::StringRef(controller.state().source.path)
            .ends_with("samples/nvidia/saxpy.mlir"));
  waitForRun(controller, 0);
  controller.apply(cmd::LessonStepBy{+1}, 0);
  waitForRun(controller, 0);
  CHECK(controller.state().lesson.step == 1);
  const AppState &state = controller.state();
  REQUIRE(state.view.selected >= 0);
  CHECK(state.run->snapshots[size_t(state.view.selected)].name ==
        "gpu-kernel-outlining");
  CHECK(state.message == "step 2 of 8 (Alt+Right: the next)");
  // Back to the first, and no further.
  controller.apply(cmd::LessonStepBy{-1}, 0);
  controller.apply(cmd::LessonStepBy{-1}, 0);
  CHECK(controller.state().lesson.step == 0);
  CHECK(controller.state().message == "that is the lesson's first step");
}

TEST_CASE("lessons: a step's Look at sentences name a pane and its text",
          "[lessons]") {
  LessonDoc doc = parseLesson(
      "# L\n\n"
      "1. [Select ptx](klx:pass=ptx). The entry has `.maxntid`. Look at the "
      "IR pane, which shows the PTX here: `.maxntid 384`, `.minnctapersm`. "
      "Look at the Assembly tab: `setmaxnreg.dec`.\n"
      "2. [Steps](klx:show=Steps). One step, and a timeline 14288 cycles "
      "long. Look at the Steps tab. Look at the Compare window.\n"
      "3. [Roles](klx:show=Warp roles). Look at the roles: `producer`.\n"
      "4. [Run](klx:show=Run). Look at the Run tab: `load`.\n");
  std::vector<LessonStep> steps = lessonSteps(doc);
  REQUIRE(steps.size() == 4);
  // Code before the first sentence is the step's prose, not what to find.
  REQUIRE(steps[0].lookAt.size() == 2);
  CHECK(steps[0].lookAt[0].pane == Pane::IR);
  CHECK(steps[0].lookAt[0].text ==
        std::vector<std::string>{".maxntid 384", ".minnctapersm"});
  CHECK(steps[0].lookAt[1].pane == Pane::Assembly);
  CHECK(steps[0].lookAt[1].text == std::vector<std::string>{"setmaxnreg.dec"});
  CHECK(steps[0].lookAtError.empty());
  // Two in one sentence run; "timeline 14288" names no source line.
  REQUIRE(steps[1].lookAt.size() == 2);
  CHECK(steps[1].lookAt[0].pane == Pane::Steps);
  CHECK(steps[1].lookAt[1].pane == Pane::Compare);
  CHECK(steps[1].sourceLines.empty());
  // What is not a pane, and text in a pane that is not searched, are said.
  CHECK(steps[2].lookAtError ==
        "step 3: 'Look at the roles' names no pane (" + paneTitles() + ")");
  CHECK(steps[3].lookAtError ==
        "step 4: the Run pane is not searched for text in backticks");
}

TEST_CASE("lessons: every step of lessons 01-06 says where to look",
          "[lessons]") {
  // The walk at 1280x720 (GuiLessonTest) checks that what each names is
  // on screen; here, that each has a sentence the window can read.
  for (const char *name : kWalkedLessons)
    for (const LessonStep &step : lessonSteps(page(name))) {
      INFO(name << " step " << step.number);
      CHECK_FALSE(step.lookAt.empty());
      CHECK(step.lookAtError.empty());
    }
}

TEST_CASE("lessons: Next step scrolls the panes to what the step names",
          "[lessons][app]") {
  TempFolder folder;
  AppController controller(lessonOptions(folder));
  controller.apply(
      cmd::OpenLesson{sourcePath("docs/lessons/03-gemm_ws_persistent.md"), 0},
      0);
  for (int i = 0; i < 5; ++i) {
    controller.apply(cmd::LessonStepBy{+1}, 0);
    waitForRun(controller, 0);
  }
  // Step 5: "Look at the IR pane ...: `.maxntid 384, 1, 1`, ... Look at
  // the Assembly tab: `setmaxnreg.dec`."
  const ViewState &view = controller.state().view;
  REQUIRE(view.reveals.count(Pane::IR));
  CHECK(view.reveals.at(Pane::IR).text ==
        std::vector<std::string>{".maxntid 384, 1, 1", ".minnctapersm 1"});
  REQUIRE(view.reveals.count(Pane::Assembly));
  CHECK(view.reveals.at(Pane::Assembly).text ==
        std::vector<std::string>{"setmaxnreg.dec"});
  CHECK(view.reveals.at(Pane::Assembly).serial >
        view.reveals.at(Pane::IR).serial);
  REQUIRE(view.raised.size() >= 2);
  CHECK(view.raised.back().pane == Pane::Assembly);
  // Step 5 names no source line: the Source pane's request is the line
  // step 4 marked, which stays readable; the IR's and Assembly's name
  // their text.
  REQUIRE(view.reveals.count(Pane::Source));
  CHECK(view.reveals.at(Pane::Source).lines == std::vector<unsigned>{96});
  CHECK(view.reveals.at(Pane::Source).text.empty());
}
