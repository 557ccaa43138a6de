//===- SourcePanel.cpp - Edit the kernel, see its diagnostics -------------===//
//
// An ImGui multiline input does the editing; its own text is drawn
// transparent and the panel draws the same text coloured on top, plus the
// caret, diagnostic and correlation marks. Diagnostics are listed below.
// The file's RUN/CHECK header is folded out of the editor (SourceFold) until
// the user shows it; lines are numbered as in the file either way.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "views/RoleView.h"
#include "views/SourceFold.h"
#include "views/TextSelection.h"
#include "widgets/DiagnosticList.h"
#include "widgets/FindBar.h"
#include "widgets/Palette.h"
#include "widgets/TextInView.h"
#include "widgets/TextView.h"

#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

namespace klx::app {
namespace {

class SourcePanel final : public Panel {
public:
  Pane pane() const override { return Pane::Source; }

  void draw(const AppState &state, CommandQueue &commands) override {
    drawHeader(state, commands);
    followState(state);
    drawFoldSwitch();
    drawFind(commands);
    collectDiagnostics(state);
    collectRoleLines(state);
    size_t rows = 0;
    for (const Diag &diag : diagnostics)
      rows += 1 + diag.notes.size();
    float listHeight = rows == 0 ? 0
                                 : std::min<float>(8, rows + 1) *
                                       ImGui::GetTextLineHeightWithSpacing();
    ImVec2 size(-1, -listHeight - ImGui::GetStyle().ItemSpacing.y);
    drawEditor(state, commands, size);
    if (!diagnostics.empty())
      drawDiagnosticList(diagnostics, commands, listHeight);
  }

private:
  void drawHeader(const AppState &state, CommandQueue &commands) {
    const SourceBuffer &source = state.source;
    ImGui::TextUnformatted(source.path.empty() ? "untitled"
                                               : source.path.c_str());
    if (source.modified()) {
      ImGui::SameLine();
      ImGui::TextColored(palette::toVec4(palette::theme().warningText),
                         "modified%s",
                         source.restoredFromAutosave ? " (restored)" : "");
      ImGui::SameLine();
      if (ImGui::SmallButton("Save"))
        commands.push(cmd::SaveSource{});
      ImGui::SameLine();
      if (ImGui::SmallButton("Revert"))
        commands.push(cmd::RevertSource{});
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Compile (Ctrl+Enter)"))
      commands.push(cmd::Recompile{});
  }

  /// While the user types, the buffer leads; otherwise the state does (a
  /// file was opened or reverted). A file opened anew starts folded.
  void followState(const AppState &state) {
    if (ImGui::GetActiveID() == ImGui::GetID(kEditorLabel) ||
        state.source.text == fullText)
      return;
    if (state.source.path != shownPath) {
      shownPath = state.source.path;
      wantFold = true;
    }
    load(state.source.text);
  }

  /// Shows `text` in the editor, its header folded if the user wants it.
  void load(const std::string &text) {
    fullText = text;
    fold.reset();
    if (std::optional<LineRange> block = directiveBlock(text);
        block && wantFold)
      fold.emplace(text, *block);
    editBuffer = fold ? fold->visible() : text;
    ++editSerial;
  }

  /// "lines 18-58: 41 RUN/CHECK lines [show]", or [hide] once shown.
  void drawFoldSwitch() {
    std::optional<LineRange> block =
        fold ? std::optional<LineRange>(fold->range())
             : directiveBlock(fullText);
    if (!block)
      return;
    ImGui::TextDisabled("lines %u-%u: %u lines of RUN/CHECK directives%s",
                        block->first + 1, block->first + block->count,
                        block->count, fold ? ", folded" : "");
    ImGui::SameLine();
    if (ImGui::SmallButton(fold ? "show##fold" : "fold##fold")) {
      wantFold = !fold;
      load(fullText);
    }
  }

  /// The buffer's lines, indexed once per change of the buffer (find, the
  /// gutter and the overlay all read them every frame).
  const LineIndex &editLines() {
    if (editLinesSerial != editSerial) {
      editLinesSerial = editSerial;
      editIndex = LineIndex(editBuffer);
      longestColumns = 0;
      for (size_t i = 0; i < editIndex.size(); ++i) {
        llvm::StringRef line = editIndex.line(i);
        // Code points: the font is monospaced.
        longestColumns = std::max(longestColumns, utf8Length(line));
      }
    }
    return editIndex;
  }

  /// The file's line (1-based) of the editor's line `visible` (1-based).
  unsigned fileLine(unsigned visible) const {
    return fold ? fold->fileLine(visible) : visible;
  }
  /// The editor's line of a file line; a line inside the fold unfolds it.
  unsigned editorLine(unsigned file) {
    if (!fold)
      return file;
    if (std::optional<unsigned> line = fold->visibleLine(file))
      return *line;
    // Never under the user's typing: the input keeps its own copy.
    if (ImGui::GetActiveID() == ImGui::GetID(kEditorLabel))
      return fold->linesBefore();
    wantFold = false;
    load(fullText);
    return file;
  }

  /// Ctrl+F and Ctrl+G over the buffer; a line found or gone to is
  /// scrolled to, and Ctrl+G (which takes the file's line numbers) also
  /// focuses it, so that its IR lines light up.
  void drawFind(CommandQueue &commands) {
    find.handleKeys(
        ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows));
    const LineIndex &lines = editLines();
    FindMove move = find.draw(
        lines.size(), [&](size_t i) { return lines.line(i); }, editSerial);
    if (move.matchLine >= 0)
      pendingScroll = move.matchLine;
    if (move.typedLine >= 1) {
      unsigned last = fileLine(unsigned(lines.size()));
      unsigned file = std::min(unsigned(move.typedLine), last);
      pendingScroll = int(editorLine(file)) - 1;
      commands.push(cmd::FocusSourceLine{int(file)});
    }
  }

