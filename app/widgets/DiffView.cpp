//===- DiffView.cpp - Two snapshots, line by line -------------------------===//

#include "DiffView.h"

#include "Palette.h"
#include "TextView.h"

#include <algorithm>
#include <cstdio>

using namespace klx::app;

/// Unchanged lines kept around each change when the rest folds.
static constexpr unsigned kContextLines = 3;

void DiffView::setTexts(llvm::StringRef beforeText, llvm::StringRef afterText,
                        Language lang, uint64_t id, DiffOptions options) {
  uint64_t wanted = id * 4 + uint64_t(options.ignoreWhitespace) * 2 +
                    uint64_t(options.ignoreTimings);
  language = lang;
  if (wanted == key)
    return;
  key = wanted;
  job.request(key, [before = beforeText.str(), after = afterText.str(),
                    options]() mutable {
    return buildDiffModel(std::move(before), std::move(after), options);
  });
}

void DiffView::adopt(std::shared_ptr<const DiffModel> ready) {
  model = std::move(ready);
  modelKey = key;
  unfolded.clear();
  rebuildRows();
  currentHunk = 0;
  if (!model->hunks.empty())
    pendingScroll = int(rowShowing(rows, model->hunks.front()));
  scrolledToSource = 0; // a new diff: the marked line is found in it anew
}

void DiffView::markSourceLine(const std::vector<uint32_t> *source,
                              unsigned focused) {
  afterSource = source;
  focusedSource = focused;
  if (!model || !source || !focused || focused == scrolledToSource)
    return;
  scrolledToSource = focused;
  for (size_t row = 0; row < model->lines.lines.size(); ++row)
    if (marked(row))
      return reveal(row);
}

bool DiffView::marked(size_t row) const {
  if (!afterSource || !focusedSource)
    return false;
  int32_t line = model->lines.lines[row].right;
  return line >= 0 && size_t(line) < afterSource->size() &&
         (*afterSource)[size_t(line)] == focusedSource;
}

void DiffView::rebuildRows() {
  rows.clear();
  selectFrom = selectTo = -1; // the rows it named are gone
  if (!model)
    return;
  if (foldUnchangedRuns) {
    rows = foldUnchanged(model->lines, kContextLines, unfolded);
  } else {
    for (size_t row = 0; row < model->lines.lines.size(); ++row)
      rows.push_back({uint32_t(row), 0});
  }
  if (sideBySideRows)
    rows = pairChanges(rows, model->lines);
}

void DiffView::reveal(size_t line) {
  size_t shown = rowShowing(rows, line);
  if (shown < rows.size() && rows[shown].folded) {
    unfolded.insert(rows[shown].first);
    rebuildRows();
    shown = rowShowing(rows, line);
  }
  pendingScroll = int(shown);
}

std::string DiffView::unifiedText() const {
  std::string text = "--- before\n+++ after\n";
  for (size_t row = 0; model && row < model->lines.lines.size(); ++row) {
    DiffLine::Kind kind = model->lines.lines[row].kind;
    text += kind == DiffLine::Removed ? '-'
            : kind == DiffLine::Added ? '+'
                                      : ' ';
    text += rowText(row).str();
    text += '\n';
  }
  return text;
}

void DiffView::drawHeader() {
  const LineDiff &lineDiff = model->lines;
  const std::vector<size_t> &hunks = model->hunks;
  ImGui::Text("+%u -%u lines%s", lineDiff.added, lineDiff.removed,
              lineDiff.truncated ? " (too different: shown as replaced)" : "");
  ImGui::SameLine();
  if (hunks.empty()) {
    ImGui::TextDisabled("identical");
  } else {
    auto go = [&](size_t hunk) {
      currentHunk = hunk;
      reveal(hunks[hunk]);
    };
    if (ImGui::SmallButton("prev change"))
      go((currentHunk + hunks.size() - 1) % hunks.size());
    ImGui::SameLine();
    if (ImGui::SmallButton("next change"))
      go((currentHunk + 1) % hunks.size());
    ImGui::SameLine();
    ImGui::TextDisabled("%zu/%zu", currentHunk + 1, hunks.size());
    ImGui::SameLine();
    if (ImGui::Checkbox("fold unchanged", &foldUnchangedRuns)) {
      unfolded.clear();
      rebuildRows();
    }
  }
  FindMove move = find.draw(
      lineDiff.lines.size(), [&](size_t row) { return rowText(row); },
      modelKey);
  if (move.matchLine >= 0)
    reveal(size_t(move.matchLine));
  // Ctrl+G takes a line number as the rows show them: the new text's, else
  // the old one's.
  for (int side = 0; move.typedLine >= 1 && side < 2; ++side)
    for (size_t row = 0; row < lineDiff.lines.size(); ++row) {
      const DiffLine &d = lineDiff.lines[row];
      if ((side == 0 ? d.right : d.left) == move.typedLine - 1) {
        reveal(row);
        return;
      }
    }
}

