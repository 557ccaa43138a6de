//===- SampleCatalog.h - The samples a user can open ------------*- C++ -*-===//

#ifndef KLX_APP_CORE_SAMPLECATALOG_H
#define KLX_APP_CORE_SAMPLECATALOG_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace klx::app {

struct SampleEntry {
  std::string path;   // absolute
  std::string group;  // folder under samples/: nvidia, amd, upstream-style
  std::string name;   // file name
  std::string lesson; // the header comment's first sentence
};

/// Every .mlir under `root`, grouped by the folder it is in and sorted.
std::vector<SampleEntry> scanSamples(llvm::StringRef root);

/// The first sentence of a sample's leading comment (over several lines if
/// need be), without "Lesson:".
std::string lessonLine(llvm::StringRef source);

/// Where the samples are: $KLX_SAMPLES_DIR, else the source tree klx was
/// built from.
std::string defaultSamplesDir();

} // namespace klx::app

#endif // KLX_APP_CORE_SAMPLECATALOG_H