  void collectDiagnostics(const AppState &state) {
    if (state.run.get() == diagnosticsOf)
      return;
    diagnosticsOf = state.run.get();
    diagnostics.clear();
    lineSeverity.clear();
    if (state.run)
      app::collectDiagnostics(*state.run, diagnostics, lineSeverity);
  }

  /// The lines the focused role's ops came from.
  void collectRoleLines(const AppState &state) {
    const std::string &role = state.view.focusedRole;
    if (state.run.get() == roleLinesOf && role == roleLinesName &&
        state.view.selected == roleLinesStep)
      return;
    roleLinesOf = state.run.get();
    roleLinesName = role;
    roleLinesStep = state.view.selected;
    roleLines.clear();
    if (!state.run || role.empty())
      return;
    roleLines = roleSourceLines(*state.run, state.view.selected, role);
    roleColour = palette::roleBackground(role); // by name, as every pane
  }

  void drawEditor(const AppState &state, CommandQueue &commands, ImVec2 size) {
    const char *label = kEditorLabel;
    ImGuiID id = ImGui::GetID(label);
    ImGuiWindow *parent = ImGui::GetCurrentWindow();

    // The line numbers the diagnostics cite, in a gutter left of the
    // editor.
    // The editor numbers the empty line after a final newline too.
    size_t lineCount =
        editLines().size() + (editBuffer.empty() || editBuffer.back() == '\n');
    int digits =
        std::max(3, int(std::to_string(fileLine(unsigned(lineCount))).size()));
    float gutter = ImGui::CalcTextSize("0").x * float(digits + 1);
    float height =
        size.y < 0 ? ImGui::GetContentRegionAvail().y + size.y : size.y;
    ImVec2 gutterPos = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(gutter, std::max(1.0f, height)));
    ImGui::SameLine(0, 0);

    // Lines wider than the editor get a scroll bar of their own below it
    // (ImGui's multiline input only scrolls sideways to follow the caret).
    float textWidth = ImGui::CalcTextSize("0").x * float(longestColumns + 2);
    float viewWidth = ImGui::GetContentRegionAvail().x -
                      ImGui::GetStyle().ScrollbarSize -
                      2 * ImGui::GetStyle().FramePadding.x;
    float barHeight =
        textWidth > viewWidth ? ImGui::GetStyle().ScrollbarSize : 0;
    sideScroll =
        std::clamp(sideScroll, 0.0f, std::max(0.0f, textWidth - viewWidth));
    if (ImGuiInputTextState *input = ImGui::GetInputTextState(id);
        input && sideScrollMoved)
      input->ScrollX = sideScroll;
    sideScrollMoved = false;

