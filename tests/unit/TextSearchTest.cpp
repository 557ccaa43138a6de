//===- TextSearchTest.cpp - Find, find across steps, diff rows ------------===//

#include "TestSupport.h"

#include "core/Background.h"
#include "klx/Pipeline/Compiler.h"
#include "views/DiffRows.h"
#include "views/Elide.h"
#include "views/RoleView.h"
#include "views/SourceFold.h"
#include "views/TextSearch.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace klx;
using namespace klx::app;

namespace {

Snapshot snapshotOf(const std::string &name, const std::string &text) {
  Snapshot snapshot;
  snapshot.name = name;
  snapshot.text = text;
  return snapshot;
}

} // namespace

TEST_CASE("Ctrl+F finds every occurrence, ignoring case", "[app][find]") {
  LineIndex text("%0 = arith.addi %a, %b\n"
                 "nothing here\n"
                 "ARITH.ADDI and arith.addi\n"
                 "aaaa");
  std::vector<TextMatch> matches = findMatches(text, "arith.addi");
  REQUIRE(matches.size() == 3);
  CHECK(matches[0].line == 0);
  CHECK(matches[0].column == 5);
  CHECK(matches[0].length == 10);
  CHECK(matches[1].line == 2);
  CHECK(matches[1].column == 0);
  CHECK(matches[2].line == 2);
  CHECK(matches[2].column == 15);
  // Occurrences do not overlap, and a limit holds.
  CHECK(findMatches(text, "aa").size() == 2);
  CHECK(findMatches(text, "a", 4).size() == 4);
  CHECK(findMatches(text, "").empty());
  CHECK(findMatches(text, "absent").empty());
}

TEST_CASE("A search across the steps says where a text appears and goes",
          "[app][find]") {
  PipelineRun run;
  run.snapshots.push_back(snapshotOf("parse", "klx.tile.mma\n"));
  run.snapshots.push_back(snapshotOf("klx-to-nvgpu", "nvgpu.warpgroup.mma\n"
                                                     "nvgpu.warpgroup.mma\n"));
  Snapshot failed = snapshotOf("broken", "");
  failed.failed = true;
  run.snapshots.push_back(failed);
  run.snapshots.push_back(snapshotOf("convert-nvgpu-to-nvvm", "nvvm.wgmma\n"));
  run.snapshots.push_back(
      snapshotOf("canonicalize", "Nvgpu.WarpGroup.mma reappears\n"));
  Snapshot report = snapshotOf("cubin", "ptxas info: 168 registers\n");
  report.kind = EmitKind::Cubin;
  run.snapshots.push_back(report);

  StepPresence presence = findInSteps(run, "nvgpu.warpgroup.mma");
  CHECK(presence.lines == std::vector<int>{0, 2, -1, 0, 1, -1});
  REQUIRE(presence.changes.size() == 3);
  CHECK(presence.changes[0].step == 1);
  CHECK(presence.changes[0].appears);
  CHECK(presence.changes[1].step == 3);
  CHECK_FALSE(presence.changes[1].appears);
  CHECK(presence.summary(run) ==
        "appears at klx-to-nvgpu, gone at convert-nvgpu-to-nvvm, appears at "
        "canonicalize");
  CHECK(findInSteps(run, "absent").summary(run) == "in no step");
}

TEST_CASE("A search across the steps of a real compile", "[app][find]") {
  std::string path = "samples/nvidia/gemm_ws_persistent.mlir";
  CompileOptions options;
  options.stopAfter = "convert-nvgpu-to-nvvm";
  PipelineRun run = runPipeline(test::readSource(path), path, options);
  REQUIRE(run.status == RunStatus::Success);
  StepPresence presence = findInSteps(run, "nvgpu.warpgroup.mma ");
  CHECK(presence.summary(run) ==
        "appears at klx-to-nvgpu, gone at convert-nvgpu-to-nvvm");
}

