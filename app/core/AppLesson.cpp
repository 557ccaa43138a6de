//===- AppLesson.cpp - The controller's lesson pages and their steps ------===//

#include "AppController.h"

#include "klx/Support/SourceFile.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>

using namespace klx;
using namespace klx::app;

void AppController::openLesson(const std::string &path, int index) {
  LessonState &lesson = appState.lesson;
  if (path.empty() && (index < 0 || index >= int(lesson.lessons.size())))
    return;
  std::string file = path.empty() ? lesson.lessons[index].path : path;
  // A page is read the way a kernel is: a link may name anything.
  llvm::Expected<std::string> text = readSourceFile(file, StreamInput::Refuse);
  if (!text) {
    lesson.error =
        "cannot open " + file + ": " + llvm::toString(text.takeError());
    return setMessage(lesson.error, true);
  }
  lesson.error.clear();
  lesson.path = file;
  lesson.doc = std::make_shared<LessonDoc>(parseLesson(*text));
  lesson.step = -1;
  lesson.current = -1;
  for (size_t i = 0; i < lesson.lessons.size(); ++i)
    if (llvm::sys::fs::equivalent(lesson.lessons[i].path, file))
      lesson.current = int(i);
}

void AppController::stepLesson(int delta, double now) {
  LessonState &lesson = appState.lesson;
  if (!lesson.doc)
    return setMessage("no lesson is open: pick one in the Guide", true);
  std::vector<LessonStep> steps = lessonSteps(*lesson.doc);
  if (steps.empty())
    return setMessage("this lesson has no steps to walk", true);
  int next = std::clamp(lesson.step + delta, 0, int(steps.size()) - 1);
  if (next == lesson.step)
    return setMessage(delta > 0 ? "that was the lesson's last step"
                                : "that is the lesson's first step",
                      false);
  lesson.step = next;
  const LessonStep &step = steps[size_t(next)];
  LinkAction action = followLinkFrom(step.link, lesson.path);
  if (!action.error.empty())
    return setMessage(action.error, true);
  for (const Command &command : action.commands)
    apply(command, now);
  if (!action.lesson.empty())
    openLesson(action.lesson, -1);
  // The first line the step's words name, where its link marks none.
  if (!step.sourceLines.empty() && step.link.find("line=") == std::string::npos)
    apply(cmd::FocusSourceLine{int(step.sourceLines.front())}, now);
  revealStep(step, now);
  bool last = size_t(next) + 1 == steps.size();
  setMessage("step " + step.number + " of " + std::to_string(steps.size()) +
                 (last ? ", the lesson's last" : " (Alt+Right: the next)"),
             false);
}

void AppController::revealStep(const LessonStep &step, double now) {
  // Every text pane gets a request, named or not: one a step scrolled
  // sideways comes back to the left at the next (a class read the next
  // step's IR cut at the left).
  std::map<Pane, cmd::RevealInPane> reveals;
  for (Pane pane : {Pane::Source, Pane::IR, Pane::Assembly})
    reveals[pane] = cmd::RevealInPane{pane, {}, {}};
  // Every line the step names, in view together where the pane is tall
  // enough: the mark alone brings only the first.
  reveals[Pane::Source].lines = step.sourceLines;
  // Else the line marked (by this step or one before) stays readable.
  if (step.sourceLines.empty() && appState.view.focusedSourceLine)
    reveals[Pane::Source].lines = {appState.view.focusedSourceLine};
  for (const LookAt &look : step.lookAt) {
    apply(cmd::ShowPanel{look.pane}, now);
    // The timeline and the roles come into view, named or not.
    if (!look.text.empty() || look.pane == Pane::Timeline ||
        look.pane == Pane::WarpRoles)
      reveals[look.pane] = cmd::RevealInPane{look.pane, look.text, {}};
  }
  reveals[Pane::Source].text.clear(); // Source goes by lines
  for (const auto &[pane, reveal] : reveals)
    apply(reveal, now);
}