    bool allSelected = wholeTextSelected(id);
    ImVec4 text = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    text.w = 0.0f; // the overlay draws the characters
    ImGui::PushStyleColor(ImGuiCol_Text, text);
    // Dark, so that every syntax colour reads at 4.5:1 or more.
    ImGui::PushStyleColor(ImGuiCol_FrameBg, palette::theme().editorBackground);
    bool changed = ImGui::InputTextMultiline(
        label, &editBuffer, ImVec2(-1, std::max(1.0f, height - barHeight)),
        ImGuiInputTextFlags_AllowTabInput);
    ImGui::PopStyleColor(2);
    bool active = ImGui::IsItemActive();
    ImRect editorRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    // While the input is active it moves sideways with the caret. A click
    // that makes it active with a fresh state (its scroll at 0) placed the
    // caret as if the text were not scrolled: placed again below.
    bool replaceCaret = false;
    if (ImGuiInputTextState *input = ImGui::GetInputTextState(id);
        input && active) {
      replaceCaret = ImGui::IsItemActivated() &&
                     ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
                     input->ScrollX != sideScroll;
      if (replaceCaret)
        input->ScrollX = sideScroll;
      sideScroll = input->ScrollX;
    }
    scrollSideways(editorRect, barHeight, textWidth, viewWidth);
    if (changed)
      takeEdit(commands, allSelected);
    ImGuiIO &io = ImGui::GetIO();
    if (active && io.KeyCtrl &&
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
      commands.push(cmd::Recompile{});

    // The multiline input draws inside a child window named after it.
    char childName[256];
    std::snprintf(childName, sizeof(childName), "%s/%s_%08X", parent->Name,
                  label, id);
    ImGuiWindow *child = ImGui::FindWindowByName(childName);
    if (!child)
      return;
    drawGutter(child, gutterPos, ImVec2(gutter, height), digits, lineCount);
    if (replaceCaret)
      placeCaretAtPointer(child, id);
    drawOverlay(state, commands, child, id, active);
  }

  /// Everything the editor shows is selected (Ctrl+A) while the header is
  /// folded: an edit then replaces the whole file, the folded header too
  /// (it stayed, hidden, and came back).
  bool wholeTextSelected(ImGuiID id) const {
    ImGuiInputTextState *input = ImGui::GetInputTextState(id);
    if (!input || !fold || !input->HasSelection())
      return false;
    return std::min(input->Stb.select_start, input->Stb.select_end) == 0 &&
           std::max(input->Stb.select_start, input->Stb.select_end) ==
               input->CurLenW;
  }

  /// The editor's text changed: the file's text is what it shows with the
  /// folded header put back, unless the edit replaced all of it.
  void takeEdit(CommandQueue &commands, bool allSelected) {
    if (fold && allSelected)
      fold.reset(); // nothing stays hidden: the file is what was typed
    if (fold)
      fold->edit(editBuffer);
    fullText = fold ? fold->full() : editBuffer;
    commands.push(cmd::EditSource{fullText});
    ++editSerial;
    // Directives typed or pasted (a whole file over Ctrl+A) beside the
    // folded ones: nothing stays hidden, the fold opens. The input lets
    // go first: it would write its own copy back over the buffer.
    if (fold && directiveBlock(editBuffer)) {
      ImGui::ClearActiveID();
      wantFold = false;
      load(fullText);
    }
  }

  /// The caret (and no selection) where the pointer is, in the editor's
  /// text as the overlay shows it.
  void placeCaretAtPointer(ImGuiWindow *child, ImGuiID id) {
    ImGuiInputTextState *input = ImGui::GetInputTextState(id);
    const LineIndex &lines = editLines();
    if (!input || lines.size() == 0)
      return;
    ImVec2 padding = ImGui::GetStyle().FramePadding;
    ImVec2 mouse = ImGui::GetIO().MousePos;
    float x = mouse.x - (child->Pos.x + child->WindowPadding.x + padding.x) +
              sideScroll;
    float y = mouse.y - (child->Pos.y + child->WindowPadding.y + padding.y) +
              child->Scroll.y;
    size_t line = std::min<size_t>(
        lines.size() - 1, size_t(std::max(0.0f, y / ImGui::GetFontSize())));
    int index = 0; // in the input's wide characters
    for (size_t i = 0; i < line; ++i)
      index += int(utf8Length(lines.line(i))) + 1;
    size_t column =
        size_t(std::max(0.0f, std::round(x / ImGui::CalcTextSize("0").x)));
    index += int(std::min(column, utf8Length(lines.line(line))));
    index = std::min(index, input->CurLenW);
    input->Stb.cursor = input->Stb.select_start = input->Stb.select_end = index;
    input->Stb.has_preferred_x = 0;
  }

