//===- LessonTest.cpp - Lesson pages and the links the pane follows
//--------===//
//
// The parser on the Markdown the pages use, what each kind of link does,
// and every page of docs/lessons walked as a learner clicks through it:
// each link in order, the file opened, -D values and targets applied, and
// every step, line, role, pane and variant it names checked to exist at
// that point.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "core/Lesson.h"
#include "views/SweepResults.h"
#include "views/TimelineView.h"

#include "klx/Pipeline/Comparison.h"
#include "klx/Pipeline/Compiler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace klx;
using namespace klx::app;

TEST_CASE("lessons: the Markdown the pages use", "[lessons]") {
  LessonDoc doc = parseLesson(R"(# Lesson: steps

[`samples/x.mlir`](../../samples/x.mlir) computes `y`,
one *thread* per element.

## In the window

1. [Open the sample](klx:open=samples/nvidia/x.mlir) and look
   at the **Steps** tab.
2. Step to [klx-bridge-steps](klx:define=bridge_steps=1&pass=klx-bridge-steps).

- a bullet with [another page](08-gather_direct.md)

| | time |
|---|---|
| a | 1 ms |

```
kernel: 2 steps
```
)");
  CHECK(doc.title == "Lesson: steps");
  CHECK(doc.sample == "samples/nvidia/x.mlir"); // klx:open wins
  REQUIRE(doc.blocks.size() == 8);
  CHECK(doc.blocks[0].kind == LessonBlock::Heading);
  const LessonBlock &intro = doc.blocks[1];
  REQUIRE(intro.kind == LessonBlock::Paragraph);
  REQUIRE(intro.spans.size() == 4);
  CHECK(intro.spans[0].kind == LessonSpan::Link);
  CHECK(intro.spans[0].text == "samples/x.mlir"); // backticks dropped
  CHECK(intro.spans[2].kind == LessonSpan::Code);
  CHECK(intro.spans[3].text == ", one thread per element.");
  const LessonBlock &first = doc.blocks[3];
  CHECK(first.kind == LessonBlock::Numbered);
  CHECK(first.number == "1");
  // The indented line continues the item (read with it as one text);
  // ** is dropped.
  CHECK(first.spans.back().text == " and look at the Steps tab.");
  // `code` that runs over an item's line break is code (it was two
  // backticks' worth of text).
  LessonDoc wrapped =
      parseLesson("1. it reads `every timing:\n   verified`.\n");
  REQUIRE(wrapped.blocks.size() == 1);
  REQUIRE(wrapped.blocks[0].spans.size() == 3);
  CHECK(wrapped.blocks[0].spans[1].kind == LessonSpan::Code);
  CHECK(wrapped.blocks[0].spans[1].text == "every timing: verified");
  CHECK(doc.blocks[5].kind == LessonBlock::Bullet);
  const LessonBlock &table = doc.blocks[6];
  REQUIRE(table.kind == LessonBlock::Table);
  REQUIRE(table.rows.size() == 2); // the rule row is not a row
  CHECK(table.rows[1][1].front().text == "1 ms");
  CHECK(doc.blocks[7].kind == LessonBlock::Code);
  CHECK(doc.blocks[7].code == "kernel: 2 steps\n");
}

