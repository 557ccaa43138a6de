//===- PathField.h - A path field that completes what is typed --*- C++ -*-===//
//
// The "open a file" field of the Samples pane (kernels and traces) and of
// the Measured pane without a trace (traces), and the Save-as dialog's
// (folders). While a person types, the
// typed directory's folders and files of those kinds are listed under it;
// Tab completes as far as they agree (a lone directory gets its '/'), Up
// and Down pick one, Enter or a click chooses it: a directory is stepped
// into, a file is returned to be opened. Escape closes the list. The
// completion itself is app/core/PathCompletion.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_PATHFIELD_H
#define KLX_APP_WIDGETS_PATHFIELD_H

#include "core/PathCompletion.h"

#include <optional>
#include <string>

struct ImGuiInputTextCallbackData;

namespace klx::app {

class PathField {
public:
  /// `button`: the button beside the field ("Open"), or none (null).
  explicit PathField(PathKinds kinds = PathKinds::KernelsAndTraces,
                     const char *button = "Open")
      : kinds(kinds), button(button) {}

  /// Draws the field (`width` pixels wide; 0: the row, less the button),
  /// its button and, while it is edited, what it could name. Returns the
  /// path (with ~ put in) once the person asks for it: Enter, the button.
  std::optional<std::string> draw(const char *hint, float width = 0);

  /// Puts `path` in the field (a dialog's suggestion), and with `focus`
  /// gives it the keyboard with the cursor at the end.
  void setText(std::string path, bool focus);
  /// Gives the field the keyboard next frame, the cursor at the end.
  void focus() { refocus = cursorToEnd = true; }
  /// What is typed, with ~ put in.
  std::string path() const { return expandHome(text); }
  /// Whether the list was drawn in the last frame: Escape then closes it,
  /// not the dialog around it.
  bool listVisible() const { return listShown; }

private:
  static int onKey(ImGuiInputTextCallbackData *data);
  /// The entries `typed` could go on to name, listed again only when it
  /// differs from the text they were listed for.
  const PathCompletion &listFor(const std::string &typed);
  /// What choosing a listed entry does: a directory is stepped into (the
  /// field keeps the keyboard), a file is returned to be opened.
  std::optional<std::string> choose(const PathCandidate &candidate);
  std::optional<std::string> drawList();

  PathKinds kinds;
  const char *button;
  std::string text;
  PathCompletion completion;
  std::string listedFor = "\x01"; // the text `completion` is for
  int highlighted = -1;           // the entry Up/Down picked, or none
  bool listOpen = false;          // typed since it was closed or chosen
  bool listShown = false;         // ... and drawn in the last frame
  bool listHovered = false, listFocused = false;
  bool wasEditing = false;     // the field had the keyboard the frame before
  bool refocus = false;        // give the field the keyboard this frame
  bool stepping = false;       // a folder was chosen; the field takes the
                               // keyboard back
  bool cursorToEnd = false;    // ... with the cursor after the folder's '/'
  bool scrollToPicked = false; // Up/Down moved the pick since the last frame
  float fieldWidth = 0;        // the field's, for a list without a button
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_PATHFIELD_H