TEST_CASE("The words that changed inside a replaced line", "[app][diff]") {
  auto [left, right] = changedWords("%5 = arith.addi %3, %4 : i32",
                                    "%5 = arith.addi %3, %7 : i64");
  // "%4 : i32" and "%7 : i64": from the first differing word to the last.
  CHECK(left.begin == 20);
  CHECK(left.end == 28);
  CHECK(right.begin == 20);
  CHECK(right.end == 28);
  // Widened to whole words: "stages" and "stagez" differ in one letter.
  auto [a, b] = changedWords("x = stages + 1", "x = stagez + 1");
  CHECK(a.begin == 4);
  CHECK(a.end == 10);
  CHECK(b.end == 10);
  // Lines with little in common are simply replaced.
  auto [c, d] = changedWords("gpu.return", "%0 = nvvm.read.ptx.sreg.tid.x");
  CHECK(c.empty());
  CHECK(d.empty());

  LineIndex before("same\nold value 1\nsame2\n");
  LineIndex after("same\nold value 2\nsame2\n");
  LineDiff diff = diffLines(before, after);
  std::vector<ChangedSpan> spans = changedSpans(diff, before, after);
  REQUIRE(spans.size() == diff.lines.size());
  for (size_t row = 0; row < diff.lines.size(); ++row) {
    if (diff.lines[row].kind == DiffLine::Same)
      CHECK(spans[row].empty());
    else
      CHECK(spans[row].begin == 10);
  }
}

TEST_CASE("Unchanged runs fold around the changes", "[app][diff]") {
  std::string oldText, newText;
  for (int i = 0; i < 40; ++i) {
    std::string line = "line " + std::to_string(i) + "\n";
    oldText += line;
    newText += i == 20 ? "changed\n" : line;
  }
  LineIndex before(oldText), after(newText);
  LineDiff diff = diffLines(before, after);
  REQUIRE(diff.lines.size() == 41); // 39 same, one removed, one added

  std::vector<DiffRow> rows = foldUnchanged(diff, 3, {});
  // 17 folded before the three lines of context, the change, three lines
  // and 16 folded after.
  REQUIRE(rows.size() == 1 + 3 + 2 + 3 + 1);
  CHECK(rows[0].first == 0);
  CHECK(rows[0].folded == 17);
  CHECK(rows[1].first == 17);
  CHECK(rows[1].folded == 0);
  CHECK(rows.back().folded == 16);
  CHECK(rowShowing(rows, 5) == 0);
  CHECK(rowShowing(rows, 20) == 4);
  CHECK(rowShowing(rows, 40) == rows.size() - 1);

  // A fold the user opened stays open.
  std::vector<DiffRow> opened = foldUnchanged(diff, 3, {0});
  CHECK(opened.size() == rows.size() - 1 + 17);
  CHECK(opened[0].folded == 0);

  // Nothing folds when nothing changed.
  LineDiff same = diffLines(before, before);
  CHECK(foldUnchanged(same, 3, {}).size() == 40);
}

TEST_CASE("Side by side, a removed line shares its row with its replacement",
          "[app][diff]") {
  LineIndex before("a\nold 1\nold 2\nold 3\nz\n");
  LineIndex after("a\nnew 1\nnew 2\nz\n");
  LineDiff diff = diffLines(before, after);
  std::vector<DiffRow> rows = pairChanges(foldUnchanged(diff, 3, {}), diff);
  // a, (old 1 | new 1), (old 2 | new 2), (old 3 | ), z
  REQUIRE(rows.size() == 5);
  CHECK(diff.lines[rows[1].first].kind == DiffLine::Removed);
  REQUIRE(rows[1].paired != DiffRow::kNone);
  CHECK(after.line(diff.lines[rows[1].paired].right) == "new 1");
  CHECK(after.line(diff.lines[rows[2].paired].right) == "new 2");
  CHECK(rows[3].paired == DiffRow::kNone);
  // Every line of the diff is on some row, and rowShowing finds it.
  for (size_t line = 0; line < diff.lines.size(); ++line) {
    const DiffRow &row = rows[rowShowing(rows, line)];
    CHECK((row.first == line || row.paired == line));
  }
}

