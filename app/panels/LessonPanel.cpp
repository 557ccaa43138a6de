//===- LessonPanel.cpp - The lesson page of the open sample ---------------===//
//
// Renders docs/lessons/NN-name.md (core/Lesson: headings, paragraphs,
// lists, code, tables), words flowed to the pane's width. Links with a
// `klx:` target act on the window (open a file, set -D values, select a
// pass, mark a line, open Compare), links to other pages open them here;
// previous and next go through the pages in order, opening each sample.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "core/Lesson.h"
#include "widgets/Palette.h"

#include "llvm/Support/Path.h"

#include <cstring>
#include <string>
#include <vector>

namespace klx::app {
namespace {

class LessonPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Lesson; }

  void draw(const AppState &state, CommandQueue &commands) override {
    const LessonState &lesson = state.lesson;
    drawChooser(lesson, commands);
    if (!lesson.error.empty())
      ImGui::TextColored(palette::toVec4(palette::theme().errorText), "%s",
                         lesson.error.c_str());
    if (!lesson.doc) {
      ImGui::TextWrapped("No lesson for this file. Pick one above: each "
                         "opens its sample and walks through it.");
      return;
    }
    // Read once per page, not every frame.
    if (stepsOf != lesson.doc) {
      stepsOf = lesson.doc;
      steps = lessonSteps(*lesson.doc);
    }
    drawStepButtons(lesson, steps, commands);
    ImGui::Separator();
    ImGui::BeginChild("page");
    if (shownPath != lesson.path) {
      shownPath = lesson.path;
      ImGui::SetScrollY(0);
    }
    // The block of the step walked to: marked, and scrolled to once.
    currentBlock = lesson.step >= 0 && lesson.step < int(steps.size())
                       ? int(steps[size_t(lesson.step)].block)
                       : -1;
    pageDir = llvm::sys::path::parent_path(lesson.path).str();
    llvm::SmallString<256> root(pageDir);
    llvm::sys::path::append(root, "..", "..");
    llvm::sys::path::remove_dots(root, /*remove_dot_dot=*/true);
    rootDir = std::string(root);
    for (size_t i = 0; i < lesson.doc->blocks.size(); ++i) {
      ImGui::PushID(int(i));
      if (int(i) == currentBlock && scrolledTo != currentBlock) {
        ImGui::SetScrollHereY(0.2f);
        scrolledTo = currentBlock;
      }
      drawBlock(lesson.doc->blocks[i], commands, int(i) == currentBlock);
      ImGui::PopID();
    }
    if (currentBlock < 0)
      scrolledTo = -1;
    ImGui::EndChild();
  }

private:
  void drawChooser(const LessonState &lesson, CommandQueue &commands) {
    int count = int(lesson.lessons.size());
    auto open = [&](int index) {
      commands.push(cmd::OpenLesson{"", index});
      if (!lesson.lessons[index].sample.empty())
        follow("klx:open=" + lesson.lessons[index].sample, commands);
    };
    bool canBack = lesson.current > 0, canForward = lesson.current + 1 < count;
    if (!canBack)
      ImGui::BeginDisabled();
    if (ImGui::ArrowButton("previous", ImGuiDir_Left))
      open(lesson.current - 1);
    if (!canBack)
      ImGui::EndDisabled();
    ImGui::SameLine();
    if (!canForward)
      ImGui::BeginDisabled();
    if (ImGui::ArrowButton("next", ImGuiDir_Right))
      open(lesson.current < 0 ? 0 : lesson.current + 1);
    if (!canForward)
      ImGui::EndDisabled();
    ImGui::SameLine();
    std::string current = lesson.current >= 0
                              ? lesson.lessons[lesson.current].number + " " +
                                    lesson.lessons[lesson.current].title
                          : lesson.doc ? lesson.doc->title
                                       : std::string("choose a lesson");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##lesson", current.c_str())) {
      for (int i = 0; i < count; ++i) {
        std::string label =
            lesson.lessons[i].number + " " + lesson.lessons[i].title;
        if (ImGui::Selectable(label.c_str(), i == lesson.current))
          open(i);
      }
      ImGui::EndCombo();
    }
  }

  int currentBlock = -1, scrolledTo = -1;
  /// The steps of the page `stepsOf`.
  std::shared_ptr<const LessonDoc> stepsOf;
  std::vector<LessonStep> steps;

  void follow(const std::string &target, CommandQueue &commands) {
    LinkAction action = followLink(target, pageDir, rootDir);
    for (Command &command : action.commands)
      commands.push(std::move(command));
    if (!action.lesson.empty())
      commands.push(cmd::OpenLesson{action.lesson});
  }

  /// Previous and next step of the page (Alt+Left, Alt+Right), and where
  /// the walk is.
  void drawStepButtons(const LessonState &lesson,
                       const std::vector<LessonStep> &steps,
                       CommandQueue &commands) {
    if (steps.empty())
      return;
    int at = lesson.step;
    ImGui::BeginDisabled(at <= 0);
    if (ImGui::SmallButton("< step"))
      commands.push(cmd::LessonStepBy{-1});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(at + 1 >= int(steps.size()));
    if (ImGui::SmallButton(at < 0 ? "start: step 1 >" : "next step >"))
      commands.push(cmd::LessonStepBy{+1});
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (at >= 0)
      ImGui::TextDisabled("step %s of %zu", steps[size_t(at)].number.c_str(),
                          steps.size());
    else
      ImGui::TextDisabled("%zu steps (Alt+Right)", steps.size());
  }

  void drawBlock(const LessonBlock &block, CommandQueue &commands,
                 bool current = false) {
    switch (block.kind) {
    case LessonBlock::Heading:
      if (block.level == 1)
        ImGui::PushStyleColor(ImGuiCol_Text,
                              palette::toVec4(palette::theme().headingText));
      else
        ImGui::PushStyleColor(ImGuiCol_Text,
                              palette::toVec4(palette::theme().brightText));
      ImGui::Spacing();
      flow(block.spans, commands);
      ImGui::PopStyleColor();
      if (block.level <= 2)
        ImGui::Separator();
      break;
    case LessonBlock::Paragraph:
      ImGui::Spacing();
      flow(block.spans, commands);
      break;
    case LessonBlock::Bullet:
    case LessonBlock::Numbered: {
      std::string marker =
          block.kind == LessonBlock::Bullet ? "-" : block.number + ".";
      float indent = ImGui::CalcTextSize("00. ").x;
      if (current) // the step walked to
        ImGui::TextColored(palette::toVec4(palette::theme().headingText), "%s",
                           (">" + marker).c_str());
      else
        ImGui::TextDisabled("%s", marker.c_str());
      ImGui::SameLine(indent);
      ImGui::Indent(indent);
      flow(block.spans, commands);
      ImGui::Unindent(indent);
      break;
    }
    case LessonBlock::Code: {
      ImGui::Spacing();
      ImVec2 size = ImGui::CalcTextSize(block.code.c_str());
      ImGui::PushStyleColor(ImGuiCol_ChildBg,
                            palette::toVec4(palette::theme().codeBackground));
      ImGui::BeginChild("code",
                        ImVec2(0, size.y +
                                      ImGui::GetStyle().WindowPadding.y * 2 +
                                      ImGui::GetStyle().ScrollbarSize),
                        false, ImGuiWindowFlags_HorizontalScrollbar);
      ImGui::PushStyleColor(ImGuiCol_Text,
                            palette::toVec4(palette::theme().codeText));
      ImGui::TextUnformatted(block.code.c_str());
      ImGui::PopStyleColor();
      ImGui::EndChild();
      ImGui::PopStyleColor();
      break;
    }
    case LessonBlock::Table:
      drawTable(block, commands);
      break;
    }
  }

  void drawTable(const LessonBlock &block, CommandQueue &commands) {
    if (block.rows.empty())
      return;
    int columns = int(block.rows.front().size());
    ImGui::Spacing();
    if (!ImGui::BeginTable("table", columns,
                           ImGuiTableFlags_Borders |
                               ImGuiTableFlags_SizingStretchProp))
      return;
    for (size_t r = 0; r < block.rows.size(); ++r) {
      ImGui::TableNextRow();
      for (int c = 0; c < columns && c < int(block.rows[r].size()); ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::PushID(int(r * 64 + c));
        if (r == 0)
          ImGui::PushStyleColor(ImGuiCol_Text,
                                palette::toVec4(palette::theme().brightText));
        flow(block.rows[r][c], commands);
        if (r == 0)
          ImGui::PopStyleColor();
        ImGui::PopID();
      }
    }
    ImGui::EndTable();
  }

  /// Lays the spans out word by word, wrapping at the region's right edge;
  /// a link's words are clickable and underlined under the pointer.
  void flow(const LessonLine &spans, CommandQueue &commands) {
    float left = ImGui::GetCursorPosX();
    float right = left + ImGui::GetContentRegionAvail().x;
    float space = ImGui::CalcTextSize(" ").x;
    bool first = true, spaceBefore = false;
    for (size_t s = 0; s < spans.size(); ++s) {
      const LessonSpan &span = spans[s];
      llvm::StringRef text = span.text;
      size_t i = 0;
      while (i < text.size()) {
        if (text[i] == ' ') {
          spaceBefore = true;
          ++i;
          continue;
        }
        size_t end = text.find(' ', i);
        if (end == llvm::StringRef::npos)
          end = text.size();
        std::string whole = text.slice(i, end).str();
        i = end;
        // A word wider than the pane (a long PTX instruction at 150%) is
        // broken after a '.' or '_' rather than cut at the edge.
        std::vector<std::string> pieces = splitToFit(whole, right - left);
        for (size_t p = 0; p < pieces.size(); ++p) {
          const std::string &word = pieces[p];
          float width = ImGui::CalcTextSize(word.c_str()).x;
          if (!first) {
            ImGui::SameLine(0, spaceBefore ? space : 0);
            if (p > 0 || ImGui::GetCursorPosX() + width > right) {
              ImGui::NewLine();
              ImGui::SetCursorPosX(left);
            }
          }
          first = false;
          spaceBefore = false;
          ImGui::PushID(int(s * 4096 + i * 8 + p));
          drawWord(span, word, commands);
          ImGui::PopID();
        }
      }
    }
    if (first)
      ImGui::NewLine();
  }

  /// `word` in pieces no wider than `width`, each ending after a '.', '_',
  /// '/' or ',' where one falls in the piece; the word itself if it fits.
  static std::vector<std::string> splitToFit(const std::string &word,
                                             float width) {
    std::vector<std::string> pieces;
    size_t start = 0;
    while (start < word.size()) {
      size_t end = start + 1, lastBreak = 0;
      while (
          end < word.size() &&
          ImGui::CalcTextSize(word.data() + start, word.data() + end + 1).x <=
              width) {
        if (std::strchr("._/,", word[end - 1]))
          lastBreak = end;
        ++end;
      }
      if (end < word.size() && lastBreak > start)
        end = lastBreak;
      pieces.push_back(word.substr(start, end - start));
      start = end;
    }
    return pieces;
  }

  void drawWord(const LessonSpan &span, const std::string &word,
                CommandQueue &commands) {
    if (span.kind == LessonSpan::Code) {
      ImGui::TextColored(palette::toVec4(palette::theme().inlineCodeText), "%s",
                         word.c_str());
      return;
    }
    if (span.kind != LessonSpan::Link) {
      ImGui::TextUnformatted(word.c_str());
      return;
    }
    ImGui::TextColored(palette::toVec4(palette::theme().linkText), "%s",
                       word.c_str());
    if (!ImGui::IsItemHovered())
      return;
    ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    ImGui::GetWindowDrawList()->AddLine(
        ImVec2(min.x, max.y), ImVec2(max.x, max.y),
        ImGui::GetColorU32(palette::toVec4(palette::theme().linkText)));
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    LinkAction action = followLink(span.target, pageDir, rootDir);
    if (!action.error.empty())
      ImGui::SetTooltip("%s", action.error.c_str());
    else
      ImGui::SetTooltip("%s", span.target.c_str());
    if (ImGui::IsItemClicked() && action.error.empty())
      follow(span.target, commands);
  }

  std::string shownPath, pageDir, rootDir;
};

} // namespace

std::unique_ptr<Panel> createLessonPanel() {
  return std::make_unique<LessonPanel>();
}

} // namespace klx::app
