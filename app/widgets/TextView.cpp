//===- TextView.cpp - Long coloured text, scrolled smoothly ---------------===//

#include "TextView.h"

#include "Palette.h"
#include "TextInView.h"

#include <imgui_internal.h>

#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
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
    // Through the style's alpha: a pane that shows a stale result fades it.
    drawList->AddText(font, fontSize, ImVec2(x, pos.y),
                      ImGui::GetColorU32(palette::token(token.kind)), begin,
                      end);
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
  selected = {};
}

namespace {

/// The x offset of `column` in `line` (monospace, but tabs are wider).
float offsetOf(llvm::StringRef line, size_t column) {
  column = std::min(column, line.size());
  return ImGui::GetFont()
      ->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0, line.data(),
                      line.data() + column)
      .x;
}

bool isContinuationByte(char c) { return (c & 0xC0) == 0x80; }

/// The column whose left edge is nearest to `x` (never inside a UTF-8
/// sequence).
size_t columnNearest(llvm::StringRef line, float x) {
  ImFont *font = ImGui::GetFont();
  float scale = ImGui::GetFontSize() / font->FontSize;
  float at = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (isContinuationByte(line[i]))
      continue;
    float width = font->GetCharAdvance(ImWchar((unsigned char)line[i])) * scale;
    if (x < at + width / 2)
      return i;
    at += width;
  }
  return line.size();
}

bool isWordChar(char c) {
  return std::isalnum((unsigned char)c) || c == '_' || c == '%' || c == '.' ||
         c == '@' || c == '$';
}

} // namespace

TextPos TextView::positionAt(ImVec2 mouse, ImVec2 origin, float gutter) const {
  if (index.size() == 0)
    return {};
  float lineHeight = ImGui::GetTextLineHeight();
  float y = (mouse.y - origin.y) / lineHeight;
  size_t line = y <= 0 ? 0 : std::min(size_t(y), index.size() - 1);
  return {line, columnNearest(index.line(line), mouse.x - origin.x - gutter)};
}

void TextView::handleSelection(ImVec2 origin, float gutter, int hoveredLine,
                               const MenuItems &menuItems) {
  ImGuiIO &io = ImGui::GetIO();
  bool hovered = ImGui::IsItemHovered();
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    TextPos at = positionAt(io.MousePos, origin, gutter);
    if (!io.KeyShift)
      selected.anchor = at;
    selected.cursor = at;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) &&
      index.size() > 0) {
    TextPos at = positionAt(io.MousePos, origin, gutter);
    llvm::StringRef line = index.line(at.line);
    size_t begin = std::min(at.column, line.size()), end = begin;
    while (begin > 0 && isWordChar(line[begin - 1]))
      --begin;
    while (end < line.size() && isWordChar(line[end]))
      ++end;
    selected = {{at.line, begin}, {at.line, end}};
  }
  // Dragging extends the selection, scrolling when the pointer leaves the
  // pane at the top or the bottom.
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    selected.cursor = positionAt(io.MousePos, origin, gutter);
    float top = ImGui::GetWindowPos().y;
    float bottom = top + ImGui::GetWindowHeight();
    float lineHeight = ImGui::GetTextLineHeight();
    if (io.MousePos.y < top)
      ImGui::SetScrollY(ImGui::GetScrollY() - lineHeight);
    else if (io.MousePos.y > bottom)
      ImGui::SetScrollY(ImGui::GetScrollY() + lineHeight);
  }
  bool focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
  int keyA = ImGui::GetKeyIndex(ImGuiKey_A),
      keyC = ImGui::GetKeyIndex(ImGuiKey_C);
  if (focused && io.KeyCtrl && ImGui::IsKeyPressed(keyA))
    selected = TextSelection::all(index);
  if (focused && io.KeyCtrl && ImGui::IsKeyPressed(keyC) && !selected.empty())
    ImGui::SetClipboardText(selectedText().c_str());

  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    menuLine = hoveredLine;
    ImGui::OpenPopup("text menu");
  }
  if (ImGui::BeginPopup("text menu")) {
    if (ImGui::MenuItem("Copy", "Ctrl+C", false, !selected.empty()))
      ImGui::SetClipboardText(selectedText().c_str());
    if (menuLine >= 0 && size_t(menuLine) < index.size()) {
      std::string label = "Copy line " + std::to_string(menuLine + 1);
      if (ImGui::MenuItem(label.c_str()))
        ImGui::SetClipboardText(index.line(menuLine).str().c_str());
    }
    if (ImGui::MenuItem("Select all", "Ctrl+A"))
      selected = TextSelection::all(index);
    if (menuItems) {
      ImGui::Separator();
      menuItems();
    }
    ImGui::EndPopup();
  }
}