  /// Shift+wheel, a sideways wheel and the bar under the editor move its
  /// text sideways; the input, when it has a state, is told.
  void scrollSideways(const ImRect &editor, float barHeight, float textWidth,
                      float viewWidth) {
    ImGuiIO &io = ImGui::GetIO();
    float before = sideScroll;
    float wheel = io.MouseWheelH != 0 ? io.MouseWheelH
                  : io.KeyShift       ? io.MouseWheel
                                      : 0;
    float limit = std::max(0.0f, textWidth - viewWidth);
    if (wheel != 0 && ImGui::IsMouseHoveringRect(editor.Min, editor.Max))
      sideScroll = std::clamp(
          sideScroll - wheel * ImGui::CalcTextSize("0").x * 8, 0.0f, limit);
    if (barHeight > 0) {
      ImRect bar(ImVec2(editor.Min.x, editor.Max.y),
                 ImVec2(editor.Max.x - ImGui::GetStyle().ScrollbarSize,
                        editor.Max.y + barHeight));
      ImS64 position = ImS64(sideScroll);
      if (ImGui::ScrollbarEx(bar, ImGui::GetID("##sideways"), ImGuiAxis_X,
                             &position, ImS64(viewWidth), ImS64(textWidth),
                             ImDrawFlags_RoundCornersAll))
        sideScroll = std::clamp(float(position), 0.0f, limit);
    }
    sideScrollMoved = sideScroll != before;
  }

  /// Line numbers beside the editor's visible lines, scrolled with it;
  /// lines with a diagnostic numbered in its colour.
  void drawGutter(ImGuiWindow *child, ImVec2 pos, ImVec2 size, int digits,
                  size_t lines) {
    float lineHeight = ImGui::GetFontSize();
    float top = child->Pos.y + child->WindowPadding.y +
                ImGui::GetStyle().FramePadding.y - child->Scroll.y;
    ImDrawList *drawList = ImGui::GetWindowDrawList();
    drawList->PushClipRect(ImVec2(pos.x, child->InnerClipRect.Min.y),
                           ImVec2(pos.x + size.x, child->InnerClipRect.Max.y),
                           true);
    int first = std::max(0, int(child->Scroll.y / lineHeight) - 1);
    int last =
        std::min<int>(lines, first + int(child->Size.y / lineHeight) + 3);
    char number[16];
    for (int i = first; i < last; ++i) {
      unsigned line = fileLine(unsigned(i + 1));
      auto severity = lineSeverity.find(line);
      ImU32 colour =
          severity == lineSeverity.end()        ? palette::theme().lineNumber
          : severity->second == Severity::Error ? palette::theme().failedMarker
                                                : palette::theme().warningText;
      std::snprintf(number, sizeof number, "%*u", digits, line);
      drawList->AddText(ImVec2(pos.x, top + i * lineHeight), colour, number);
    }
    // Where the folded lines are: a rule between the numbers around them.
    if (fold) {
      float y = top + float(fold->linesBefore()) * lineHeight;
      drawList->AddLine(ImVec2(pos.x, y), ImVec2(pos.x + size.x, y),
                        palette::theme().searchOutline, 2);
    }
    drawList->PopClipRect();
  }