void DiffView::drawChangedWords(ImDrawList *drawList, ImVec2 textPos,
                                llvm::StringRef text, size_t row) {
  const ChangedSpan &span = model->spans[row];
  if (span.empty())
    return;
  bool added = model->lines.lines[row].kind == DiffLine::Added;
  ImFont *font = ImGui::GetFont();
  float size = ImGui::GetFontSize();
  size_t begin = std::min<size_t>(span.begin, text.size());
  size_t end = std::min<size_t>(span.end, text.size());
  float x0 =
      textPos.x +
      font->CalcTextSizeA(size, FLT_MAX, 0, text.data(), text.data() + begin).x;
  float x1 = x0 + font->CalcTextSizeA(size, FLT_MAX, 0, text.data() + begin,
                                      text.data() + end)
                      .x;
  float lineHeight = ImGui::GetTextLineHeight();
  drawList->AddRectFilled(
      ImVec2(x0, textPos.y), ImVec2(x1, textPos.y + lineHeight),
      added ? palette::theme().addedWords : palette::theme().removedWords);
  drawList->AddLine(ImVec2(x0, textPos.y + lineHeight - 1),
                    ImVec2(x1, textPos.y + lineHeight - 1),
                    added ? palette::theme().changedMarker
                          : palette::theme().failedMarker,
                    std::max(1.0f, size / 10));
}

/// A selected row's background is the selection's, else its change's.
static ImU32 rowBackground(klx::DiffLine::Kind kind, bool selectedRow) {
  if (selectedRow)
    return palette::theme().selection;
  return kind == klx::DiffLine::Removed ? palette::theme().removed
         : kind == klx::DiffLine::Added ? palette::theme().added
                                        : 0;
}

void DiffView::drawSide(ImDrawList *drawList, ImVec2 pos, float width,
                        size_t row, int side, bool selectedRow) {
  const DiffLine &d = model->lines.lines[row];
  int line = side == 0 ? d.left : d.right;
  if (line < 0)
    return;
  float lineHeight = ImGui::GetTextLineHeight();
  float numberWidth = ImGui::CalcTextSize("0").x * 7;
  ImU32 background = !selectedRow && side == 1 && marked(row)
                         ? palette::theme().correlated
                         : rowBackground(d.kind, selectedRow);
  ImVec2 end(pos.x + width - 4, pos.y + lineHeight);
  if (background)
    drawList->AddRectFilled(pos, end, background);
  char number[16];
  std::snprintf(number, sizeof(number), "%6d", line + 1);
  drawList->AddText(pos, palette::theme().lineNumber, number);
  llvm::StringRef text =
      side == 0 ? model->before.line(line) : model->after.line(line);
  ImVec2 textPos(pos.x + numberWidth, pos.y);
  drawList->PushClipRect(textPos, end, true);
  drawChangedWords(drawList, textPos, text, row);
  drawColouredLine(drawList, textPos, text, language);
  // The find marks belong to the side whose text the row is searched by.
  if ((side == 1) == (d.kind == DiffLine::Added))
    find.drawMarks(drawList, textPos, row, text, lineHeight);
  drawList->PopClipRect();
}

void DiffView::drawInline(ImDrawList *drawList, ImVec2 pos, float width,
                          size_t row, bool selectedRow) {
  const DiffLine &d = model->lines.lines[row];
  float lineHeight = ImGui::GetTextLineHeight();
  float charWidth = ImGui::CalcTextSize("0").x;
  ImU32 background = !selectedRow && marked(row)
                         ? palette::theme().correlated
                         : rowBackground(d.kind, selectedRow);
  if (background)
    drawList->AddRectFilled(pos, ImVec2(pos.x + width, pos.y + lineHeight),
                            background);
  char number[32];
  std::snprintf(number, sizeof(number), "%6s %6s",
                d.left >= 0 ? std::to_string(d.left + 1).c_str() : "",
                d.right >= 0 ? std::to_string(d.right + 1).c_str() : "");
  drawList->AddText(pos, palette::theme().lineNumber, number);
  const char *sign = d.kind == DiffLine::Removed ? "-"
                     : d.kind == DiffLine::Added ? "+"
                                                 : " ";
  float x = pos.x + charWidth * 14;
  drawList->AddText(ImVec2(x, pos.y), palette::theme().dimText, sign);
  ImVec2 textPos(x + charWidth * 2, pos.y);
  llvm::StringRef text = rowText(row);
  drawChangedWords(drawList, textPos, text, row);
  drawColouredLine(drawList, textPos, text, language);
  find.drawMarks(drawList, textPos, row, text, lineHeight);
}

