//===- Lesson.cpp - Lesson pages, read for the Lesson pane ----------------===//

#include "Lesson.h"

#include "klx/Support/Stages.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>

using namespace klx;
using namespace klx::app;

namespace {

/// Inline Markdown: `code`, [text](target), and ** or __ markers dropped.
LessonLine parseInline(llvm::StringRef text) {
  LessonLine line;
  std::string plain;
  auto flush = [&] {
    if (!plain.empty())
      line.push_back({LessonSpan::Text, plain, ""});
    plain.clear();
  };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '`') {
      size_t end = text.find('`', i + 1);
      if (end != llvm::StringRef::npos) {
        flush();
        line.push_back({LessonSpan::Code, text.slice(i + 1, end).str(), ""});
        i = end + 1;
        continue;
      }
    }
    if (c == '[') {
      size_t close = text.find("](", i + 1);
      size_t end =
          close == llvm::StringRef::npos ? close : text.find(')', close + 2);
      if (end != llvm::StringRef::npos) {
        flush();
        std::string label = text.slice(i + 1, close).str();
        label.erase(std::remove(label.begin(), label.end(), '`'), label.end());
        line.push_back(
            {LessonSpan::Link, label, text.slice(close + 2, end).str()});
        i = end + 1;
        continue;
      }
    }
    if ((c == '*' || c == '_') && i + 1 < text.size() && text[i + 1] == c) {
      i += 2;
      continue;
    }
    // *emphasis*: the markers go when they hug a word on both ends.
    if (c == '*' && i + 1 < text.size() && text[i + 1] != ' ') {
      size_t close = text.find('*', i + 1);
      if (close != llvm::StringRef::npos && text[close - 1] != ' ') {
        plain += text.slice(i + 1, close).str();
        i = close + 1;
        continue;
      }
    }
    plain += c;
    ++i;
  }
  flush();
  return line;
}

bool isNumbered(llvm::StringRef line, std::string &number,
                llvm::StringRef &rest) {
  size_t digits = 0;
  while (digits < line.size() && llvm::isDigit(line[digits]))
    ++digits;
  if (digits == 0 || !line.substr(digits).starts_with(". "))
    return false;
  number = line.take_front(digits).str();
  rest = line.drop_front(digits + 2);
  return true;
}

std::vector<LessonLine> tableCells(llvm::StringRef line) {
  line = line.trim();
  line.consume_front("|");
  line.consume_back("|");
  std::vector<LessonLine> cells;
  for (llvm::StringRef cell : llvm::split(line, '|'))
    cells.push_back(parseInline(cell.trim()));
  return cells;
}

bool isTableRule(llvm::StringRef line) {
  line = line.trim();
  return line.starts_with("|") &&
         line.find_first_not_of("|-: ") == llvm::StringRef::npos;
}

/// The page's sample: the first klx:open link, else the first link to a
/// .mlir file from the page's folder (docs/lessons, two below the root).
std::string sampleOf(const LessonDoc &doc) {
  std::string linked;
  auto find = [&](const LessonLine &spans) {
    for (const LessonSpan &span : spans) {
      llvm::StringRef target = span.target;
      if (span.kind != LessonSpan::Link)
        continue;
      if (linked.empty() && target.ends_with(".mlir") &&
          target.starts_with("../../"))
        linked = target.drop_front(6).str();
      if (!target.consume_front("klx:"))
        continue;
      for (llvm::StringRef action : llvm::split(target, '&'))
        if (action.consume_front("open="))
          return action.str();
    }
    return std::string();
  };
  for (const LessonBlock &block : doc.blocks) {
    if (std::string opened = find(block.spans); !opened.empty())
      return opened;
    for (const std::vector<LessonLine> &row : block.rows)
      for (const LessonLine &cell : row)
        if (std::string opened = find(cell); !opened.empty())
          return opened;
  }
  return linked;
}

} // namespace

