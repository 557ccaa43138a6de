//===- Lesson.h - Lesson pages, read for the Lesson pane --------*- C++ -*-===//
//
// docs/lessons/NN-name.md, each a page about one sample, parsed into the
// few Markdown blocks the pages use (headings, paragraphs, lists, code,
// tables) with inline code and links, and the links whose target starts
// with `klx:` turned into the window's commands (docs/lessons/README.md).
// No ImGui here: the pane lays the blocks out.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_LESSON_H
#define KLX_APP_CORE_LESSON_H

#include "Command.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace klx::app {

struct LessonSpan {
  enum Kind { Text, Code, Link };
  Kind kind = Text;
  std::string text;
  std::string target; // links
};
using LessonLine = std::vector<LessonSpan>;

struct LessonBlock {
  enum Kind { Heading, Paragraph, Bullet, Numbered, Code, Table };
  Kind kind = Paragraph;
  int level = 0;      // headings: 1 for #, 2 for ##
  std::string number; // numbered items: "3"
  LessonLine spans;
  std::string code;                          // code blocks
  std::vector<std::vector<LessonLine>> rows; // tables, the header first
};

struct LessonDoc {
  std::string title; // the first # heading
  std::vector<LessonBlock> blocks;
  /// The sample the page is about: the first `klx:open=` link's file, else
  /// the first `../../samples/...mlir` link's (from the repository root).
  std::string sample;
};

LessonDoc parseLesson(llvm::StringRef markdown);

/// One page of docs/lessons (NN-name.md), in order.
struct LessonEntry {
  std::string path;   // absolute
  std::string number; // "07"
  std::string title;
  std::string sample; // as the page names it: "samples/nvidia/..."
};

/// The pages of `dir`, sorted by name; README.md and other files skipped.
std::vector<LessonEntry> scanLessons(const std::string &dir);

/// $KLX_LESSONS_DIR, else docs/lessons of the source tree.
std::string defaultLessonsDir();

/// What following a link does.
struct LinkAction {
  std::vector<Command> commands; // klx: actions, a .mlir file to open
  std::string lesson;            // another page to show (absolute path)
  std::string error;             // a klx: link that cannot be followed
};

/// `target` as the Lesson pane follows it. `lessonDir` resolves relative
/// links to pages and files; `root` the paths of klx:open and
/// klx:compare files.
LinkAction followLink(llvm::StringRef target, llvm::StringRef lessonDir,
                      llvm::StringRef root);

/// followLink from the page at `pagePath`: its folder, and the repository
/// root two folders above it (pages live in docs/lessons).
LinkAction followLinkFrom(llvm::StringRef target, llvm::StringRef pagePath);

/// A step's "Look at the IR: `a`, `b`." sentence: the pane (or tab) the
/// step asks the class to read, and the text in backticks after it, which
/// the pane is scrolled to.
struct LookAt {
  Pane pane = Pane::Source;
  std::vector<std::string> text;
};

/// One step of a page a class walks with Next step: a numbered item with a
/// klx: link, which the step follows.
struct LessonStep {
  size_t block = 0;   // index in LessonDoc::blocks
  std::string number; // "3"
  std::string link;   // the item's first klx: link
  /// Lines of the sample the item's words name ("line 52", "lines 78-84";
  /// not "IR line 244"), in order: the Source pane scrolls to the first.
  std::vector<unsigned> sourceLines;
  /// Its "Look at" sentences, in order (one per pane).
  std::vector<LookAt> lookAt;
  /// Why one of them could not be read ("names no pane").
  std::string lookAtError;
};

std::vector<LessonStep> lessonSteps(const LessonDoc &doc);

/// The panes whose text a "Look at" sentence may name in backticks: the
/// text panes, the Barrier timeline's lanes by role, the Passes list's
/// steps, the Warp roles tab's roles and checks and the Steps tab's rows.
bool paneShowsNamedText(Pane pane);

} // namespace klx::app

#endif // KLX_APP_CORE_LESSON_H
