//===- TextView.cpp - Long coloured text, scrolled smoothly ---------------===//

#include "TextView.h"

#include "Palette.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

using namespace klx::app;

float klx::app::drawColouredLine(ImDrawList *drawList, ImVec2 pos,
                                 llvm::StringRef line, Language language) {
  llvm::SmallVector<Token, 32> tokens;
  tokenizeLine(line, language, tokens);
  ImFont *font = ImGui::GetFont();
  float fontSize = ImGui::GetFontSize();
  float x = pos.x;
  for (const Token &token : tokens) {
    const char *begin = line.data() + token.begin;
    const char *end = begin + token.length;
    drawList->AddText(font, fontSize, ImVec2(x, pos.y),
                      palette::token(token.kind), begin, end);
    x += font->CalcTextSizeA(fontSize, FLT_MAX, 0, begin, end).x;
  }
  return x - pos.x;
}

void TextView::setText(llvm::StringRef text, Language lang, uint64_t id) {
  if (id == identity && text.data() == index.text.data() &&
      text.size() == index.text.size())
    return;
  identity = id;
  language = lang;
  index = LineIndex(text);
  longestLine = 0;
  for (size_t i = 0; i < index.size(); ++i)
    longestLine = std::max(longestLine, index.line(i).size());
  matchedQuery.clear();
  updateMatches();
}

void TextView::updateMatches() {
  if (query == matchedQuery)
    return;
  matchedQuery = query;
  matches.clear();
  currentMatch = 0;
  if (query.empty())
    return;
  for (size_t i = 0; i < index.size(); ++i)
    if (index.line(i).contains_insensitive(query))
      matches.push_back(i);
}

void TextView::drawFindBar() {
  if (findOpen) {
    ImGui::SetNextItemWidth(220);
    if (focusFind) {
      ImGui::SetKeyboardFocusHere();
      focusFind = false;
    }
    bool enter =
        ImGui::InputTextWithHint("##find", "find (Enter: next)", &query,
                                 ImGuiInputTextFlags_EnterReturnsTrue);
    updateMatches();
    ImGui::SameLine();
    if (matches.empty())
      ImGui::TextDisabled(query.empty() ? "" : "no match");
    else
      ImGui::Text("%zu/%zu", currentMatch + 1, matches.size());
    if (enter && !matches.empty()) {
      currentMatch = ImGui::GetIO().KeyShift
                         ? (currentMatch + matches.size() - 1) % matches.size()
                         : (currentMatch + 1) % matches.size();
      pendingScroll = int(matches[currentMatch]);
      focusFind = true;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("x##closefind"))
      findOpen = false;
  }
  if (gotoOpen) {
    if (findOpen)
      ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::SetKeyboardFocusHere();
    if (ImGui::InputTextWithHint("##goto", "line", gotoText, sizeof(gotoText),
                                 ImGuiInputTextFlags_CharsDecimal |
                                     ImGuiInputTextFlags_EnterReturnsTrue)) {
      int line = std::atoi(gotoText);
      if (line >= 1)
        pendingScroll = std::min<int>(line - 1, int(index.size()) - 1);
      gotoOpen = false;
    }
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
      gotoOpen = false;
  }
}

TextViewResult TextView::draw(const char *id, ImVec2 size,
                              const LineColour &lineColour) {
  TextViewResult result;
  ImGui::PushID(id);
  drawFindBar();

  ImGui::BeginChild("text", size, false, ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiIO &io = ImGui::GetIO();
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) &&
      io.KeyCtrl) {
    if (ImGui::IsKeyPressed('F' - 'A' + ImGui::GetKeyIndex(ImGuiKey_A))) {
      findOpen = true;
      focusFind = true;
    }
    if (ImGui::IsKeyPressed('G' - 'A' + ImGui::GetKeyIndex(ImGuiKey_A))) {
      gotoOpen = true;
      gotoText[0] = 0;
    }
  }

  float lineHeight = ImGui::GetTextLineHeight();
  char digits[16];
  int gutterDigits = std::snprintf(digits, sizeof(digits), "%zu", index.size());
  float charWidth = ImGui::CalcTextSize("0").x;
  float gutter = charWidth * (gutterDigits + 1);
  // Horizontal extent: the longest line, measured in '0's (monospace).
  ImGui::Dummy(ImVec2(gutter + charWidth * (longestLine + 2),
                      lineHeight * index.size()));
  ImVec2 origin = ImGui::GetItemRectMin();

  if (pendingScroll >= 0) {
    ImGui::SetScrollY(std::max(0.0f, pendingScroll * lineHeight -
                                         ImGui::GetWindowHeight() * 0.4f));
    pendingScroll = -1;
  }

  // Only the lines inside the window are drawn.
  ImDrawList *drawList = ImGui::GetWindowDrawList();
  float scroll = ImGui::GetScrollY();
  int first = std::max(0, int(scroll / lineHeight));
  int last = std::min<int>(
      index.size(), first + int(ImGui::GetWindowHeight() / lineHeight) + 2);
  float right = ImGui::GetWindowPos().x + ImGui::GetWindowWidth();
  for (int i = first; i < last; ++i) {
    ImVec2 pos(origin.x, origin.y + i * lineHeight);
    ImU32 background = lineColour ? lineColour(i) : 0;
    if (!matches.empty() &&
        std::binary_search(matches.begin(), matches.end(), size_t(i)))
      background = palette::kSearchMatch;
    if (background)
      drawList->AddRectFilled(pos, ImVec2(right, pos.y + lineHeight),
                              background);
    std::snprintf(digits, sizeof(digits), "%*d", gutterDigits, i + 1);
    drawList->AddText(pos, palette::kLineNumber, digits);
    drawColouredLine(drawList, ImVec2(pos.x + gutter, pos.y), index.line(i),
                     language);
  }
  if (ImGui::IsWindowHovered()) {
    float y = io.MousePos.y - origin.y;
    int line = int(y / lineHeight);
    if (y >= 0 && line < int(index.size())) {
      result.hoveredLine = line;
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        result.clickedLine = line;
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
  return result;
}
