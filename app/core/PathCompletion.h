//===- PathCompletion.h - Completing a typed file path ----------*- C++ -*-===//
//
// What the Samples pane's path field offers while a person types: the
// entries of the typed directory whose names start with the typed rest,
// and how far Tab can complete it, as a shell would. No ImGui here: the
// pane draws the result and turns clicks and keys into edits.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_PATHCOMPLETION_H
#define KLX_APP_CORE_PATHCOMPLETION_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace klx::app {

/// Which files a field lists (folders always).
enum class PathKinds {
  KernelsAndTraces, // .mlir, .json, .chrome_trace
  Traces,           // .json, .chrome_trace
  Folders,          // no files: where to save
};

struct PathCandidate {
  std::string name; // the entry's name, without its directory
  bool directory = false;
};

struct PathCompletion {
  /// The typed text up to and including its last '/' ("" for none): what
  /// a candidate's name is appended to.
  std::string directoryPart;
  /// Directories first, then files, each by name. Files are those of the
  /// kinds asked for; names that start with '.' only when the typed name
  /// does.
  std::vector<PathCandidate> candidates;
  /// Candidates left out past the limit.
  size_t more = 0;
  /// The folder had more entries than were read (the scan limit).
  bool scanStopped = false;
  /// The typed text extended as far as every candidate agrees, with a '/'
  /// after a directory that is the only candidate; the typed text itself
  /// when there is nothing to add.
  std::string completed;
  /// Why the directory could not be listed ("no such folder: ...", "not
  /// a folder: ...", "cannot list ..."), else empty.
  std::string problem;
};

/// Lists what `typed` could go on to name: a leading "~/" is the home
/// directory, a relative path is relative to the working directory.
/// Reads one directory, at most `scanLimit` of its entries.
PathCompletion completePath(llvm::StringRef typed,
                            PathKinds kinds = PathKinds::KernelsAndTraces,
                            size_t limit = 200, size_t scanLimit = 20000);

/// `candidate` appended to the typed directory, with a '/' after a
/// directory: what choosing it puts in the field.
std::string chosenPath(const PathCompletion &completion,
                       const PathCandidate &candidate);

/// `path` with a leading "~/" (or a lone "~") made the home directory;
/// any other path as it is.
std::string expandHome(llvm::StringRef path);

/// Whether a file with this name is of `kinds`.
bool isOfKinds(llvm::StringRef name, PathKinds kinds);

} // namespace klx::app

#endif // KLX_APP_CORE_PATHCOMPLETION_H
