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
  std::string typed(data->Buf, data->BufTextLen);
  if (data->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    PathCompletion completion = completePath(typed, field->kinds, kListLimit);
    if (completion.completed != typed) {
      data->DeleteChars(0, data->BufTextLen);
      data->InsertChars(0, completion.completed.c_str());
      field->highlighted = -1;
    }
    field->listOpen = true;
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackHistory) {
    int count = int(field->completion.candidates.size());
    if (count == 0)
      return 0;
    bool down = data->EventKey == ImGuiKey_DownArrow;
    if (field->highlighted < 0)
      field->highlighted = down ? 0 : count - 1;
    else
      field->highlighted =
          (field->highlighted + (down ? 1 : count - 1)) % count;
    field->listOpen = true;
    field->scrollToPicked = true;
  }
  return 0;
}

void PathField::refresh() {
  if (text == listedFor)
    return;
  completion = completePath(text, kinds, kListLimit);
  listedFor = text;
  highlighted = std::min(highlighted, int(completion.candidates.size()) - 1);
}

std::optional<std::string> PathField::choose(const PathCandidate &candidate) {
  text = chosenPath(completion, candidate);
  highlighted = -1;
  if (candidate.directory) {
    refocus = true;
    return std::nullopt;
  }
  listOpen = false;
  return text;
}

std::optional<std::string> PathField::draw(const char *hint) {
  if (refocus) {
    ImGui::SetKeyboardFocusHere();
    refocus = false;
  }
  // Room for the Open button at any zoom (the style and font scale).
  const ImGuiStyle &style = ImGui::GetStyle();
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("Open").x +
                            style.FramePadding.x * 2 + style.ItemSpacing.x));
  bool enter =
      ImGui::InputTextWithHint("##path", hint, &text,
                               ImGuiInputTextFlags_EnterReturnsTrue |
                                   ImGuiInputTextFlags_CallbackCompletion |
                                   ImGuiInputTextFlags_CallbackHistory,
                               &PathField::onKey, this);
  bool editing = ImGui::IsItemActive();
  if (ImGui::IsItemEdited()) {
    listOpen = true;
    highlighted = -1;
  }
  if (editing && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    listOpen = false;
  refresh();
  ImGui::SameLine();
  bool openClicked = ImGui::Button("Open");

  std::optional<std::string> chosen;
  if (enter && listOpen && highlighted >= 0 &&
      highlighted < int(completion.candidates.size()))
    chosen = choose(completion.candidates[size_t(highlighted)]);
  else if ((enter || openClicked) && !text.empty()) {
    listOpen = false;
    chosen = text;
  }
  // The list stays while the field has the keyboard, and while a click
  // on the list takes the keyboard from the field: a frame after it lost
  // it, and as long as the mouse is on the list.
  bool shown = editing || wasEditing || listHovered || refocus;
  wasEditing = editing;
  if (listOpen && !text.empty() && shown) {
    if (std::optional<std::string> clicked = drawList())
      chosen = clicked;
  } else {
    listHovered = false;
  }
  return chosen;
}

std::optional<std::string> PathField::drawList() {
  if (!completion.problem.empty()) {
    ImGui::TextDisabled("%s", completion.problem.c_str());
    listHovered = false;
    return std::nullopt;
  }
  if (completion.candidates.empty()) {
    ImGui::TextDisabled(kinds == PathKinds::Traces
                            ? "no trace (.json, .chrome_trace) or folder here"
                            : "nothing here that klx opens (.mlir, .json, "
                              ".chrome_trace) or a folder");
    listHovered = false;
    return std::nullopt;
  }
  int rows = std::min(int(completion.candidates.size()), kListRows);
  float height = rows * ImGui::GetTextLineHeightWithSpacing() +
                 ImGui::GetStyle().WindowPadding.y * 2;
  std::optional<std::string> chosen;
  ImGui::BeginChild("##completions", ImVec2(-FLT_MIN, height), true);
  listHovered = ImGui::IsWindowHovered();
  for (size_t i = 0; i < completion.candidates.size(); ++i) {
    const PathCandidate &candidate = completion.candidates[i];
    std::string label = candidate.name + (candidate.directory ? "/" : "");
    bool picked = int(i) == highlighted;
    if (ImGui::Selectable(label.c_str(), picked))
      chosen = choose(candidate);
    if (picked && scrollToPicked)
      ImGui::SetScrollHereY();
  }
  scrollToPicked = false;
  ImGui::EndChild();
  if (completion.more > 0)
    ImGui::TextDisabled("... and %zu more; type more of the name",
                        completion.more);
  return chosen;
}
