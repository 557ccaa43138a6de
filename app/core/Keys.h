//===- Keys.h - Every shortcut of the window, for Help > Keys ---*- C++ -*-===//
//
// One list of what each key does, which Help > Keys (F1) shows; a unit
// test holds the menus' shortcut labels to it. Nothing here includes
// ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_KEYS_H
#define KLX_APP_CORE_KEYS_H

#include "llvm/ADT/ArrayRef.h"

namespace klx::app {

struct KeyHelp {
  const char *keys;  // "Ctrl+S", "F10 / Shift+F10"
  const char *what;  // "save the kernel"
  const char *where; // "anywhere", "the Source pane", ...
};

llvm::ArrayRef<KeyHelp> keyHelp();

} // namespace klx::app

#endif // KLX_APP_CORE_KEYS_H
