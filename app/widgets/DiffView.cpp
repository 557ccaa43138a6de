//===- DiffView.cpp - Two snapshots, line by line -------------------------===//

#include "DiffView.h"

#include "Palette.h"
#include "TextView.h"

#include <algorithm>
#include <cstdio>

using namespace klx::app;

void DiffView::setTexts(llvm::StringRef beforeText, llvm::StringRef afterText,
                        Language lang, uint64_t id, DiffOptions newOptions) {
  if (id == identity &&
      newOptions.ignoreWhitespace == options.ignoreWhitespace &&
      newOptions.ignoreTimings == options.ignoreTimings)
    return;
  identity = id;
  options = newOptions;
  language = lang;
  before = LineIndex(beforeText);
  after = LineIndex(afterText);
  lineDiff = diffLines(before, after, 2000, options);
  longestLine = 0;
  hunks.clear();
  for (size_t row = 0; row < lineDiff.lines.size(); ++row) {
    const DiffLine &d = lineDiff.lines[row];
    llvm::StringRef text =
        d.kind == DiffLine::Added ? after.line(d.right) : before.line(d.left);
    longestLine = std::max(longestLine, text.size());
    bool change = d.kind != DiffLine::Same;
    bool previousChange =
        row > 0 && lineDiff.lines[row - 1].kind != DiffLine::Same;
    if (change && !previousChange)
      hunks.push_back(row);
  }
  currentHunk = 0;
  if (!hunks.empty())
    pendingScroll = int(hunks.front());
}

void DiffView::draw(const char *id, ImVec2 size, bool sideBySide) {
  // Two columns need room for 60 characters of code each, else the
  // columns cut every line: inline then.
  float charWidth0 = ImGui::CalcTextSize("0").x;
  float width = size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x;
  sideBySide = sideBySide && width >= charWidth0 * 2 * (60 + 7);
  ImGui::PushID(id);
  ImGui::Text("+%u -%u lines%s", lineDiff.added, lineDiff.removed,
              lineDiff.truncated ? " (too different: shown as replaced)" : "");
  ImGui::SameLine();
  if (!hunks.empty()) {
    if (ImGui::SmallButton("prev change"))
      currentHunk = (currentHunk + hunks.size() - 1) % hunks.size(),
      pendingScroll = int(hunks[currentHunk]);
    ImGui::SameLine();
    if (ImGui::SmallButton("next change"))
      currentHunk = (currentHunk + 1) % hunks.size(),
      pendingScroll = int(hunks[currentHunk]);
    ImGui::SameLine();
    ImGui::TextDisabled("%zu/%zu", currentHunk + 1, hunks.size());
  } else {
    ImGui::TextDisabled("identical");
  }

  ImGui::BeginChild("diff", size, false, ImGuiWindowFlags_HorizontalScrollbar);
  float lineHeight = ImGui::GetTextLineHeight();
  float charWidth = ImGui::CalcTextSize("0").x;
  float numberWidth = charWidth * 7;
  // Side by side, each side gets half the width and long lines are cut
  // there: both sides stay in view, which is the point of the layout.
  float columnWidth = sideBySide
                          ? std::max(ImGui::GetWindowWidth() * 0.5f - charWidth,
                                     numberWidth + charWidth * 20)
                          : numberWidth * 2 + charWidth * (longestLine + 4);
  ImGui::Dummy(ImVec2(sideBySide ? columnWidth * 2 : columnWidth,
                      lineHeight * lineDiff.lines.size()));
  ImVec2 origin = ImGui::GetItemRectMin();
  if (pendingScroll >= 0) {
    ImGui::SetScrollY(std::max(0.0f, pendingScroll * lineHeight -
                                         ImGui::GetWindowHeight() * 0.3f));
    pendingScroll = -1;
  }
  ImDrawList *drawList = ImGui::GetWindowDrawList();
  char number[16];
  int first = std::max(0, int(ImGui::GetScrollY() / lineHeight));
  int last =
      std::min<int>(lineDiff.lines.size(),
                    first + int(ImGui::GetWindowHeight() / lineHeight) + 2);
  {
    for (int row = first; row < last; ++row) {
      const DiffLine &d = lineDiff.lines[row];
      float y = origin.y + row * lineHeight;
      if (sideBySide) {
        for (int side = 0; side < 2; ++side) {
          int line = side == 0 ? d.left : d.right;
          float x = origin.x + side * columnWidth;
          ImU32 background = d.kind == DiffLine::Removed ? palette::kRemoved
                             : d.kind == DiffLine::Added ? palette::kAdded
                                                         : 0;
          if (background && line >= 0)
            drawList->AddRectFilled(ImVec2(x, y),
                                    ImVec2(x + columnWidth - 4, y + lineHeight),
                                    background);
          if (line < 0)
            continue;
          std::snprintf(number, sizeof(number), "%6d", line + 1);
          drawList->AddText(ImVec2(x, y), palette::kLineNumber, number);
          drawList->PushClipRect(ImVec2(x + numberWidth, y),
                                 ImVec2(x + columnWidth - 4, y + lineHeight),
                                 true);
          drawColouredLine(drawList, ImVec2(x + numberWidth, y),
                           side == 0 ? before.line(line) : after.line(line),
                           language);
          drawList->PopClipRect();
        }
      } else {
        ImU32 background = d.kind == DiffLine::Removed ? palette::kRemoved
                           : d.kind == DiffLine::Added ? palette::kAdded
                                                       : 0;
        if (background)
          drawList->AddRectFilled(
              ImVec2(origin.x, y),
              ImVec2(origin.x + columnWidth, y + lineHeight), background);
        std::snprintf(number, sizeof(number), "%6s %6s",
                      d.left >= 0 ? std::to_string(d.left + 1).c_str() : "",
                      d.right >= 0 ? std::to_string(d.right + 1).c_str() : "");
        drawList->AddText(ImVec2(origin.x, y), palette::kLineNumber, number);
        const char *sign = d.kind == DiffLine::Removed ? "-"
                           : d.kind == DiffLine::Added ? "+"
                                                       : " ";
        float x = origin.x + numberWidth * 2;
        drawList->AddText(ImVec2(x, y), palette::kDimText, sign);
        drawColouredLine(drawList, ImVec2(x + charWidth * 2, y),
                         d.kind == DiffLine::Added ? after.line(d.right)
                                                   : before.line(d.left),
                         language);
      }
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
}
