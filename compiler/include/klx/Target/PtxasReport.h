//===- PtxasReport.h - What `ptxas -v` says about each kernel ---*- C++ -*-===//

#ifndef KLX_TARGET_PTXASREPORT_H
#define KLX_TARGET_PTXASREPORT_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace klx {

struct PtxasFunctionReport {
  std::string name;
  std::string arch;
  unsigned registers = 0;
  unsigned barriers = 0;
  unsigned sharedBytes = 0;   // static shared memory (smem)
  unsigned constantBytes = 0; // cmem[0], the parameter bank
  unsigned stackFrameBytes = 0;
  unsigned spillStoreBytes = 0;
  unsigned spillLoadBytes = 0;
};

struct PtxasMessage {
  bool isError = false;
  std::string code; // "C7508" when ptxas gives one
  std::string text; // the message without the "ptxas warning :" prefix
};

struct PtxasReport {
  std::vector<PtxasFunctionReport> functions;
  std::vector<PtxasMessage> messages;
  unsigned globalBytes = 0;

  const PtxasFunctionReport *find(llvm::StringRef name) const;
  bool hasWarning(llvm::StringRef code) const;
};

/// Parses the text ptxas prints with -v (its stderr). Lines it does not
/// recognise are ignored so that a newer ptxas degrades gracefully.
PtxasReport parsePtxasReport(llvm::StringRef text);

} // namespace klx

#endif // KLX_TARGET_PTXASREPORT_H
