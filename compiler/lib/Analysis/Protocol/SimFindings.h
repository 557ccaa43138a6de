//===- SimFindings.h - Findings of the barrier simulator --------*- C++ -*-===//
//
// Private to Analysis/Protocol: how BarrierSim.cpp's simulation and
// BarrierChecks.cpp's static checks name a barrier slot and add a finding,
// so that the two word theirs alike.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_PROTOCOL_SIMFINDINGS_H
#define KLX_LIB_ANALYSIS_PROTOCOL_SIMFINDINGS_H

#include "klx/Analysis/Protocol/BarrierSim.h"

#include "llvm/ADT/STLExtras.h"

#include <string>
#include <vector>

namespace klx::sim {

/// "full[1]".
inline std::string slotName(const BarrierGroup &g, int slot) {
  return g.name + "[" + std::to_string(slot) + "]";
}

/// Adds `text` once.
inline void note(std::vector<std::string> &findings, std::string text) {
  if (!llvm::is_contained(findings, text))
    findings.push_back(std::move(text));
}

} // namespace klx::sim

#endif // KLX_LIB_ANALYSIS_PROTOCOL_SIMFINDINGS_H