LessonDoc klx::app::parseLesson(llvm::StringRef markdown) {
  LessonDoc doc;
  llvm::SmallVector<llvm::StringRef> lines;
  markdown.split(lines, '\n');
  std::string paragraph;
  LessonBlock *item = nullptr; // the list item continuation lines join
  std::string itemText;        // its words so far, read again as one
  auto endParagraph = [&] {
    if (!paragraph.empty())
      doc.blocks.push_back(
          {LessonBlock::Paragraph, 0, "", parseInline(paragraph), "", {}});
    paragraph.clear();
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef raw = lines[i].rtrim("\r");
    llvm::StringRef line = raw.trim();
    if (line.starts_with("```")) {
      endParagraph();
      item = nullptr;
      LessonBlock code{LessonBlock::Code, 0, "", {}, "", {}};
      for (++i; i < lines.size() && !lines[i].trim().starts_with("```"); ++i)
        code.code += lines[i].rtrim("\r").str() + "\n";
      doc.blocks.push_back(std::move(code));
      continue;
    }
    if (line.empty()) {
      endParagraph();
      item = nullptr;
      continue;
    }
    if (line.starts_with("#")) {
      endParagraph();
      item = nullptr;
      int level = int(line.find_first_not_of('#'));
      std::string text = line.drop_front(level).trim().str();
      if (level == 1 && doc.title.empty()) {
        doc.title = text;
        doc.title.erase(std::remove(doc.title.begin(), doc.title.end(), '`'),
                        doc.title.end());
      }
      doc.blocks.push_back(
          {LessonBlock::Heading, level, "", parseInline(text), "", {}});
      continue;
    }
    if (line.starts_with("|")) {
      endParagraph();
      item = nullptr;
      LessonBlock table{LessonBlock::Table, 0, "", {}, "", {}};
      for (; i < lines.size() && lines[i].trim().starts_with("|"); ++i)
        if (!isTableRule(lines[i]))
          table.rows.push_back(tableCells(lines[i]));
      --i;
      doc.blocks.push_back(std::move(table));
      continue;
    }
    std::string number;
    llvm::StringRef rest;
    bool bullet = line.starts_with("- ") || line.starts_with("* ");
    if (bullet || isNumbered(line, number, rest)) {
      endParagraph();
      itemText = (bullet ? line.drop_front(2) : rest).str();
      doc.blocks.push_back(
          {bullet ? LessonBlock::Bullet : LessonBlock::Numbered,
           0,
           number,
           parseInline(itemText),
           "",
           {}});
      item = &doc.blocks.back();
      continue;
    }
    // An indented line under a list item continues it: the item is read
    // again whole, so that `code` or a [link] may run over the line break.
    if (item && (raw.starts_with(" ") || raw.starts_with("\t"))) {
      itemText += " " + line.str();
      item->spans = parseInline(itemText);
      continue;
    }
    item = nullptr;
    if (!paragraph.empty())
      paragraph += ' ';
    paragraph += line.str();
  }
  endParagraph();
  doc.sample = sampleOf(doc);
  return doc;
}

std::vector<LessonEntry> klx::app::scanLessons(const std::string &dir) {
  std::vector<LessonEntry> lessons;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.ends_with(".md") || name.size() < 4 || !llvm::isDigit(name[0]) ||
        !llvm::isDigit(name[1]) || name[2] != '-')
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (!buffer)
      continue;
    LessonDoc doc = parseLesson((*buffer)->getBuffer());
    lessons.push_back(
        {it->path(), name.take_front(2).str(), doc.title, doc.sample});
  }
  llvm::sort(lessons, [](const LessonEntry &a, const LessonEntry &b) {
    return a.path < b.path;
  });
  return lessons;
}

std::string klx::app::defaultLessonsDir() {
  if (const char *dir = std::getenv("KLX_LESSONS_DIR"))
    return dir;
  return KLX_SOURCE_DIR "/docs/lessons";
}

static std::string resolve(llvm::StringRef base, llvm::StringRef path) {
  if (llvm::sys::path::is_absolute(path))
    return path.str();
  llvm::SmallString<256> full(base);
  llvm::sys::path::append(full, path);
  llvm::sys::path::remove_dots(full, /*remove_dot_dot=*/true);
  return std::string(full);
}

