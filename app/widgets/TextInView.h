//===- TextInView.h - Which lines each text pane shows ----------*- C++ -*-===//
//
// What a screenshot's layout file says each text pane shows: its lines in
// view this frame, each clipped to the columns in view, so that a test
// checks that a lesson step brought what it names into view without
// reading pixels. Recorded only for a window that takes screenshots.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_TEXTINVIEW_H
#define KLX_APP_WIDGETS_TEXTINVIEW_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <imgui.h>

#include <string>
#include <vector>

struct ImRect;

namespace klx::app {

struct LineInView {
  unsigned number = 0; // 1-based; the file's, for the Source pane
  std::string text;    // only what the pane's width shows of it
};

/// One text view's lines in view.
struct TextInView {
  std::string pane; // the pane drawing it ("IR", "Assembly")
  std::string view; // which of its views ("PTX", "text")
  std::vector<LineInView> lines;
};

/// The characters of `line` wholly inside [x0, x1] (pixels from the
/// line's start, at the current font): what a pane scrolled sideways shows.
llvm::StringRef columnsInView(llvm::StringRef line, float x0, float x1);

/// The lines of a text drawn from `textOrigin` (its first line's top
/// left, past any gutter) wholly inside `clip`, each clipped to the
/// columns inside it; `line(i)` and `number(i)` for the 0-based line i.
std::vector<LineInView>
linesInView(const ImRect &clip, ImVec2 textOrigin, float lineHeight,
            size_t lineCount, llvm::function_ref<llvm::StringRef(size_t)> line,
            llvm::function_ref<unsigned(size_t)> number);

/// Starts a frame's record (`record`: keep one this frame at all).
void beginTextInViewFrame(bool record);
/// Whether this frame keeps a record.
bool recordingTextInView();
/// The pane whose text views draw next.
void setTextInViewPane(llvm::StringRef pane);
/// Adds one view's lines in view, under the pane set last.
void addTextInView(llvm::StringRef view, std::vector<LineInView> lines);
/// This frame's record so far.
const std::vector<TextInView> &textInViewThisFrame();

} // namespace klx::app

#endif // KLX_APP_WIDGETS_TEXTINVIEW_H
