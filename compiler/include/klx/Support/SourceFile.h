//===- SourceFile.h - Reading a kernel source, within limits ----*- C++ -*-===//
//
// Every place that reads a kernel the user named (the CLI's FILE, a
// compare variant, the window's Open) reads it here, so that a device that
// never ends (/dev/zero), a pipe with no writer or a huge file is a
// message rather than an out-of-memory abort or a frozen window.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_SOURCEFILE_H
#define KLX_SUPPORT_SOURCEFILE_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace klx {

/// The largest source klx compiles (a stated limit: the biggest sample is
/// 8 KB; a kernel hundreds of times that is not a kernel to step through).
inline constexpr size_t kMaxSourceBytes = 16u << 20;

/// Why `bytes` of source are too many to compile, or "".
std::string sourceSizeProblem(uint64_t bytes);

enum class StreamInput {
  /// Pipes, devices and "-" (standard input) are read up to the size
  /// limit: what a command line may be handed.
  Read,
  /// Only regular files: what a window may open without blocking on a pipe.
  Refuse,
};

/// The text of `path`. Errors carry a message to show after the path;
/// one for a source over kMaxSourceBytes has errc::file_too_large, since
/// that is a problem of the input rather than of the path.
llvm::Expected<std::string> readSourceFile(llvm::StringRef path,
                                           StreamInput streams);

} // namespace klx

#endif // KLX_SUPPORT_SOURCEFILE_H
