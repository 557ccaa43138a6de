//===- VerifyFormat.h - What klx verify prints ------------------*- C++ -*-===//
//
// The verdict of exploring every interleaving, as text and JSON: the
// bound, the result, the counterexample as moves per role with their IR
// lines, the states explored and the time, and what the model leaves out.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_PROTOCOL_VERIFYFORMAT_H
#define KLX_ANALYSIS_PROTOCOL_VERIFYFORMAT_H

#include "klx/Analysis/Protocol/Verify.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace klx::sim {

/// "verified: no deadlock, protocol error or stage race for any timing, up
/// to 2 tiles x 9 k steps", "FAILS for some timing: stage race: ...", or
/// "unknown: ...".
std::string verdictLine(const ProtocolModel &model, const Verification &v);

/// The verdict, the counterexample and the search's figures, indented
/// under a caller's heading.
void printVerification(llvm::raw_ostream &os, const ProtocolModel &model,
                       const Verification &v);

/// One kernel's entry of `klx verify --json`.
void writeVerificationJson(llvm::json::OStream &json,
                           const ProtocolModel &model, const Verification &v);

} // namespace klx::sim

#endif // KLX_ANALYSIS_PROTOCOL_VERIFYFORMAT_H
