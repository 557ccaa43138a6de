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
  // The leading comment's first sentence, over as many lines as it takes
  // (a line cut mid-sentence reads as a truncation).
  std::string text;
  for (llvm::StringRef line : llvm::split(source, '\n')) {
    line = line.trim();
    if (line.empty() && text.empty())
      continue;
    if (!line.consume_front("//"))
      break;
    line = line.trim();
    if (line.empty())
      break; // the end of the paragraph
    if (text.empty())
      line = line.drop_front(line.starts_with("Lesson:") ? 7 : 0).trim();
    if (!text.empty())
      text += ' ';
    text += line.str();
    size_t end = text.find(". ");
    if (end != std::string::npos)
      return text.substr(0, end + 1);
    if (llvm::StringRef(text).ends_with("."))
      break;
  }
  return text;
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
