//===- SourceFile.cpp - Reading a kernel source, within limits ------------===//

#include "klx/Support/SourceFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace klx;

std::string klx::sourceSizeProblem(uint64_t bytes) {
  if (bytes <= kMaxSourceBytes)
    return "";
  return llvm::formatv("the file is {0:F1} MB; klx compiles kernels of up "
                       "to {1} MB",
                       double(bytes) / (1 << 20), kMaxSourceBytes >> 20)
      .str();
}

static llvm::Error tooLarge(std::string message) {
  return llvm::createStringError(
      std::make_error_code(std::errc::file_too_large), message);
}

/// Reads a stream to its end or one byte past the limit, whichever comes
/// first: a device like /dev/zero never ends.
static llvm::Expected<std::string> readStream(llvm::sys::fs::file_t file) {
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= kMaxSourceBytes) {
    llvm::Expected<size_t> read =
        llvm::sys::fs::readNativeFile(file, llvm::MutableArrayRef(chunk));
    if (!read)
      return read.takeError();
    if (*read == 0)
      return text;
    text.append(chunk, *read);
  }
  return tooLarge(llvm::formatv("the input goes on past {0} MB; klx compiles "
                                "kernels of up to {0} MB",
                                kMaxSourceBytes >> 20)
                      .str());
}

llvm::Expected<std::string> klx::readSourceFile(llvm::StringRef path,
                                                StreamInput streams) {
  auto fail = [](std::error_code ec) {
    return llvm::createStringError(ec, ec.message());
  };
  bool allowStreams = streams == StreamInput::Read;
  if (path == "-" && allowStreams)
    return readStream(llvm::sys::fs::getStdinHandle());
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return fail(ec);
  switch (status.type()) {
  case llvm::sys::fs::file_type::directory_file:
    return llvm::createStringError(
        std::make_error_code(std::errc::is_a_directory),
        "it is a directory, not a kernel source");
  case llvm::sys::fs::file_type::regular_file: {
    if (std::string why = sourceSizeProblem(status.getSize()); !why.empty())
      return tooLarge(why);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!buffer)
      return fail(buffer.getError());
    return (*buffer)->getBuffer().str();
  }
  default:
    break;
  }
  if (!allowStreams)
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "it is not a regular file (a pipe, a device or a socket): open a "
        ".mlir file");
  llvm::Expected<llvm::sys::fs::file_t> file =
      llvm::sys::fs::openNativeFileForRead(path);
  if (!file)
    return file.takeError();
  llvm::Expected<std::string> text = readStream(*file);
  llvm::sys::fs::closeFile(*file);
  return text;
}
