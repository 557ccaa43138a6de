//===- ExternalTool.cpp - Finding and running ptxas, nvdisasm -------------===//

#include "klx/Support/ExternalTool.h"

#include "klx/Runtime/ChildProcess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace klx;

static bool isExecutable(llvm::StringRef path) {
  return llvm::sys::fs::exists(path) && llvm::sys::fs::can_execute(path);
}

llvm::Expected<std::string> klx::findCudaTool(llvm::StringRef name,
                                              llvm::StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (isExecutable(explicitPath))
      return explicitPath.str();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s not found at '%s'", name.str().c_str(),
                                   explicitPath.str().c_str());
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  std::vector<std::string> folders;
  if (const char *cudaHome = std::getenv("CUDA_HOME"))
    folders.push_back(std::string(cudaHome) + "/bin");
  folders.push_back("/usr/local/cuda/bin");
  for (const std::string &folder : folders) {
    llvm::SmallString<256> candidate(folder);
    llvm::sys::path::append(candidate, name);
    if (isExecutable(candidate))
      return std::string(candidate);
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "%s not found on PATH, in $CUDA_HOME/bin or in /usr/local/cuda/bin "
      "(it ships with the CUDA toolkit)",
      name.str().c_str());
}

llvm::Expected<std::string> klx::findLlvmTool(llvm::StringRef name) {
  // The LLVM klx was built with first: an older ld.lld on PATH (Debian's
  // default is LLVM 14's) rejects the code object versions LLVM 22 emits.
  llvm::SmallString<256> candidate(KLX_LLVM_TOOLS_DIR);
  llvm::sys::path::append(candidate, name);
  if (isExecutable(candidate))
    return std::string(candidate);
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "%s not found on PATH or in %s (Debian's lld-22 package has it)",
      name.str().c_str(), KLX_LLVM_TOOLS_DIR);
}

llvm::Expected<TempFile> TempFile::create(llvm::StringRef prefix,
                                          llvm::StringRef suffix) {
  llvm::SmallString<256> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile(prefix, suffix, path))
    return llvm::createStringError(ec, "cannot create a temporary file: %s",
                                   ec.message().c_str());
  return TempFile(std::string(path));
}

TempFile::TempFile(TempFile &&other) noexcept
    : filePath(std::move(other.filePath)) {
  other.filePath.clear();
}

TempFile::~TempFile() {
  if (!filePath.empty())
    llvm::sys::fs::remove(filePath);
}

llvm::Error TempFile::write(llvm::StringRef contents) const {
  std::error_code ec;
  llvm::raw_fd_ostream os(filePath, ec);
  if (ec)
    return llvm::createStringError(ec, "cannot write '%s': %s",
                                   filePath.c_str(), ec.message().c_str());
  os << contents;
  os.close();
  if (os.has_error())
    return llvm::createStringError(os.error(), "cannot write '%s'",
                                   filePath.c_str());
  return llvm::Error::success();
}

llvm::Expected<std::string> TempFile::read() const {
  auto buffer = llvm::MemoryBuffer::getFile(filePath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read '%s'",
                                   filePath.c_str());
  return (*buffer)->getBuffer().str();
}

llvm::Expected<ToolResult> klx::runTool(llvm::StringRef program,
                                        llvm::ArrayRef<std::string> args,
                                        unsigned timeoutSeconds) {
  std::vector<std::string> argv = {program.str()};
  argv.insert(argv.end(), args.begin(), args.end());
  rt::ChildOptions options;
  options.timeoutMs = int64_t(timeoutSeconds) * 1000;
  rt::ChildExit child = rt::runChild(argv, options);
  if (!child.startError.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot run %s", child.startError.c_str());
  if (child.timedOut)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s did not finish within %u s",
                                   program.str().c_str(), timeoutSeconds);
  if (child.signal)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s crashed (%s)", program.str().c_str(),
                                   rt::signalName(child.signal).c_str());
  ToolResult result;
  result.exitCode = child.exitCode;
  result.out = std::move(child.out);
  result.err = std::move(child.err);
  result.output = result.out + result.err;
  return result;
}
