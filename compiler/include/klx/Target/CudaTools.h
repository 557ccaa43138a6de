//===- CudaTools.h - ptxas and nvdisasm as pipeline steps -------*- C++ -*-===//

#ifndef KLX_TARGET_CUDATOOLS_H
#define KLX_TARGET_CUDATOOLS_H

#include "klx/Target/PtxasReport.h"

#include "llvm/Support/Error.h"

#include <string>

namespace klx {

struct PtxasResult {
  int exitCode = 0;
  std::string log; // what ptxas -v printed
  std::string cubin;
  PtxasReport report;
};

/// Assembles PTX into a cubin with `ptxas -v`. An error means ptxas could
/// not be run; ptxas rejecting the PTX is a result with a non-zero exit
/// code and its messages in the report.
llvm::Expected<PtxasResult> assembleWithPtxas(llvm::StringRef ptxasPath,
                                              llvm::StringRef ptx,
                                              llvm::StringRef arch,
                                              unsigned optLevel, bool lineInfo);

/// Finds libdevice.10.bc: an explicit path wins, then
/// $CUDA_HOME/nvvm/libdevice, then /usr/local/cuda/nvvm/libdevice.
llvm::Expected<std::string> findLibdevice(llvm::StringRef explicitPath = "");

/// Disassembles a cubin with nvdisasm into SASS text.
llvm::Expected<std::string>
disassembleWithNvdisasm(llvm::StringRef nvdisasmPath, llvm::StringRef cubin,
                        bool lineInfo);

} // namespace klx

#endif // KLX_TARGET_CUDATOOLS_H
