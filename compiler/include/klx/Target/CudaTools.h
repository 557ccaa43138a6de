//===- CudaTools.h - ptxas and nvdisasm as pipeline steps -------*- C++ -*-===//

#ifndef KLX_TARGET_CUDATOOLS_H
#define KLX_TARGET_CUDATOOLS_H

#include "klx/Target/PtxasReport.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

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

/// The chips a ptxas builds: its release ("13.0") and the real chips its
/// --help allows for --gpu-name (sm_75 ... sm_121f for CUDA 13.0; the
/// compute_ and lto_ names are left out).
struct PtxasChips {
  std::string release;
  std::vector<std::string> chips;
  bool builds(llvm::StringRef chip) const;
  /// "ptxas 13.0 cannot build sm_70; it builds sm_75, sm_80, ..."
  std::string cannotBuild(llvm::StringRef chip) const;
};
/// Reads them from ptxas's --help and --version text.
PtxasChips parsePtxasChips(llvm::StringRef help, llvm::StringRef version);
/// Asks the ptxas at `ptxasPath` (once per path in a process); an error
/// when it cannot be run or lists no chip.
llvm::Expected<PtxasChips> ptxasChips(llvm::StringRef ptxasPath);

/// Finds libdevice.10.bc: an explicit path wins, then
/// $CUDA_HOME/nvvm/libdevice, then /usr/local/cuda/nvvm/libdevice.
llvm::Expected<std::string> findLibdevice(llvm::StringRef explicitPath = "");

/// Disassembles a cubin with nvdisasm into SASS text.
llvm::Expected<std::string>
disassembleWithNvdisasm(llvm::StringRef nvdisasmPath, llvm::StringRef cubin,
                        bool lineInfo);

} // namespace klx

#endif // KLX_TARGET_CUDATOOLS_H