void DiffView::drawFold(ImDrawList *drawList, ImVec2 pos, float width,
                        const DiffRow &fold) {
  float lineHeight = ImGui::GetTextLineHeight();
  drawList->AddRectFilled(pos, ImVec2(pos.x + width, pos.y + lineHeight),
                          palette::theme().editorBackground);
  char label[96];
  std::snprintf(label, sizeof(label),
                "   ... %u unchanged lines (click to show) ...", fold.folded);
  drawList->AddText(pos, palette::theme().lineNumber, label);
}

void DiffView::drawRow(ImDrawList *drawList, ImVec2 pos, size_t shown,
                       float columnWidth, float fullWidth) {
  const DiffRow &row = rows[shown];
  float lineHeight = ImGui::GetTextLineHeight();
  if (row.folded) {
    drawFold(drawList, pos, std::max(fullWidth, ImGui::GetWindowWidth()), row);
    return;
  }
  if (find.hasMatchOn(row.first) ||
      (row.paired != DiffRow::kNone && find.hasMatchOn(row.paired)))
    drawList->AddRectFilled(pos, ImVec2(pos.x + fullWidth, pos.y + lineHeight),
                            palette::theme().searchMatch);
  bool selectedRow = selected(shown);
  if (!sideBySideRows) {
    drawInline(drawList, pos, columnWidth, row.first, selectedRow);
    return;
  }
  // A removed line and the added line paired with it share the row.
  bool added = model->lines.lines[row.first].kind == DiffLine::Added;
  size_t right = row.paired != DiffRow::kNone ? row.paired : row.first;
  if (!added)
    drawSide(drawList, pos, columnWidth, row.first, 0,
             selectedRow && selectSide == DiffSide::Before);
  drawSide(drawList, ImVec2(pos.x + columnWidth, pos.y), columnWidth, right, 1,
           selectedRow && selectSide == DiffSide::After);
}

bool DiffView::selected(size_t shown) const {
  if (selectFrom < 0)
    return false;
  return shown >= size_t(std::min(selectFrom, selectTo)) &&
         shown <= size_t(std::max(selectFrom, selectTo));
}

std::string DiffView::selectedText() const {
  if (selectFrom < 0)
    return "";
  return copiedRows(*model, rows, size_t(selectFrom), size_t(selectTo),
                    selectSide);
}

void DiffView::handleSelection(ImVec2 origin, float lineHeight,
                               float columnWidth) {
  ImGuiIO &io = ImGui::GetIO();
  if (rows.empty())
    return;
  auto rowAt = [&](float y) {
    return std::clamp(int((y - origin.y) / lineHeight), 0,
                      int(rows.size()) - 1);
  };
  if (ImGui::IsItemClicked(ImGuiMouseButton_Left) &&
      !rows[rowAt(io.MousePos.y)].folded) {
    int row = rowAt(io.MousePos.y);
    if (!io.KeyShift || selectFrom < 0) {
      selectFrom = row;
      selectSide = !sideBySideRows                          ? DiffSide::Unified
                   : io.MousePos.x < origin.x + columnWidth ? DiffSide::Before
                                                            : DiffSide::After;
    }
    selectTo = row;
  } else if (ImGui::IsItemActive() && selectFrom >= 0 &&
             ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    selectTo = rowAt(io.MousePos.y);
    // Past the pane's edge the rows scroll, as an editor's do.
    ImVec2 min = ImGui::GetWindowPos();
    float max = min.y + ImGui::GetWindowHeight();
    if (io.MousePos.y < min.y)
      ImGui::SetScrollY(ImGui::GetScrollY() - lineHeight);
    else if (io.MousePos.y > max)
      ImGui::SetScrollY(ImGui::GetScrollY() + lineHeight);
  }
  if (!ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) ||
      !io.KeyCtrl)
    return;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_A))) {
    selectFrom = 0;
    selectTo = int(rows.size()) - 1;
    if (sideBySideRows && selectSide == DiffSide::Unified)
      selectSide = DiffSide::After;
    if (!sideBySideRows)
      selectSide = DiffSide::Unified;
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_C)) && selectFrom >= 0)
    ImGui::SetClipboardText(selectedText().c_str());
}

