//===- Autosave.h - Unsaved edits survive a restart -------------*- C++ -*-===//
//
// Edits are written to a per-user folder, never over the file the user
// opened; opening that file again offers the edits back.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_AUTOSAVE_H
#define KLX_APP_CORE_AUTOSAVE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace klx::app {

class Autosave {
public:
  /// `folder` empty: $KLX_STATE_DIR, $XDG_STATE_HOME/klx or
  /// ~/.local/state/klx, each with /autosave appended.
  explicit Autosave(std::string folder = "");

  /// The autosaved text for a source file, if there is one.
  std::optional<std::string> load(llvm::StringRef sourcePath) const;
  /// Writes edits of `sourcePath`; false if the folder is not writable.
  bool store(llvm::StringRef sourcePath, llvm::StringRef text) const;
  /// Forgets the edits (after save or revert).
  void discard(llvm::StringRef sourcePath) const;

  const std::string &folder() const { return root; }
  std::string pathFor(llvm::StringRef sourcePath) const;

private:
  std::string root;
};

} // namespace klx::app

#endif // KLX_APP_CORE_AUTOSAVE_H
