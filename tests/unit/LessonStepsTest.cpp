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
  // "producers = 2 on line 52 and shared_full_barrier = false on line 53"
  std::vector<LessonStep> two = lessonSteps(page("05-gemm_two_producers.md"));
  REQUIRE_FALSE(two.empty());
  CHECK(two[0].sourceLines == std::vector<unsigned>{52, 53});
  // Every step of lessons 01-06 has a link a class can follow.
  for (const char *name :
       {"01-saxpy.md", "02-gemm_tma_wgmma.md", "03-gemm_ws_persistent.md",
        "04-gemm_pingpong.md", "05-gemm_two_producers.md",
        "06-gemm_bar_array.md"}) {
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
  ControllerOptions options = testOptions(folder);
  options.lessonsDir = sourcePath("docs/lessons");
  options.samplesDir = sourcePath("samples");
  AppController controller(options);
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