  void drawOverlay(const AppState &state, CommandQueue &commands,
                   ImGuiWindow *child, ImGuiID id, bool active) {
    const LineIndex &lines = editLines();
    ImVec2 padding = ImGui::GetStyle().FramePadding;
    ImVec2 origin(
        child->Pos.x + child->WindowPadding.x - child->Scroll.x + padding.x,
        child->Pos.y + child->WindowPadding.y - child->Scroll.y + padding.y);
    // The coloured text follows the editor's sideways scroll.
    origin.x -= sideScroll;
    float lineHeight = ImGui::GetFontSize();
    ImDrawList *drawList = child->DrawList;
    drawList->PushClipRect(child->InnerClipRect.Min, child->InnerClipRect.Max,
                           true);
    int first = std::max(0, int((child->Scroll.y) / lineHeight) - 1);
    int last = std::min<int>(lines.size(),
                             first + int(child->Size.y / lineHeight) + 3);
    float right = child->Pos.x + child->Size.x;
    for (int i = first; i < last; ++i) {
      ImVec2 pos(origin.x, origin.y + i * lineHeight);
      ImU32 background = 0;
      unsigned line = fileLine(unsigned(i + 1));
      auto severity = lineSeverity.find(line);
      if (severity != lineSeverity.end())
        background = severity->second == Severity::Error
                         ? palette::theme().errorLine
                         : palette::theme().warningLine;
      else if (state.view.focusedSourceLine == line)
        background = palette::theme().correlated;
      else if (std::binary_search(roleLines.begin(), roleLines.end(), line))
        background = roleColour;
      else if (find.hasMatchOn(size_t(i)))
        background = palette::theme().searchMatch;
      if (background)
        drawList->AddRectFilled(pos, ImVec2(right, pos.y + lineHeight),
                                background);
      drawColouredLine(drawList, pos, lines.line(i), Language::MLIR);
      find.drawMarks(drawList, pos, size_t(i), lines.line(i), lineHeight);
    }
    if (pendingScroll >= 0) {
      ImGui::SetScrollY(child, std::max(0.0f, pendingScroll * lineHeight -
                                                  child->Size.y * 0.4f));
      pendingScroll = -1;
    }

    drawCaret(drawList, origin, lineHeight, id, active, commands);
    drawList->PopClipRect();
    if (recordingTextInView())
      addTextInView("text",
                    linesInView(
                        child->InnerClipRect, origin, lineHeight, lines.size(),
                        [&](size_t i) { return lines.line(i); },
                        [&](size_t i) { return fileLine(i + 1); }));
    followPickedLines(state, child, lineHeight);
    showHoveredMessages(child, origin, lineHeight);
  }

  /// The caret, which the transparent text colour hid; moving it to
  /// another line focuses that line elsewhere (the IR, the assembly).
  void drawCaret(ImDrawList *drawList, ImVec2 origin, float lineHeight,
                 ImGuiID id, bool active, CommandQueue &commands) {
    const LineIndex &lines = editLines();
    if (ImGuiInputTextState *input = ImGui::GetInputTextState(id);
        input && active) {
      int cursor = input->Stb.cursor;
      int line = 0, column = 0;
      for (int i = 0; i < cursor && i < input->CurLenW; ++i) {
        if (input->TextW[i] == '\n') {
          ++line;
          column = 0;
        } else {
          ++column;
        }
      }
      if (line < int(lines.size()) || lines.size() == 0) {
        llvm::StringRef text = lines.size() ? lines.line(line) : "";
        size_t bytes = utf8ByteOffset(text, column);
        float x = ImGui::GetFont()
                      ->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0,
                                      text.data(), text.data() + bytes)
                      .x;
        bool visible = input->CursorAnim <= 0.0f ||
                       std::fmod(input->CursorAnim, 1.20f) <= 0.80f;
        ImVec2 top(origin.x + x, origin.y + line * lineHeight);
        if (visible)
          drawList->AddLine(top, ImVec2(top.x, top.y + lineHeight - 1),
                            palette::theme().brightText);
        if (fileLine(unsigned(line + 1)) != caretLine) {
          caretLine = fileLine(unsigned(line + 1));
          commands.push(cmd::FocusSourceLine{int(caretLine)});
        }
      }
    }
  }