TEST_CASE("lessons: what a link does", "[lessons]") {
  LinkAction open = followLink("klx:open=samples/nvidia/saxpy.mlir&pass=ptx",
                               "/r/docs/lessons", "/r");
  REQUIRE(open.error.empty());
  REQUIRE(open.commands.size() == 4);
  auto *defines = std::get_if<cmd::SetDefines>(&open.commands[0]);
  REQUIRE(defines); // from the file
  CHECK(defines->defines.empty());
  CHECK(std::holds_alternative<cmd::SetTarget>(open.commands[1]));
  auto *file = std::get_if<cmd::OpenFile>(&open.commands[2]);
  REQUIRE(file);
  CHECK(file->path == "/r/samples/nvidia/saxpy.mlir");
  auto *step = std::get_if<cmd::SelectStepNamed>(&open.commands[3]);
  REQUIRE(step);
  CHECK(step->name == "ptx");

  LinkAction compare =
      followLink("klx:compare=stages=4", "/r/docs/lessons", "/r");
  REQUIRE(compare.commands.size() == 2);
  auto *variant = std::get_if<cmd::SetCompare>(&compare.commands[0]);
  REQUIRE(variant);
  CHECK(variant->variant == "stages=4");
  CHECK(std::holds_alternative<cmd::ShowPanel>(compare.commands[1]));
  LinkAction file2 =
      followLink("klx:compare=samples/nvidia/gather_direct.mlir", "", "/r");
  REQUIRE(std::get_if<cmd::SetCompare>(&file2.commands[0]));
  CHECK(std::get<cmd::SetCompare>(file2.commands[0]).variant ==
        "/r/samples/nvidia/gather_direct.mlir");
  LinkAction line = followLink("klx:line=76", "", "");
  REQUIRE(line.commands.size() == 1);
  auto *focus = std::get_if<cmd::FocusSourceLine>(&line.commands[0]);
  REQUIRE(focus);
  CHECK(focus->line == 76);
  CHECK(followLink("klx:line=x", "", "").error ==
        "line 'x' is not a line number");
  CHECK(followLink("klx:target=sm_42", "", "").error ==
        "unknown target 'sm_42'");
  CHECK(followLink("klx:frobnicate=1", "", "").error ==
        "unknown action 'frobnicate' in klx:frobnicate=1");
  // A link that draws a timeline draws the simulation, unless it asks for
  // the counterexample (one left on showed the wrong lanes).
  LinkAction simulated = followLink("klx:timeline=klx-to-nvgpu", "", "");
  REQUIRE(simulated.commands.size() == 2);
  auto *off = std::get_if<cmd::ShowCounterexample>(&simulated.commands[1]);
  REQUIRE(off);
  CHECK_FALSE(off->on);
  LinkAction counter =
      followLink("klx:timeline=klx-to-nvgpu&counterexample=1", "", "");
  REQUIRE(counter.commands.size() == 2);
  auto *on = std::get_if<cmd::ShowCounterexample>(&counter.commands[1]);
  REQUIRE(on);
  CHECK(on->on);
  LinkAction show = followLink("klx:show=warp roles", "", "");
  REQUIRE(show.commands.size() == 1);
  auto *shown = std::get_if<cmd::ShowPanel>(&show.commands[0]);
  REQUIRE(shown);
  CHECK(shown->pane == Pane::WarpRoles);
  CHECK(followLink("klx:show=Rnu", "", "").error ==
        "no pane is called 'Rnu'; the panes are Samples, Passes, Source, "
        "Warp roles, Steps, IR, Assembly, Lesson, Run, Sweep, Barrier "
        "timeline, Measured, Compare");
  // Pages, files and addresses.
  CHECK(followLink("08-gather_direct.md", "/r/docs/lessons", "/r").lesson ==
        "/r/docs/lessons/08-gather_direct.md");
  LinkAction sample =
      followLink("../../samples/a.mlir", "/r/docs/lessons", "/r");
  REQUIRE(std::get_if<cmd::OpenFile>(&sample.commands[0]));
  CHECK(std::get<cmd::OpenFile>(sample.commands[0]).path ==
        "/r/samples/a.mlir");
  LinkAction web = followLink("https://example.org", "", "");
  CHECK(web.commands.empty());
  CHECK(web.lesson.empty());
  CHECK(web.error.empty());
}

namespace {

/// Compiles each (file, -D, target) once.
class Runs {
public:
  const PipelineRun &get(const std::string &file, const Defines &defines,
                         const std::string &target) {
    std::string key = file + "|" + definesText(defines) + "|" + target;
    auto it = runs.find(key);
    if (it != runs.end())
      return it->second;
    CompileOptions options;
    options.emitGoal = EmitKind::MLIR;
    options.defines = defines;
    if (!target.empty())
      options.target = parseTarget(target);
    auto buffer = llvm::MemoryBuffer::getFile(file);
    REQUIRE(buffer);
    return runs[key] = runPipeline((*buffer)->getBuffer().str(), file, options);
  }

private:
  std::map<std::string, PipelineRun> runs;
};

bool hasStep(const PipelineRun &run, const std::string &name) {
  if (run.findSnapshot(name))
    return true;
  return llvm::is_contained(plannedStepNames(run.lowering), name);
}

bool hasRole(const PipelineRun &run, const std::string &name) {
  for (const Snapshot &s : run.snapshots)
    for (const RoleTree &tree : s.facts.roles)
      for (const Role &role : tree.roles)
        if (role.name == name)
          return true;
  return false;
}

unsigned lineCount(const std::string &file) {
  auto buffer = llvm::MemoryBuffer::getFile(file);
  REQUIRE(buffer);
  llvm::StringRef text = (*buffer)->getBuffer();
  return unsigned(text.count('\n') + (text.ends_with("\n") ? 0 : 1));
}

/// A learner clicking through the links of one page: the file they have
/// opened, with the -D values and target they have set, against which each
/// command is checked.
class PageWalk {
public:
  PageWalk(Runs &runs, const std::string &dir) : runs(runs), dir(dir) {}

