//===- CudaTools.cpp - ptxas and nvdisasm as pipeline steps ---------------===//

#include "klx/Target/CudaTools.h"

#include "klx/Support/ExternalTool.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>
#include <map>
#include <mutex>

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

bool PtxasChips::builds(llvm::StringRef chip) const {
  return llvm::is_contained(chips, chip);
}

std::string PtxasChips::cannotBuild(llvm::StringRef chip) const {
  return "ptxas " + release + " cannot build " + chip.str() + "; it builds " +
         llvm::join(chips, ", ") + " (--target=CHIP chooses)";
}

PtxasChips klx::parsePtxasChips(llvm::StringRef help, llvm::StringRef version) {
  PtxasChips found;
  // "Cuda compilation tools, release 13.0, V13.0.88"
  if (size_t at = version.find("release "); at != llvm::StringRef::npos)
    found.release = version.substr(at + 8).take_until(
        [](char c) { return c == ',' || c == '\n' || c == ' '; });
  if (found.release.empty())
    found.release = "(unknown release)";
  // The --gpu-name option's "Allowed values for this option: 'compute_100',
  // ..., 'sm_90a'." up to its "Default value".
  size_t option = help.find("--gpu-name");
  if (option == llvm::StringRef::npos)
    return found;
  llvm::StringRef rest = help.substr(option);
  size_t allowed = rest.find("Allowed values");
  if (allowed == llvm::StringRef::npos)
    return found;
  rest = rest.substr(allowed);
  rest = rest.take_front(rest.find("Default value"));
  while (true) {
    size_t open = rest.find('\'');
    if (open == llvm::StringRef::npos)
      break;
    size_t close = rest.find('\'', open + 1);
    if (close == llvm::StringRef::npos)
      break;
    llvm::StringRef name = rest.slice(open + 1, close);
    if (name.starts_with("sm_"))
      found.chips.push_back(name.str());
    rest = rest.substr(close + 1);
  }
  // In the order of their numbers: sm_75 before sm_100.
  llvm::stable_sort(found.chips,
                    [](const std::string &a, const std::string &b) {
                      unsigned x = 0, y = 0;
                      llvm::StringRef(a).drop_front(3).consumeInteger(10, x);
                      llvm::StringRef(b).drop_front(3).consumeInteger(10, y);
                      return x < y;
                    });
  return found;
}

llvm::Expected<PtxasChips> klx::ptxasChips(llvm::StringRef ptxasPath) {
  static std::mutex mutex;
  static std::map<std::string, PtxasChips> known;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known.find(ptxasPath.str()); it != known.end())
    return it->second;
  auto help = runTool(ptxasPath, {"--help"});
  if (!help)
    return help.takeError();
  auto version = runTool(ptxasPath, {"--version"});
  if (!version)
    return version.takeError();
  PtxasChips chips = parsePtxasChips(help->output, version->output);
  if (chips.chips.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s --help lists no chip for --gpu-name",
                                   ptxasPath.str().c_str());
  known[ptxasPath.str()] = chips;
  return chips;
}
