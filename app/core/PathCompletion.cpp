//===- PathCompletion.cpp - Completing a typed file path ------------------===//

#include "core/PathCompletion.h"
#include "core/Command.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace klx::app;

bool klx::app::isOfKinds(llvm::StringRef name, PathKinds kinds) {
  if (kinds == PathKinds::Folders)
    return false;
  return isTraceFileName(name) ||
         (kinds == PathKinds::KernelsAndTraces && name.ends_with(".mlir"));
}

std::string klx::app::expandHome(llvm::StringRef path) {
  if (path != "~" && !path.starts_with("~/"))
    return path.str();
  llvm::SmallString<256> home;
  if (!llvm::sys::path::home_directory(home))
    return path.str();
  return (home + path.drop_front(1)).str();
}

namespace {

/// The directory to list for `directoryPart` ("" is the working
/// directory; "~/" the home directory).
std::string directoryToList(llvm::StringRef directoryPart) {
  return directoryPart.empty() ? "." : expandHome(directoryPart);
}

/// The longest prefix every candidate's name shares.
std::string commonPrefix(const std::vector<PathCandidate> &candidates) {
  std::string prefix = candidates.front().name;
  for (const PathCandidate &candidate : candidates) {
    size_t same = 0;
    while (same < prefix.size() && same < candidate.name.size() &&
           prefix[same] == candidate.name[same])
      ++same;
    prefix.resize(same);
  }
  return prefix;
}

} // namespace

PathCompletion klx::app::completePath(llvm::StringRef typed, PathKinds kinds,
                                      size_t limit, size_t scanLimit) {
  PathCompletion completion;
  completion.completed = typed.str();
  size_t slash = typed.rfind('/');
  llvm::StringRef namePart = typed;
  if (slash != llvm::StringRef::npos) {
    completion.directoryPart = typed.take_front(slash + 1).str();
    namePart = typed.drop_front(slash + 1);
  } else if (typed == "~") {
    completion.completed = "~/";
    completion.directoryPart = "~/";
    namePart = "";
  }
  std::string directory = directoryToList(completion.directoryPart);
  if (!llvm::sys::fs::is_directory(directory)) {
    // "file/" does not exist to stat(); "file" does.
    llvm::StringRef bare = llvm::StringRef(directory).rtrim('/');
    bool file = !bare.empty() && llvm::sys::fs::exists(bare);
    completion.problem =
        (file ? "not a folder: " : "no such folder: ") + directory;
    return completion;
  }

  std::vector<PathCandidate> all;
  std::error_code error;
  size_t scanned = 0;
  // The iterator skips "." and ".."; ".." is offered to a typed dot.
  if (!namePart.empty() && llvm::StringRef("..").starts_with(namePart))
    all.push_back({"..", true});
  llvm::sys::fs::directory_iterator entry(directory, error), end;
  for (; !error && entry != end && scanned < scanLimit;
       entry.increment(error), ++scanned) {
    llvm::StringRef name = llvm::sys::path::filename(entry->path());
    if (!name.starts_with(namePart) ||
        (name.starts_with(".") && !namePart.starts_with(".")))
      continue;
    // The type readdir gave; a link (or a file system that does not say)
    // is looked up, so a link to a directory lists as one.
    llvm::sys::fs::file_type type = entry->type();
    bool isDirectory = type == llvm::sys::fs::file_type::directory_file ||
                       ((type == llvm::sys::fs::file_type::symlink_file ||
                         type == llvm::sys::fs::file_type::type_unknown) &&
                        llvm::sys::fs::is_directory(entry->path()));
    if (isDirectory || isOfKinds(name, kinds))
      all.push_back({name.str(), isDirectory});
  }
  completion.scanStopped = !error && entry != end;
  if (error && scanned == 0) {
    completion.problem = "cannot list " + directory + ": " + error.message();
    return completion;
  }
  std::sort(all.begin(), all.end(),
            [](const PathCandidate &a, const PathCandidate &b) {
              return a.directory != b.directory ? a.directory : a.name < b.name;
            });
  if (!all.empty()) {
    std::string prefix = commonPrefix(all);
    completion.completed = completion.directoryPart + prefix;
    if (all.size() == 1 && all.front().directory)
      completion.completed += "/";
    if (completion.completed.size() < typed.size())
      completion.completed = typed.str();
  }
  if (all.size() > limit) {
    completion.more = all.size() - limit;
    all.resize(limit);
  }
  completion.candidates = std::move(all);
  return completion;
}

std::string klx::app::chosenPath(const PathCompletion &completion,
                                 const PathCandidate &candidate) {
  return completion.directoryPart + candidate.name +
         (candidate.directory ? "/" : "");
}