void DiffView::handleMouse(ImVec2 origin, float lineHeight, float columnWidth) {
  ImGuiIO &io = ImGui::GetIO();
  handleSelection(origin, lineHeight, columnWidth);
  int hovered = -1;
  if (ImGui::IsItemHovered()) {
    float y = io.MousePos.y - origin.y;
    if (y >= 0 && size_t(y / lineHeight) < rows.size())
      hovered = int(y / lineHeight);
  }
  if (hovered >= 0 && rows[hovered].folded) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      unfolded.insert(rows[hovered].first);
      rebuildRows();
      return;
    }
  }
  if (hovered >= 0 && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    menuRow = rows[hovered].folded ? -1 : int(rows[hovered].first);
    ImGui::OpenPopup("diff menu");
  }
  if (ImGui::BeginPopup("diff menu")) {
    if (menuRow >= 0 && size_t(menuRow) < model->lines.lines.size()) {
      const DiffLine &d = model->lines.lines[menuRow];
      int number = d.kind == DiffLine::Added ? d.right : d.left;
      std::string label =
          "Copy line " + std::to_string(number + 1) +
          (d.kind == DiffLine::Added ? " (after)" : " (before)");
      if (ImGui::MenuItem(label.c_str()))
        ImGui::SetClipboardText(rowText(menuRow).str().c_str());
    }
    if (selectFrom >= 0 && ImGui::MenuItem("Copy the selected lines"))
      ImGui::SetClipboardText(selectedText().c_str());
    if (ImGui::MenuItem("Copy the diff (unified)"))
      ImGui::SetClipboardText(unifiedText().c_str());
    ImGui::EndPopup();
  }
}

void DiffView::draw(const char *id, ImVec2 size, bool sideBySide) {
  // Two columns need room for 60 characters of code each, else the
  // columns cut every line: inline then.
  float charWidth = ImGui::CalcTextSize("0").x;
  float width = size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x;
  sideBySide = sideBySide && width >= charWidth * 2 * (60 + 7);
  ImGui::PushID(id);
  if (std::shared_ptr<const DiffModel> ready = job.get();
      ready && ready != model)
    adopt(std::move(ready));
  if (!model || modelKey != key) {
    ImGui::TextDisabled("computing the diff...");
    ImGui::PopID();
    return;
  }
  if (sideBySide != sideBySideRows) {
    sideBySideRows = sideBySide;
    rebuildRows();
  }
  drawHeader();

  ImGui::BeginChild("diff", size, false, ImGuiWindowFlags_HorizontalScrollbar);
  find.handleKeys(
      ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows));
  float lineHeight = ImGui::GetTextLineHeight();
  float numberWidth = charWidth * 7;
  // Side by side, each side gets half the width and long lines are cut
  // there: both sides stay in view, which is the point of the layout.
  float columnWidth =
      sideBySide ? std::max(ImGui::GetWindowWidth() * 0.5f - charWidth,
                            numberWidth + charWidth * 20)
                 : numberWidth * 2 + charWidth * (model->longestLine + 4);
  float fullWidth = sideBySide ? columnWidth * 2 : columnWidth;
  // A button, not a dummy: clicks open folds rather than move the pane.
  ImGui::InvisibleButton(
      "##rows",
      ImVec2(fullWidth, lineHeight * float(std::max<size_t>(1, rows.size()))),
      ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  ImVec2 origin = ImGui::GetItemRectMin();
  if (pendingScroll >= 0) {
    ImGui::SetScrollY(std::max(0.0f, pendingScroll * lineHeight -
                                         ImGui::GetWindowHeight() * 0.3f));
    pendingScroll = -1;
  }
  ImDrawList *drawList = ImGui::GetWindowDrawList();
  int first = std::max(0, int(ImGui::GetScrollY() / lineHeight));
  int last = std::min<int>(
      rows.size(), first + int(ImGui::GetWindowHeight() / lineHeight) + 2);
  for (int shown = first; shown < last; ++shown)
    drawRow(drawList, ImVec2(origin.x, origin.y + shown * lineHeight),
            size_t(shown), columnWidth, fullWidth);
  handleMouse(origin, lineHeight, columnWidth);
  ImGui::EndChild();
  ImGui::PopID();
}
