//===- Autosave.cpp - Unsaved edits survive a restart ---------------------===//

#include "Autosave.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>

using namespace klx::app;

static std::string defaultFolder() {
  if (const char *dir = std::getenv("KLX_STATE_DIR"))
    return std::string(dir) + "/autosave";
  if (const char *dir = std::getenv("XDG_STATE_HOME"))
    return std::string(dir) + "/klx/autosave";
  if (const char *home = std::getenv("HOME"))
    return std::string(home) + "/.local/state/klx/autosave";
  return "";
}

Autosave::Autosave(std::string folder)
    : root(folder.empty() ? defaultFolder() : std::move(folder)) {}

std::string Autosave::pathFor(llvm::StringRef sourcePath) const {
  llvm::SmallString<256> absolute(sourcePath);
  llvm::sys::fs::make_absolute(absolute);
  // One file per source path; the name keeps the file name readable.
  std::string name = llvm::utohexstr(llvm::xxh3_64bits(absolute.str())) + "-" +
                     llvm::sys::path::filename(sourcePath).str();
  llvm::SmallString<256> path(root);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

std::optional<std::string> Autosave::load(llvm::StringRef sourcePath) const {
  if (root.empty())
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(pathFor(sourcePath));
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

bool Autosave::store(llvm::StringRef sourcePath, llvm::StringRef text) const {
  if (root.empty() || llvm::sys::fs::create_directories(root))
    return false;
  // Write to a temporary and rename, so a crash mid-write keeps the last
  // good copy.
  std::string target = pathFor(sourcePath);
  std::string temporary = target + ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec);
    if (ec)
      return false;
    os << text;
    if (os.has_error()) {
      os.clear_error();
      return false;
    }
  }
  return !llvm::sys::fs::rename(temporary, target);
}

void Autosave::discard(llvm::StringRef sourcePath) const {
  if (!root.empty())
    llvm::sys::fs::remove(pathFor(sourcePath));
}
