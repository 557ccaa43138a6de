//===- Keys.cpp - Every shortcut of the window, for Help > Keys -----------===//

#include "core/Keys.h"

using namespace klx::app;

namespace {
constexpr KeyHelp kKeys[] = {
    {"F10 / Shift+F10", "the next / the previous step of the pipeline",
     "anywhere"},
    {"Down / Up", "the next / the previous step", "the Passes pane"},
    {"Ctrl+Enter", "compile now (edits compile after a pause anyway)",
     "the Source pane"},
    {"Ctrl+O", "open a kernel or a trace (File > Open)", "anywhere"},
    {"Ctrl+S", "save the kernel", "anywhere"},
    {"Ctrl+F / Ctrl+G", "find / go to a line", "a text pane"},
    {"Escape", "close the find bar, a list or a dialog", "anywhere"},
    {"Ctrl+A / Ctrl+C", "select all / copy", "a text pane"},
    {"Tab", "complete a path", "a path field"},
    {"Ctrl+= / Ctrl+- / Ctrl+0", "zoom in / out / actual size", "anywhere"},
    {"Ctrl+wheel", "zoom the window", "anywhere"},
    {"Alt+1 / Alt+2 / Alt+3", "the Explore / Diff / Teach layout", "anywhere"},
    {"Alt+0",
     "the pane with the keyboard fills the window, or every pane "
     "back (a double click on a title does the same)",
     "anywhere"},
    {"Alt+L", "the light theme (projectors) or the dark one", "anywhere"},
    {"wheel / drag", "zoom around the pointer / pan the time axis",
     "the Barrier timeline and Measured panes"},
    {"W / S, A / D", "zoom in / out, pan left / right", "the Barrier timeline"},
    {"Shift+drag", "measure a stretch of time", "the Barrier timeline"},
    {"Alt+Right / Alt+Left", "the lesson's next / previous step, followed",
     "anywhere"},
    {"F1", "this list", "anywhere"},
};
} // namespace

llvm::ArrayRef<KeyHelp> klx::app::keyHelp() { return kKeys; }