  /// Follows SPAN if it is a link; how many commands it gave.
  unsigned visit(const LessonSpan &span) {
    if (span.kind != LessonSpan::Link)
      return 0;
    INFO("link [" << span.text << "](" << span.target << ")");
    LinkAction action = followLink(span.target, dir, test::sourcePath(""));
    CHECK(action.error.empty());
    if (!action.lesson.empty())
      CHECK(llvm::sys::fs::exists(action.lesson));
    unsigned actions = 0;
    for (const Command &c : action.commands) {
      ++actions;
      checkCommand(c, span.target);
    }
    return actions;
  }

private:
  // Each command of a link, checked against the run it would act on.
  void checkCommand(const Command &c, llvm::StringRef link) {
    if (auto *open = std::get_if<cmd::OpenFile>(&c)) {
      CHECK(llvm::sys::fs::exists(open->path));
      if (link.starts_with("klx:")) {
        file = open->path;
        defines.clear();
        target.clear();
      }
    } else if (auto *set = std::get_if<cmd::SetDefines>(&c)) {
      if (!set->defines.empty()) {
        std::string error;
        std::optional<VariantSpec> spec = parseVariantSpec(set->defines, error);
        INFO(error);
        REQUIRE(spec);
        CHECK(spec->file.empty());
        defines = spec->defines;
      } else if (!link.contains("open=")) {
        defines.clear();
      }
    } else if (auto *chosen = std::get_if<cmd::SetTarget>(&c)) {
      if (!link.contains("open="))
        target = chosen->name;
    } else if (auto *step = std::get_if<cmd::SelectStepNamed>(&c)) {
      REQUIRE_FALSE(file.empty());
      const PipelineRun &run = runs.get(file, defines, target);
      INFO("-D " << definesText(defines) << " target '" << target << "'");
      CHECK(run.succeeded());
      CHECK(hasStep(run, step->name));
    } else if (auto *line = std::get_if<cmd::FocusSourceLine>(&c)) {
      REQUIRE_FALSE(file.empty());
      CHECK(unsigned(line->line) <= lineCount(file));
    } else if (auto *role = std::get_if<cmd::FocusRole>(&c)) {
      CHECK(hasRole(runs.get(file, defines, target), role->name));
    } else if (auto *shown = std::get_if<cmd::ShowTimelineOf>(&c)) {
      CHECK(hasStep(runs.get(file, defines, target), shown->step));
    } else if (auto *counter = std::get_if<cmd::ShowCounterexample>(&c)) {
      // A page that shows a counterexample shows a kernel that has one.
      if (counter->on) {
        TimelineViews views =
            buildTimelineViews(runs.get(file, defines, target));
        CHECK(views.pick("").counterexample != nullptr);
      }
    } else if (auto *panel = std::get_if<cmd::ShowPanel>(&c)) {
      CHECK(llvm::is_contained({Pane::Steps, Pane::WarpRoles, Pane::Run,
                                Pane::Sweep, Pane::Lesson, Pane::Compare},
                               panel->pane));
    } else if (auto *sweep = std::get_if<cmd::OpenSweepResults>(&c)) {
      // The result a page shows is there and reads as a sweep.
      auto text = llvm::MemoryBuffer::getFile(sweep->path);
      REQUIRE(text);
      llvm::Expected<SweepResults> results =
          parseSweepResults((*text)->getBuffer());
      CHECK(!!results);
      if (results)
        CHECK(results->measured());
      else
        llvm::consumeError(results.takeError());
    } else if (auto *compare = std::get_if<cmd::SetCompare>(&c);
               compare && !compare->variant.empty()) {
      // (klx:compare= with nothing closes Compare mode.)
      std::string error;
      std::optional<VariantSpec> spec =
          parseVariantSpec(compare->variant, error);
      INFO(error);
      REQUIRE(spec);
      if (!spec->file.empty())
        CHECK(llvm::sys::fs::exists(spec->file));
      else
        CHECK(runs.get(file, applyVariant(defines, *spec), target).succeeded());
    }
  }

  Runs &runs;
  const std::string &dir;
  std::string file;
  Defines defines;
  std::string target;
};

} // namespace

TEST_CASE("lessons: every page, walked link by link", "[lessons]") {
  std::string dir = test::sourcePath("docs/lessons");
  std::vector<LessonEntry> lessons = scanLessons(dir);
  REQUIRE(lessons.size() == 15);
  Runs runs;
  for (const LessonEntry &entry : lessons) {
    INFO("page " << entry.path);
    auto buffer = llvm::MemoryBuffer::getFile(entry.path);
    REQUIRE(buffer);
    LessonDoc doc = parseLesson((*buffer)->getBuffer());
    CHECK_FALSE(doc.title.empty());
    REQUIRE_FALSE(doc.sample.empty());
    CHECK(llvm::sys::fs::exists(test::sourcePath(doc.sample)));
    PageWalk walk(runs, dir);
    unsigned actions = 0;
    for (const LessonBlock &block : doc.blocks) {
      for (const LessonSpan &span : block.spans)
        actions += walk.visit(span);
      for (const std::vector<LessonLine> &row : block.rows)
        for (const LessonLine &cell : row)
          for (const LessonSpan &span : cell)
            actions += walk.visit(span);
    }
    // Every page walks through its sample in the window.
    CHECK(actions >= 4);
  }
}
