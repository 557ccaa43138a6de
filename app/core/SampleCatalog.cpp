//===- SampleCatalog.cpp - The samples a user can open --------------------===//

#include "SampleCatalog.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace klx::app;

std::string klx::app::lessonLine(llvm::StringRef source) {
  for (llvm::StringRef line : llvm::split(source, '\n')) {
    line = line.trim();
    if (line.empty())
      continue;
    if (!line.consume_front("//"))
      return "";
    line = line.trim();
    line.consume_front("Lesson:");
    return line.trim().str();
  }
  return "";
}

std::vector<SampleEntry> klx::app::scanSamples(llvm::StringRef root) {
  std::vector<SampleEntry> samples;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef path = it->path();
    if (llvm::sys::path::extension(path) != ".mlir")
      continue;
    SampleEntry entry;
    entry.path = path.str();
    entry.name = llvm::sys::path::filename(path).str();
    llvm::StringRef parent = llvm::sys::path::parent_path(path);
    entry.group = parent == root ? "" : llvm::sys::path::filename(parent).str();
    if (auto buffer = llvm::MemoryBuffer::getFile(path))
      entry.lesson = lessonLine((*buffer)->getBuffer());
    samples.push_back(std::move(entry));
  }
  llvm::sort(samples, [](const SampleEntry &a, const SampleEntry &b) {
    return std::tie(a.group, a.name) < std::tie(b.group, b.name);
  });
  return samples;
}

std::string klx::app::defaultSamplesDir() {
  if (const char *dir = std::getenv("KLX_SAMPLES_DIR"))
    return dir;
  return KLX_SOURCE_DIR "/samples";
}