  /// A role picked in the Warp roles pane, or a line picked elsewhere,
  /// scrolls into view.
  void followPickedLines(const AppState &state, ImGuiWindow *child,
                         float lineHeight) {
    // A role picked in the Warp roles pane brings its first line into view.
    if (roleLinesScrolled != roleLinesName && !roleLines.empty()) {
      roleLinesScrolled = roleLinesName;
      float y = (editorLine(roleLines.front()) - 1) * lineHeight;
      if (y < child->Scroll.y ||
          y > child->Scroll.y + child->Size.y - 2 * lineHeight)
        ImGui::SetScrollY(child, std::max(0.0f, y - child->Size.y * 0.2f));
    }

    // A line picked elsewhere (a click in the IR or assembly) scrolls into
    // view; the caret's own line does not move the view.
    unsigned focused = state.view.focusedSourceLine;
    if (focused != lastFocused) {
      lastFocused = focused;
      float y = focused ? (editorLine(focused) - 1) * lineHeight : 0;
      if (focused && focused != caretLine &&
          (y < child->Scroll.y ||
           y > child->Scroll.y + child->Size.y - 2 * lineHeight))
        ImGui::SetScrollY(child, std::max(0.0f, y - child->Size.y * 0.4f));
    }
    // The lines a lesson step names, together (none: back to the left).
    if (const PaneReveal *reveal = reveals.take(state, Pane::Source)) {
      auto [low, high] =
          std::minmax_element(reveal->lines.begin(), reveal->lines.end());
      if (low != reveal->lines.end())
        ImGui::SetScrollY(child,
                          spanScrollY(child->InnerClipRect.GetHeight(),
                                      lineHeight, int(editorLine(*low)) - 1,
                                      int(editorLine(*high)) - 1));
      revealSideways(reveal->lines, child->InnerClipRect.GetWidth());
    }
  }

  /// Sideways to where the named lines' code starts where a dozen of its
  /// characters would not show (klx.params lines were blank rows).
  void revealSideways(const std::vector<unsigned> &fileLines, float width) {
    size_t indent = SIZE_MAX;
    for (unsigned file : fileLines)
      if (unsigned line = editorLine(file);
          line && line <= editLines().size()) {
        llvm::StringRef text = editLines().line(line - 1);
        indent = std::min({indent, text.size(), text.find_first_not_of(" \t")});
      }
    float charWidth = ImGui::CalcTextSize("0").x;
    bool fits = indent == SIZE_MAX || float(indent + 12) * charWidth <= width;
    float target = fits ? 0 : float(indent) * charWidth;
    sideScrollMoved = target != sideScroll;
    sideScroll = target;
  }

  void showHoveredMessages(ImGuiWindow *child, ImVec2 origin,
                           float lineHeight) {
    // Hovering a marked line shows its messages.
    if (ImGui::IsMouseHoveringRect(child->InnerClipRect.Min,
                                   child->InnerClipRect.Max)) {
      int row = int((ImGui::GetIO().MousePos.y - origin.y) / lineHeight) + 1;
      unsigned line = row >= 1 ? fileLine(unsigned(row)) : 0;
      if (lineSeverity.count(line))
        lineMessagesTooltip(diagnostics, line);
    }
  }

  static constexpr const char *kEditorLabel = "##source";
  std::string editBuffer;
  /// The whole text the editor stands for (editBuffer with the folded
  /// lines put back), as last loaded or edited.
  std::string fullText;
  std::optional<FoldedText> fold;
  bool wantFold = true;
  std::string shownPath;
  /// Counts the changes of editBuffer, so that find and editLines read it
  /// again.
  uint64_t editSerial = 0;
  LineIndex editIndex;
  uint64_t editLinesSerial = ~uint64_t(0);
  size_t longestColumns = 0; // of editBuffer's lines
  /// How far the editor's text is scrolled sideways, in pixels; moved by
  /// the user this frame, to be handed to the input next frame.
  float sideScroll = 0;
  bool sideScrollMoved = false;
  FindBar find;
  int pendingScroll = -1;
  const PipelineRun *diagnosticsOf = nullptr;
  std::vector<Diag> diagnostics;
  std::map<unsigned, Severity> lineSeverity;
  unsigned caretLine = 0;
  unsigned lastFocused = 0;
  RevealTracker reveals; // the lesson steps' requests
  const PipelineRun *roleLinesOf = nullptr;
  std::string roleLinesName;
  std::string roleLinesScrolled;
  int roleLinesStep = -1;
  std::vector<unsigned> roleLines;
  ImU32 roleColour = 0;
};

} // namespace

std::unique_ptr<Panel> createSourcePanel() {
  return std::make_unique<SourcePanel>();
}

} // namespace klx::app
