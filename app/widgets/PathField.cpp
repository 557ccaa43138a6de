//===- PathField.cpp - A path field that completes what is typed ----------===//

#include "widgets/PathField.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

using namespace klx::app;

namespace {

/// Rows of entries shown at once; more scroll.
constexpr int kListRows = 8;
/// Entries listed at most (the rest are counted).
constexpr size_t kListLimit = 200;

} // namespace

int PathField::onKey(ImGuiInputTextCallbackData *data) {
  auto *field = static_cast<PathField *>(data->UserData);
  if (data->EventFlag == ImGuiInputTextFlags_CallbackAlways) {
    // Stepped into a folder: type on at the end of its path.
    if (field->cursorToEnd) {
      data->CursorPos = data->SelectionStart = data->SelectionEnd =
          data->BufTextLen;
      field->cursorToEnd = false;
    }
    return 0;
  }
  std::string typed(data->Buf, data->BufTextLen);
  if (data->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    // The listing drawn for this text, unless it changed since the frame.
    std::string completed = field->listFor(typed).completed;
    if (completed != typed) {
      data->DeleteChars(0, data->BufTextLen);
      data->InsertChars(0, completed.c_str());
      field->highlighted = -1;
    }
    field->listOpen = true;
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackHistory) {
    // Only among entries the person sees: none while the field is empty.
    int count = int(field->completion.candidates.size());
    if (count == 0 || typed.empty() || !field->listShown)
      return 0;
    bool down = data->EventKey == ImGuiKey_DownArrow;
    if (field->highlighted < 0)
      field->highlighted = down ? 0 : count - 1;
    else
      field->highlighted =
          (field->highlighted + (down ? 1 : count - 1)) % count;
    field->scrollToPicked = true;
  }
  return 0;
}

const PathCompletion &PathField::listFor(const std::string &typed) {
  if (typed != listedFor) {
    completion = completePath(typed, kinds, kListLimit);
    listedFor = typed;
    highlighted = std::min(highlighted, int(completion.candidates.size()) - 1);
  }
  return completion;
}

std::optional<std::string> PathField::choose(const PathCandidate &candidate) {
  text = chosenPath(completion, candidate);
  highlighted = -1;
  if (candidate.directory) {
    refocus = stepping = cursorToEnd = true;
    return std::nullopt;
  }
  listOpen = false;
  return path();
}

void PathField::setText(std::string path, bool focus) {
  text = std::move(path);
  highlighted = -1;
  listOpen = false;
  refocus = cursorToEnd = focus;
}

std::optional<std::string> PathField::draw(const char *hint, float width) {
  if (refocus) {
    ImGui::SetKeyboardFocusHere();
    refocus = false;
  }
  // Room for the button at any zoom (the style and font scale).
  const ImGuiStyle &style = ImGui::GetStyle();
  if (width > 0)
    ImGui::SetNextItemWidth(width);
  else if (button)
    ImGui::SetNextItemWidth(-(ImGui::CalcTextSize(button).x +
                              style.FramePadding.x * 2 + style.ItemSpacing.x));
  else
    ImGui::SetNextItemWidth(-FLT_MIN);
  std::string typed = text;
  bool enter = ImGui::InputTextWithHint(
      "##path", hint, &text,
      ImGuiInputTextFlags_EnterReturnsTrue |
          ImGuiInputTextFlags_CallbackCompletion |
          ImGuiInputTextFlags_CallbackHistory |
          (cursorToEnd ? ImGuiInputTextFlags_CallbackAlways : 0),
      &PathField::onKey, this);
  bool editing = ImGui::IsItemActive();
  fieldWidth = ImGui::GetItemRectSize().x;
  if (ImGui::IsItemEdited()) {
    listOpen = true;
    highlighted = -1;
  }
  // Escape in an InputText puts back the text the field had when it took
  // the keyboard, and lets go of it: keep what was typed, close the list.
  if (wasEditing && !editing &&
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    text = typed;
    listOpen = false;
  }
  if (editing)
    stepping = false;
  listFor(text);
  bool openClicked = false;
  if (button) {
    ImGui::SameLine();
    openClicked = ImGui::Button(button);
  }

  std::optional<std::string> chosen;
  if (enter && listShown && highlighted >= 0 &&
      highlighted < int(completion.candidates.size()))
    chosen = choose(completion.candidates[size_t(highlighted)]);
  else if ((enter || openClicked) && !text.empty()) {
    listOpen = false;
    chosen = path();
  }
  // The list stays while the field has the keyboard, while a click on the
  // list takes the keyboard from the field (a frame after it let go, then
  // as long as the list is hovered or holds the click), and while a folder
  // chosen gives the keyboard back.
  bool shown = editing || wasEditing || listHovered || listFocused || stepping;
  wasEditing = editing;
  listShown = listOpen && !text.empty() && shown;
  if (listShown) {
    if (std::optional<std::string> clicked = drawList())
      chosen = clicked;
  } else {
    listHovered = listFocused = false;
  }
  return chosen;
}

std::optional<std::string> PathField::drawList() {
  listHovered = listFocused = false;
  if (!completion.problem.empty()) {
    ImGui::TextDisabled("%s", completion.problem.c_str());
    return std::nullopt;
  }
  if (completion.candidates.empty()) {
    ImGui::TextDisabled(
        kinds == PathKinds::Traces    ? "no trace (.json, .chrome_trace) or "
                                        "folder here"
        : kinds == PathKinds::Folders ? "no folder here; the name is the file's"
                                      : "nothing here that klx opens (.mlir, "
                                        ".json, .chrome_trace) or a folder");
    return std::nullopt;
  }
  int rows = std::min(int(completion.candidates.size()), kListRows);
  float height = rows * ImGui::GetTextLineHeightWithSpacing() +
                 ImGui::GetStyle().WindowPadding.y * 2;
  std::optional<std::string> chosen;
  // As wide as the row, or in a dialog that sizes itself, the field.
  ImGui::BeginChild("##completions",
                    ImVec2(button ? -FLT_MIN : fieldWidth, height), true);
  // A click held on an entry or the scrollbar makes that the active item,
  // and a window under an active item does not count as hovered.
  listHovered =
      ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
  listFocused = ImGui::IsWindowFocused();
  for (size_t i = 0; i < completion.candidates.size(); ++i) {
    const PathCandidate &candidate = completion.candidates[i];
    std::string label = candidate.name + (candidate.directory ? "/" : "");
    bool picked = int(i) == highlighted;
    // The name drawn as it is: a label would read "##" in it as an ID.
    ImGui::PushID(int(i));
    ImVec2 at = ImGui::GetCursorScreenPos();
    if (ImGui::Selectable("##entry", picked))
      chosen = choose(candidate);
    ImGui::GetWindowDrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_Text),
                                        label.c_str());
    ImGui::PopID();
    if (picked && scrollToPicked)
      ImGui::SetScrollHereY();
  }
  scrollToPicked = false;
  ImGui::EndChild();
  if (completion.more > 0 || completion.scanStopped)
    ImGui::TextDisabled(
        "... and %zu more%s; type more of the name", completion.more,
        completion.scanStopped ? " (the folder was read in part)" : "");
  return chosen;
}
