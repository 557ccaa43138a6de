//===- TextInView.cpp - Which lines each text pane shows ------------------===//

#include "TextInView.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>

using namespace klx::app;

llvm::StringRef klx::app::columnsInView(llvm::StringRef line, float x0,
                                        float x1) {
  ImFont *font = ImGui::GetFont();
  float scale = ImGui::GetFontSize() / font->FontSize;
  size_t begin = line.size(), end = line.size();
  float at = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if ((line[i] & 0xC0) == 0x80) // inside a UTF-8 sequence
      continue;
    float width = font->GetCharAdvance(ImWchar((unsigned char)line[i])) * scale;
    if (begin == line.size() && at >= x0 - 0.5f)
      begin = i;
    if (at + width > x1 + 0.5f) {
      end = i;
      break;
    }
    at += width;
  }
  return begin >= end ? llvm::StringRef() : line.slice(begin, end);
}

std::vector<LineInView>
klx::app::linesInView(const ImRect &clip, ImVec2 textOrigin, float lineHeight,
                      size_t lineCount,
                      llvm::function_ref<llvm::StringRef(size_t)> line,
                      llvm::function_ref<unsigned(size_t)> number) {
  std::vector<LineInView> lines;
  float above = std::ceil((clip.Min.y - textOrigin.y) / lineHeight - 0.01f);
  for (size_t i = size_t(std::max(0.0f, above)); i < lineCount; ++i) {
    float top = textOrigin.y + float(i) * lineHeight;
    if (top + lineHeight > clip.Max.y + 0.5f)
      break;
    lines.push_back(
        {number(i), columnsInView(line(i), clip.Min.x - textOrigin.x,
                                  clip.Max.x - textOrigin.x)
                        .str()});
  }
  return lines;
}

namespace {
// One window per process, drawn on one thread: the frame's record.
struct FrameRecord {
  bool on = false;
  std::string pane;
  std::vector<TextInView> views;
};
FrameRecord &frameRecord() {
  static FrameRecord record;
  return record;
}
} // namespace

void klx::app::beginTextInViewFrame(bool record) {
  FrameRecord &frame = frameRecord();
  frame.on = record;
  frame.pane.clear();
  frame.views.clear();
}

bool klx::app::recordingTextInView() { return frameRecord().on; }

void klx::app::setTextInViewPane(llvm::StringRef pane) {
  frameRecord().pane = pane.str();
}

void klx::app::addTextInView(llvm::StringRef view,
                             std::vector<LineInView> lines) {
  FrameRecord &frame = frameRecord();
  if (frame.on)
    frame.views.push_back({frame.pane, view.str(), std::move(lines)});
}

const std::vector<TextInView> &klx::app::textInViewThisFrame() {
  return frameRecord().views;
}