LinkAction klx::app::followLink(llvm::StringRef target,
                                llvm::StringRef lessonDir,
                                llvm::StringRef root) {
  LinkAction action;
  if (!target.consume_front("klx:")) {
    llvm::StringRef path = target.split('#').first;
    if (path.contains("://") || path.empty())
      return action; // an address: the pane shows it
    if (path.ends_with(".md"))
      action.lesson = resolve(lessonDir, path);
    else if (path.ends_with(".mlir"))
      action.commands.push_back(cmd::OpenFile{resolve(lessonDir, path)});
    return action;
  }
  // A link that draws a timeline draws the simulation unless it asks for
  // the counterexample: one left on (--counterexample, an earlier link)
  // showed the wrong lanes.
  bool timeline = false, counterexample = false;
  for (llvm::StringRef part : llvm::split(target, '&')) {
    auto [name, value] = part.split('=');
    timeline |= name == "timeline";
    counterexample |= name == "counterexample";
    if (name == "open") {
      // A page's walk starts from the file as written.
      action.commands.push_back(cmd::SetDefines{});
      action.commands.push_back(cmd::SetTarget{});
      action.commands.push_back(cmd::OpenFile{resolve(root, value)});
    } else if (name == "define") {
      action.commands.push_back(cmd::SetDefines{value.str()});
    } else if (name == "target") {
      if (!value.empty() && !parseTarget(value)) {
        action.error = "unknown target '" + value.str() + "'";
        return action;
      }
      action.commands.push_back(cmd::SetTarget{value.str()});
    } else if (name == "pass") {
      action.commands.push_back(cmd::SelectStepNamed{value.str()});
    } else if (name == "line") {
      unsigned line = 0;
      if (value.getAsInteger(10, line) || line == 0) {
        action.error = "line '" + value.str() + "' is not a line number";
        return action;
      }
      action.commands.push_back(cmd::FocusSourceLine{int(line)});
    } else if (name == "role") {
      action.commands.push_back(cmd::FocusRole{value.str()});
    } else if (name == "show") {
      std::optional<Pane> pane = paneNamed(value);
      if (!pane) {
        action.error = "no pane is called '" + value.str() +
                       "'; the panes are " + paneTitles();
        return action;
      }
      action.commands.push_back(cmd::ShowPanel{*pane});
    } else if (name == "timeline") {
      action.commands.push_back(cmd::ShowTimelineOf{value.str()});
    } else if (name == "counterexample") {
      action.commands.push_back(cmd::ShowCounterexample{value != "0"});
    } else if (name == "sweep") {
      action.commands.push_back(cmd::OpenSweepResults{resolve(root, value)});
    } else if (name == "compare") {
      std::string variant = value.str();
      if (value.ends_with(".mlir") || value.contains('/'))
        variant = resolve(root, value);
      action.commands.push_back(cmd::SetCompare{variant});
      // klx:compare= closes it: nothing to bring forward.
      if (!variant.empty())
        action.commands.push_back(cmd::ShowPanel{Pane::Compare});
    } else {
      action.error =
          "unknown action '" + name.str() + "' in klx:" + target.str();
      return action;
    }
  }
  if (timeline && !counterexample)
    action.commands.push_back(cmd::ShowCounterexample{false});
  return action;
}

LinkAction klx::app::followLinkFrom(llvm::StringRef target,
                                    llvm::StringRef pagePath) {
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(pagePath));
  llvm::SmallString<256> root(dir);
  llvm::sys::path::append(root, "..", "..");
  llvm::sys::path::remove_dots(root, /*remove_dot_dot=*/true);
  return followLink(target, dir, root);
}