TEST_CASE("Rows dragged over in a diff copy as unified lines or one column",
          "[app][diff]") {
  std::string oldText = "a\nold 1\nold 2\nz\n", newText = "a\nnew 1\nz\n";
  for (int i = 0; i < 10; ++i) { // a long unchanged tail that folds
    oldText += "same " + std::to_string(i) + "\n";
    newText += "same " + std::to_string(i) + "\n";
  }
  std::shared_ptr<const DiffModel> model = buildDiffModel(oldText, newText, {});
  std::vector<DiffRow> inlineRows = foldUnchanged(model->lines, 1, {});
  // a, -old 1, -old 2, +new 1, z, same 0, then the rest folded.
  CHECK(copiedRows(*model, inlineRows, 0, 3, DiffSide::Unified) ==
        " a\n-old 1\n-old 2\n+new 1\n");
  // Either order; a folded row gives the lines it hides.
  std::string all = copiedRows(*model, inlineRows, inlineRows.size() - 1, 0,
                               DiffSide::Unified);
  CHECK(llvm::StringRef(all).ends_with(" same 8\n same 9\n"));
  CHECK(std::count(all.begin(), all.end(), '\n') ==
        long(model->lines.lines.size()));

  // Side by side, a drag in one column copies that column's text.
  std::vector<DiffRow> paired = pairChanges(inlineRows, model->lines);
  CHECK(copiedRows(*model, paired, 0, 3, DiffSide::Before) ==
        "a\nold 1\nold 2\nz\n");
  CHECK(copiedRows(*model, paired, 0, 3, DiffSide::After) == "a\nnew 1\nz\n");
}

TEST_CASE("A role has one colour, by its name, in every pane and step",
          "[app][roles]") {
  CHECK(roleColourSlot("") == -1);
  CHECK(roleColourSlot("producer") == roleColourSlot("producer_a"));
  CHECK(roleColourSlot("consumer") == roleColourSlot("consumer0"));
  // Siblings differ, and no consumer looks like a producer.
  std::set<int> slots;
  for (const char *name :
       {"producer", "producer_b", "consumer0", "consumer1", "consumer2"})
    slots.insert(roleColourSlot(name));
  CHECK(slots.size() == 5);
  // Lanes named after threads differ from their neighbours.
  CHECK(roleColourSlot("thread 0") != roleColourSlot("threads 1-127"));
  // Any other name: a slot that does not change between runs.
  int all = roleColourSlot("all");
  CHECK(all >= 0);
  CHECK(all < 6);
  CHECK(roleColourSlot("all") == all);
}

TEST_CASE("The RUN/CHECK header folds out of the editor and edits keep it",
          "[app][fold]") {
  std::string text = "// Lesson: a kernel.\n"          // 1
                     "//\n"                            // 2
                     "// RUN: klx compile %s\n"        // 3
                     "// PTX: .entry k\n"              // 4
                     "// A note between checks.\n"     // 5
                     "// PTX-DAG: mbarrier.init\n"     // 6
                     "\n"                              // 7
                     "module {\n"                      // 8
                     "  // CHECK: not in the header\n" // 9
                     "}\n";
  std::optional<LineRange> block = directiveBlock(text);
  REQUIRE(block);
  CHECK(block->first == 2);
  CHECK(block->count == 4);
  CHECK_FALSE(directiveBlock("// RUN: one\nmodule {}\n"));
  CHECK_FALSE(directiveBlock("module {}\n// RUN: a\n// RUN: b\n// RUN: c\n"));

  FoldedText fold(text, *block);
  CHECK(fold.visible() == "// Lesson: a kernel.\n//\n\nmodule {\n"
                          "  // CHECK: not in the header\n}\n");
  CHECK(fold.full() == text);
  CHECK(fold.linesBefore() == 2);
  CHECK(fold.fileLine(2) == 2);
  CHECK(fold.fileLine(3) == 7);
  CHECK(fold.visibleLine(8) == 4u);
  CHECK_FALSE(fold.visibleLine(4));

  // Typing above the fold moves it down; below it leaves it.
  fold.edit("// Lesson: a kernel, edited.\n//\n\nmodule {\n"
            "  // CHECK: not in the header\n}\n");
  CHECK(fold.full() == "// Lesson: a kernel, edited.\n//\n// RUN: klx compile "
                       "%s\n// PTX: .entry k\n// A note between checks.\n// "
                       "PTX-DAG: mbarrier.init\n\nmodule {\n  // CHECK: not in "
                       "the header\n}\n");
  fold.edit("// a new first line\n" + fold.visible());
  CHECK(fold.linesBefore() == 3);
  CHECK(llvm::StringRef(fold.full()).starts_with("// a new first line\n"));
  std::string visible = fold.visible();
  fold.edit(visible.substr(0, visible.size() - 2) + "  gpu.module @m {}\n}\n");
  CHECK(llvm::StringRef(fold.full()).ends_with("gpu.module @m {}\n}\n"));
  CHECK(llvm::StringRef(fold.full()).contains("// RUN: klx compile %s\n"));

  // Deleting everything visible keeps the folded lines, whole.
  fold.edit("");
  CHECK(fold.full() == "// RUN: klx compile %s\n// PTX: .entry k\n// A note "
                       "between checks.\n// PTX-DAG: mbarrier.init\n");
  // A line typed where the fold is goes beside it, never into it.
  fold.edit("x");
  CHECK(fold.full().find("x") != std::string::npos);
  CHECK(llvm::StringRef(fold.full()).contains("// RUN: klx compile %s\n"));
}