void TextView::drawSelection(ImDrawList *drawList, ImVec2 linePos, size_t line,
                             float lineHeight) {
  if (!selected.contains(line))
    return;
  llvm::StringRef text = index.line(line);
  auto [first, second] = selected.columnsOn(line);
  float x0 = linePos.x + offsetOf(text, first);
  float x1 = second == SIZE_MAX ? linePos.x + offsetOf(text, text.size()) +
                                      ImGui::CalcTextSize(" ").x
                                : linePos.x + offsetOf(text, second);
  if (x1 > x0)
    drawList->AddRectFilled(ImVec2(x0, linePos.y),
                            ImVec2(x1, linePos.y + lineHeight),
                            palette::theme().selection);
}

float klx::app::spanScrollY(float viewHeight, float lineHeight, int first,
                            int last) {
  // The span in the middle where it fits, else its first line at the top.
  int rows = int(viewHeight / lineHeight);
  int span = last - first + 1;
  int top = span <= rows ? first - (rows - span) / 2 : first;
  return std::max(0.0f, float(top) * lineHeight);
}

void TextView::scrollToFound(std::vector<Found> found) {
  if (found.empty())
    return;
  auto [low, high] = std::minmax_element(
      found.begin(), found.end(),
      [](const Found &a, const Found &b) { return a.line < b.line; });
  pendingScroll = int(low->line);
  pendingSpanEnd = int(high->line);
  pendingFound = std::move(found);
}

float TextView::foundScrollX(float room) const {
  // Where the texts start and end, and where their lines' code starts.
  float left = FLT_MAX, right = 0, indent = FLT_MAX;
  for (const Found &found : pendingFound) {
    if (found.line >= index.size())
      continue;
    llvm::StringRef line = index.line(found.line);
    size_t column = line.find(found.text);
    if (column == llvm::StringRef::npos)
      continue;
    left = std::min(left, offsetOf(line, column));
    right = std::max(right, offsetOf(line, column + found.text.size()));
    indent = std::min(indent, offsetOf(line, line.find_first_not_of(" \t")));
  }
  if (right <= room || left == FLT_MAX)
    return 0;
  // Past the indentation, the lines read from their start; past the texts'
  // start only where that still cuts them.
  return right - indent <= room
             ? indent
             : std::max(0.0f, left - 2 * ImGui::CalcTextSize("0").x);
}

int TextView::findLine(llvm::StringRef text, size_t from) const {
  if (text.empty())
    return -1;
  for (size_t i = from; i < index.size(); ++i)
    if (index.line(i).contains(text))
      return int(i);
  for (size_t i = 0; i < std::min(from, index.size()); ++i)
    if (index.line(i).contains(text))
      return int(i);
  return -1;
}

void TextView::applyPendingScroll(float lineHeight, float gutter) {
  if (pendingScrollX >= 0) {
    ImGui::SetScrollX(pendingScrollX);
    pendingScrollX = -1;
  }
  if (pendingScroll < 0)
    return;
  ImRect clip = ImGui::GetCurrentWindow()->InnerClipRect;
  float height = clip.GetHeight();
  float y = pendingScroll * lineHeight - height * 0.4f;
  if (pendingSpanEnd >= 0) {
    y = spanScrollY(height, lineHeight, pendingScroll, pendingSpanEnd);
    // Sideways: every text found whole where the pane is wide enough.
    float x = foundScrollX(clip.GetWidth() - gutter);
    ImGui::SetScrollX(x);
  }
  ImGui::SetScrollY(std::max(0.0f, y));
  pendingScroll = pendingSpanEnd = -1;
  pendingFound.clear();
}

void TextView::recordLinesInView(const char *id, ImVec2 textOrigin,
                                 float lineHeight, float gutter) const {
  // What the pinned line numbers cover is not in view.
  ImRect clip = ImGui::GetCurrentWindow()->InnerClipRect;
  clip.Min.x += gutter;
  addTextInView(id, linesInView(
                        clip, textOrigin, lineHeight, index.size(),
                        [&](size_t line) { return index.line(line); },
                        [](size_t line) { return unsigned(line + 1); }));
}

