//===- ExternalTool.h - Finding and running ptxas, nvdisasm -----*- C++ -*-===//

#ifndef KLX_SUPPORT_EXTERNALTOOL_H
#define KLX_SUPPORT_EXTERNALTOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace klx {

/// Where to look for a CUDA tool: an explicit path wins; otherwise PATH,
/// then $CUDA_HOME/bin, then /usr/local/cuda/bin.
llvm::Expected<std::string> findCudaTool(llvm::StringRef name,
                                         llvm::StringRef explicitPath = "");

/// An LLVM tool (ld.lld, llvm-readelf) of the LLVM this klx was built
/// with (Debian's /usr/lib/llvm-22/bin, not on PATH), else from PATH.
llvm::Expected<std::string> findLlvmTool(llvm::StringRef name);

struct ToolResult {
  int exitCode = 0;
  std::string out, err; // what it wrote to stdout and to stderr
  std::string output;   // stdout and stderr, in that order
};

/// Runs `program` (a path) with `args` (without argv[0]) and captures its
/// output, through the runtime's one process runner (rt::runChild). Fails
/// only if the program cannot be started, runs past `timeoutSeconds` or
/// is killed by a signal; a non-zero exit code is a result, not an
/// error.
llvm::Expected<ToolResult> runTool(llvm::StringRef program,
                                   llvm::ArrayRef<std::string> args,
                                   unsigned timeoutSeconds = 120);

/// A file in the system temp folder removed when this goes out of scope.
class TempFile {
public:
  static llvm::Expected<TempFile> create(llvm::StringRef prefix,
                                         llvm::StringRef suffix);
  TempFile(TempFile &&other) noexcept;
  TempFile &operator=(TempFile &&) = delete;
  ~TempFile();

  const std::string &path() const { return filePath; }
  llvm::Error write(llvm::StringRef contents) const;
  llvm::Expected<std::string> read() const;

private:
  explicit TempFile(std::string path) : filePath(std::move(path)) {}
  std::string filePath;
};

} // namespace klx

#endif // KLX_SUPPORT_EXTERNALTOOL_H