namespace {
/// The source lines `text` names: "line 52", "lines 78-84" (each line of
/// the range); a line after "IR" is the IR's.
std::vector<unsigned> namedSourceLines(llvm::StringRef text) {
  std::vector<unsigned> lines;
  for (size_t at = text.find("line"); at != llvm::StringRef::npos;
       at = text.find("line", at + 4)) {
    llvm::StringRef before = text.take_front(at);
    // A word of its own: "timeline 14288" names no line.
    if (!before.empty() && llvm::isAlpha(before.back()))
      continue;
    before = before.rtrim();
    bool ir = before.ends_with("IR") || before.ends_with("IR's");
    llvm::StringRef rest = text.drop_front(at + 4);
    bool plural = rest.consume_front("s");
    if (!rest.consume_front(" ") || ir)
      continue;
    unsigned first = 0, last = 0;
    if (rest.consumeInteger(10, first) || first == 0)
      continue;
    last = first;
    if (plural && (rest.consume_front("-") || rest.consume_front(" to ")))
      if (rest.consumeInteger(10, last) || last < first || last > first + 200)
        last = first;
    for (unsigned line = first; line <= last; ++line)
      if (!llvm::is_contained(lines, line))
        lines.push_back(line);
  }
  return lines;
}

/// The words before a "Look at" sentence's colon as a pane: "the IR",
/// "the Barrier timeline", "the Assembly pane", "the Warp roles tab",
/// "the IR pane, which shows the PTX here", "the Compare window".
std::optional<Pane> lookAtPane(llvm::StringRef words) {
  // What follows a comma or a parenthesis says more about the pane.
  words = words.take_until([](char c) { return c == ',' || c == '('; });
  words = words.trim();
  words.consume_front("the ");
  if (!words.consume_back(" pane") && !words.consume_back(" window"))
    words.consume_back(" tab");
  return paneNamed(words.trim());
}

/// Reads the "Look at ...: `a`, `b`." sentences of a step's spans: each
/// takes the code spans up to the next.
void readLookAt(const LessonLine &spans, LessonStep &step) {
  constexpr llvm::StringLiteral kLookAt = "Look at ";
  for (const LessonSpan &span : spans) {
    if (span.kind == LessonSpan::Code && !step.lookAt.empty())
      step.lookAt.back().text.push_back(span.text);
    if (span.kind != LessonSpan::Text)
      continue;
    llvm::StringRef text = span.text;
    for (size_t at = text.find(kLookAt); at != llvm::StringRef::npos;
         at = text.find(kLookAt, at + kLookAt.size())) {
      // "Look at the IR: `a`." or "Look at the Steps tab."
      llvm::StringRef words =
          text.drop_front(at + kLookAt.size()).take_until([](char c) {
            return c == ':' || c == '.';
          });
      std::optional<Pane> pane = lookAtPane(words);
      if (!pane) {
        step.lookAtError = "step " + step.number + ": 'Look at " + words.str() +
                           "' names no pane (" + paneTitles() + ")";
        return;
      }
      step.lookAt.push_back(LookAt{*pane, {}});
    }
  }
  for (const LookAt &look : step.lookAt)
    if (!look.text.empty() && !paneShowsNamedText(look.pane))
      step.lookAtError = "step " + step.number + ": the " +
                         paneTitle(look.pane).str() +
                         " pane is not searched for text in backticks";
}
} // namespace

bool klx::app::paneShowsNamedText(Pane pane) {
  return pane == Pane::Source || pane == Pane::IR || pane == Pane::Assembly ||
         pane == Pane::Timeline || pane == Pane::Passes ||
         pane == Pane::WarpRoles || pane == Pane::Steps;
}

std::vector<LessonStep> klx::app::lessonSteps(const LessonDoc &doc) {
  std::vector<LessonStep> steps;
  for (size_t i = 0; i < doc.blocks.size(); ++i) {
    const LessonBlock &block = doc.blocks[i];
    if (block.kind != LessonBlock::Numbered)
      continue;
    LessonStep step;
    step.block = i;
    step.number = block.number;
    std::string words;
    for (const LessonSpan &span : block.spans) {
      if (span.kind == LessonSpan::Link && step.link.empty() &&
          llvm::StringRef(span.target).starts_with("klx:"))
        step.link = span.target;
      words += span.text;
    }
    if (step.link.empty())
      continue;
    step.sourceLines = namedSourceLines(words);
    readLookAt(block.spans, step);
    steps.push_back(std::move(step));
  }
  return steps;
}
