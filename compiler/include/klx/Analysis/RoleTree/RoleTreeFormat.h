//===- RoleTreeFormat.h - The role tree as text and as JSON -----*- C++ -*-===//

#ifndef KLX_ANALYSIS_ROLETREE_ROLETREEFORMAT_H
#define KLX_ANALYSIS_ROLETREE_ROLETREEFORMAT_H

#include "klx/Analysis/RoleTree/RoleTree.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace klx {

/// "0-255" or "0-127, 256-383": the threads of a list of warps.
std::string threadRanges(const std::vector<unsigned> &warps,
                         unsigned threadsPerBlock);

/// Index arithmetic and casts: left out of op summaries, which are about
/// what a role does.
bool isBookkeepingOp(llvm::StringRef name);

/// "consumer_wait x1 (lines 50), mma x1 (52)": a role's ops by name, the
/// arith and builtin ops left out.
std::string summarizeOps(const std::vector<RoleOpRef> &ops);

/// The tree for a terminal: warpgroups and warps, then each role, then the
/// checks as `file:line:col: error: ...`.
void printRoleTree(llvm::raw_ostream &os, const RoleTree &tree);

void writeRoleTreeJson(llvm::json::OStream &json, const RoleTree &tree);

} // namespace klx

#endif // KLX_ANALYSIS_ROLETREE_ROLETREEFORMAT_H
