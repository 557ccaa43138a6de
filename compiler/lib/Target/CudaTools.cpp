//===- CudaTools.cpp - ptxas and nvdisasm as pipeline steps ---------------===//

#include "klx/Target/CudaTools.h"

#include "klx/Support/ExternalTool.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace klx;

llvm::Expected<PtxasResult>
klx::assembleWithPtxas(llvm::StringRef ptxasPath, llvm::StringRef ptx,
                       llvm::StringRef arch, unsigned optLevel, bool lineInfo) {
  auto ptxFile = TempFile::create("klx", "ptx");
  if (!ptxFile)
    return ptxFile.takeError();
  auto cubinFile = TempFile::create("klx", "cubin");
  if (!cubinFile)
    return cubinFile.takeError();
  if (llvm::Error error = ptxFile->write(ptx))
    return std::move(error);

  std::vector<std::string> args = {"-arch=" + arch.str(),
                                   "-O" + std::to_string(optLevel), "-v"};
  if (lineInfo)
    args.push_back("--generate-line-info");
  args.insert(args.end(), {"-o", cubinFile->path(), ptxFile->path()});
  auto tool = runTool(ptxasPath, args);
  if (!tool)
    return tool.takeError();

  PtxasResult result;
  result.exitCode = tool->exitCode;
  // ptxas names its temporary input in messages; say "kernel.ptx" instead
  // so that the log reads the same on every run.
  result.log = tool->output;
  for (size_t at; (at = result.log.find(ptxFile->path())) != std::string::npos;)
    result.log.replace(at, ptxFile->path().size(), "kernel.ptx");
  result.report = parsePtxasReport(result.log);
  if (result.exitCode == 0) {
    auto cubin = cubinFile->read();
    if (!cubin)
      return cubin.takeError();
    result.cubin = std::move(*cubin);
  }
  return result;
}

llvm::Expected<std::string>
klx::disassembleWithNvdisasm(llvm::StringRef nvdisasmPath,
                             llvm::StringRef cubin, bool lineInfo) {
  auto cubinFile = TempFile::create("klx", "cubin");
  if (!cubinFile)
    return cubinFile.takeError();
  if (llvm::Error error = cubinFile->write(cubin))
    return std::move(error);
  std::vector<std::string> args = {"--print-code"};
  if (lineInfo)
    args.push_back("--print-line-info");
  args.push_back(cubinFile->path());
  auto tool = runTool(nvdisasmPath, args);
  if (!tool)
    return tool.takeError();
  if (tool->exitCode != 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "nvdisasm failed (exit %d): %s",
                                   tool->exitCode, tool->output.c_str());
  return std::move(tool->output);
}

llvm::Expected<std::string> klx::findLibdevice(llvm::StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (llvm::sys::fs::exists(explicitPath))
      return explicitPath.str();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "libdevice not found at '%s'",
                                   explicitPath.str().c_str());
  }
  std::vector<std::string> roots;
  if (const char *cudaHome = std::getenv("CUDA_HOME"))
    roots.push_back(cudaHome);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    std::string candidate = root + "/nvvm/libdevice/libdevice.10.bc";
    if (llvm::sys::fs::exists(candidate))
      return candidate;
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "the kernel calls libdevice (math functions), but libdevice.10.bc is "
      "not in $CUDA_HOME/nvvm/libdevice or /usr/local/cuda/nvvm/libdevice");
}