TEST_CASE("Work done off the GUI thread: the newest request wins",
          "[app][background]") {
  std::atomic<int> wakes{0};
  background::setWake([&] { ++wakes; });
  Background<std::string> job;
  CHECK_FALSE(job.get());
  std::atomic<bool> release{false};
  // A slow first request, overtaken by a quick second one.
  job.request(1, [&] {
    while (!release)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return std::make_shared<const std::string>("first");
  });
  job.request(2, [] { return std::make_shared<const std::string>("second"); });
  for (int i = 0; i < 5000 && !job.get(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(job.get());
  CHECK(*job.get() == "second");
  release = true;
  for (int i = 0; i < 5000 && background::pending() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(background::pending() == 0);
  CHECK(*job.get() == "second"); // the late first result is dropped
  CHECK(wakes >= 1);
  // Asking again for the key it holds starts nothing.
  job.request(2, [] { return std::make_shared<const std::string>("again"); });
  CHECK(background::pending() == 0);
  CHECK(*job.get() == "second");
  background::setWake({});

  // A diff model owns its texts: the strings it was built from may go.
  std::shared_ptr<const DiffModel> model;
  {
    std::string before = "a\nb\nc\n", after = "a\nB\nc\n";
    model = buildDiffModel(before, after, {});
  }
  CHECK(model->lines.added == 1);
  CHECK(model->lines.removed == 1);
  CHECK(model->hunks.size() == 1);
  CHECK(model->rowText(model->hunks.front()) == "b");
}

TEST_CASE("Step names too wide for the pane keep both ends", "[app][elide]") {
  // A monospace pane of N characters.
  auto within = [](size_t n) {
    return [n](std::string_view s) {
      size_t characters = 0;
      for (unsigned char c : s)
        characters += (c & 0xC0) != 0x80;
      return characters <= n;
    };
  };
  std::string_view ellipsis = "\xE2\x80\xA6"; // U+2026, one character
  CHECK(elideMiddle("cse", ellipsis, within(14)) == "cse");
  // The script's ops differ at the end, and stay apart when cut.
  std::string match =
      elideMiddle("transform.structured.match", ellipsis, within(14));
  std::string forall = elideMiddle("transform.structured.tile_using_forall",
                                   ellipsis, within(14));
  std::string loops =
      elideMiddle("transform.structured.tile_using_for", ellipsis, within(14));
  CHECK(match == "transfo\xE2\x80\xA6"
                 ".match");
  CHECK(forall == "transf\xE2\x80\xA6"
                  "_forall");
  CHECK(loops == "transform\xE2\x80\xA6"
                 "_for");
  CHECK(within(14)(forall));
  // Whole words where they fit: a pass name is not cut mid-word.
  CHECK(elideMiddle("convert-nvgpu-to-nvvm", ellipsis, within(16)) ==
        "convert\xE2\x80\xA6"
        "-to-nvvm");
  CHECK(elideMiddle("canonicalize#2", ellipsis, within(12)) ==
        "canonical\xE2\x80\xA6"
        "#2");
  // A module label keeps its module, whole where it fits.
  CHECK(elideMiddle("convert-gpu-to-nvvm @main_kernel_0", "..", within(20)) ==
        "con.. @main_kernel_0");
  CHECK(elideMiddle("convert-gpu-to-nvvm @main_kernel_0", "..", within(16)) ==
        "conv..n_kernel_0");
  // Cuts fall between UTF-8 characters: no half character is left.
  std::string accents = elideMiddle("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
                                    "\xC3\xA9",
                                    "..", within(5));
  CHECK(accents == "\xC3\xA9..\xC3\xA9\xC3\xA9");
  // Nothing fits but the ellipsis.
  CHECK(elideMiddle("transform.structured.match", "..", within(3)) == "..");
}