TextViewResult TextView::draw(const char *id, ImVec2 size,
                              const LineColour &lineColour,
                              const MenuItems &menuItems) {
  TextViewResult result;
  ImGui::PushID(id);
  int found = find.drawForLines(
      index.size(), [&](size_t line) { return index.line(line); }, identity);
  if (found >= 0)
    pendingScroll = found;

  ImGui::BeginChild("text", size, false, ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiIO &io = ImGui::GetIO();
  find.handleKeys(
      ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows));

  float lineHeight = ImGui::GetTextLineHeight();
  char digits[16];
  int gutterDigits = std::snprintf(digits, sizeof(digits), "%zu", index.size());
  float charWidth = ImGui::CalcTextSize("0").x;
  float gutter = charWidth * (gutterDigits + 1);
  // Horizontal extent: the longest line, measured in '0's (monospace). A
  // button, not a dummy: dragging over the text selects it rather than
  // moving the pane.
  ImGui::InvisibleButton(
      "##lines",
      ImVec2(gutter + charWidth * (longestLine + 2),
             lineHeight * float(std::max<size_t>(1, index.size()))),
      ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  ImVec2 origin = ImGui::GetItemRectMin();

  applyPendingScroll(lineHeight, gutter);

  // Only the lines inside the window are drawn.
  ImDrawList *drawList = ImGui::GetWindowDrawList();
  float scroll = ImGui::GetScrollY();
  int first = std::max(0, int(scroll / lineHeight));
  int last = std::min<int>(
      index.size(), first + int(ImGui::GetWindowHeight() / lineHeight) + 2);
  float right = ImGui::GetWindowPos().x + ImGui::GetWindowWidth();
  // Backgrounds first: a tinted line drawn after the one above it hid
  // that line's underscores ("LAB_WAIT" read "LAB WAIT").
  for (int i = first; i < last; ++i) {
    ImVec2 pos(origin.x, origin.y + i * lineHeight);
    ImU32 background = lineColour ? lineColour(i) : 0;
    if (find.hasMatchOn(size_t(i)))
      background = palette::theme().searchMatch;
    if (background)
      drawList->AddRectFilled(pos, ImVec2(right, pos.y + lineHeight),
                              ImGui::GetColorU32(background));
    drawSelection(drawList, ImVec2(pos.x + gutter, pos.y), size_t(i),
                  lineHeight);
  }
  // The line numbers stay at the left edge when the text is scrolled
  // sideways, over the text that passes under them: scrolled to a long
  // line's code, a pane read "pu.module" with no numbers at all.
  float scrollX = ImGui::GetScrollX(), pinned = origin.x + scrollX;
  for (int i = first; i < last; ++i) {
    ImVec2 pos(origin.x, origin.y + i * lineHeight);
    drawColouredLine(drawList, ImVec2(pos.x + gutter, pos.y), index.line(i),
                     language);
    find.drawMarks(drawList, ImVec2(pos.x + gutter, pos.y), size_t(i),
                   index.line(i), lineHeight);
    if (scrollX > 0) {
      ImU32 under = lineColour ? lineColour(i) : 0;
      ImVec2 top(pinned, pos.y), bottom(pinned + gutter, pos.y + lineHeight);
      drawList->AddRectFilled(top, bottom,
                              ImGui::GetColorU32(ImGuiCol_WindowBg));
      if (under)
        drawList->AddRectFilled(top, bottom, ImGui::GetColorU32(under));
    }
    std::snprintf(digits, sizeof(digits), "%*d", gutterDigits, i + 1);
    drawList->AddText(ImVec2(pinned, pos.y),
                      ImGui::GetColorU32(palette::theme().lineNumber), digits);
  }
  // The text's button, drawn before the lines (which add no items).
  if (ImGui::IsItemHovered()) {
    float y = io.MousePos.y - origin.y;
    int line = int(y / lineHeight);
    if (y >= 0 && line < int(index.size())) {
      result.hoveredLine = line;
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && !io.KeyShift)
        result.clickedLine = line;
    }
  }
  handleSelection(origin, gutter, result.hoveredLine, menuItems);
  if (recordingTextInView())
    recordLinesInView(id, ImVec2(origin.x + gutter, origin.y), lineHeight,
                      gutter);
  ImGui::EndChild();
  ImGui::PopID();
  return result;
}
