//===- FindBar.cpp - Ctrl+F and Ctrl+G for any text pane ------------------===//

#include "FindBar.h"

#include "Palette.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>

using namespace klx::app;

namespace {

bool ctrlKey(char letter) {
  return ImGui::GetIO().KeyCtrl &&
         ImGui::IsKeyPressed(letter - 'A' + ImGui::GetKeyIndex(ImGuiKey_A));
}

bool escapePressed() {
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
}

} // namespace

void FindBar::handleKeys(bool focused) {
  if (!focused)
    return;
  if (ctrlKey('F')) {
    findOpen = true;
    focusFind = true;
  }
  if (ctrlKey('G')) {
    gotoOpen = true;
    gotoText[0] = 0;
  }
}

llvm::ArrayRef<TextMatch> FindBar::matchesOn(size_t line) const {
  if (!findOpen)
    return {};
  auto first = std::lower_bound(
      matches.begin(), matches.end(), line,
      [](const TextMatch &match, size_t at) { return match.line < at; });
  auto last = first;
  while (last != matches.end() && last->line == line)
    ++last;
  return llvm::ArrayRef<TextMatch>(matches).slice(
      size_t(first - matches.begin()), size_t(last - first));
}

const TextMatch *FindBar::current() const {
  return findOpen && currentMatch < matches.size() ? &matches[currentMatch]
                                                   : nullptr;
}

void FindBar::refresh(size_t lineCount,
                      llvm::function_ref<llvm::StringRef(size_t)> lineAt,
                      uint64_t identity) {
  if (query == matchedQuery && identity == matchedIdentity)
    return;
  matchedQuery = query;
  matchedIdentity = identity;
  matches = findMatches(lineCount, lineAt, query);
  currentMatch = matches.empty() ? SIZE_MAX : 0;
}

int FindBar::drawFind() {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (focusFind) {
    ImGui::SetKeyboardFocusHere();
    focusFind = false;
  }
  bool enter = ImGui::InputTextWithHint("##find", "find (Enter: next)", &query,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
  bool closing =
      (ImGui::IsItemActive() || ImGui::IsItemDeactivated()) && escapePressed();
  int scrollTo = -1;
  if (enter && !matches.empty()) {
    size_t count = matches.size();
    currentMatch = currentMatch >= count ? 0
                   : ImGui::GetIO().KeyShift
                       ? (currentMatch + count - 1) % count
                       : (currentMatch + 1) % count;
    scrollTo = int(matches[currentMatch].line);
    focusFind = true; // Enter ends the edit; keep typing in the field
  }
  ImGui::SameLine();
  if (matches.empty())
    ImGui::TextDisabled("%s", query.empty() ? "" : "no match");
  else
    ImGui::Text("%zu/%zu%s", currentMatch + 1, matches.size(),
                matches.size() >= 100000 ? "+" : "");
  ImGui::SameLine();
  if (ImGui::SmallButton("x##closefind") || closing) {
    findOpen = false;
    query.clear();
  }
  return scrollTo;
}

int FindBar::drawGoto() {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::SetKeyboardFocusHere();
  int scrollTo = -1;
  if (ImGui::InputTextWithHint("##goto", "line", gotoText, sizeof(gotoText),
                               ImGuiInputTextFlags_CharsDecimal |
                                   ImGuiInputTextFlags_EnterReturnsTrue)) {
    int line = std::atoi(gotoText);
    if (line >= 1)
      scrollTo = line;
    gotoOpen = false;
  }
  if (escapePressed())
    gotoOpen = false;
  return scrollTo;
}

FindMove FindBar::draw(size_t lineCount,
                       llvm::function_ref<llvm::StringRef(size_t)> lineAt,
                       uint64_t identity) {
  FindMove move;
  if (findOpen) {
    move.matchLine = drawFind();
    std::string searched = matchedQuery;
    refresh(lineCount, lineAt, identity);
    // As the query is typed, the first match comes into view.
    if (matchedQuery != searched && !matches.empty() && move.matchLine < 0)
      move.matchLine = int(matches.front().line);
  }
  if (gotoOpen) {
    if (findOpen)
      ImGui::SameLine();
    move.typedLine = drawGoto();
  }
  return move;
}

int FindBar::drawForLines(size_t lineCount,
                          llvm::function_ref<llvm::StringRef(size_t)> lineAt,
                          uint64_t identity) {
  FindMove move = draw(lineCount, lineAt, identity);
  if (move.typedLine >= 1 && lineCount > 0)
    return std::min<int>(move.typedLine - 1, int(lineCount) - 1);
  return move.matchLine;
}

void FindBar::drawMarks(ImDrawList *drawList, ImVec2 textPos, size_t line,
                        llvm::StringRef text, float lineHeight) const {
  const TextMatch *now = current();
  ImFont *font = ImGui::GetFont();
  float size = ImGui::GetFontSize();
  for (const TextMatch &match : matchesOn(line)) {
    size_t begin = std::min(match.column, text.size());
    size_t end = std::min(match.column + match.length, text.size());
    float x0 = textPos.x + font->CalcTextSizeA(size, FLT_MAX, 0, text.data(),
                                               text.data() + begin)
                               .x;
    float x1 = x0 + font->CalcTextSizeA(size, FLT_MAX, 0, text.data() + begin,
                                        text.data() + end)
                        .x;
    bool isCurrent =
        now && now->line == match.line && now->column == match.column;
    drawList->AddRect(
        ImVec2(x0 - 1, textPos.y), ImVec2(x1 + 1, textPos.y + lineHeight),
        palette::theme().searchOutline, 0, 0, isCurrent ? 2.5f : 1.0f);
  }
}
