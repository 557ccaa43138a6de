//===- RoleTreeBuilder.h - What the role-tree readers share -----*- C++ -*-===//
//
// Private to lib/Analysis: each form of kernel has a reader that fills the
// roles; finishRoleTree builds the warp and warpgroup levels and runs the
// checks every form shares.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_ROLETREE_ROLETREEBUILDER_H
#define KLX_LIB_ANALYSIS_ROLETREE_ROLETREEBUILDER_H

#include "klx/Analysis/RoleTree/RoleTree.h"
#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/Operation.h"

namespace klx::roletree {

using IRLineFn = llvm::function_ref<unsigned(mlir::Operation *)>;

constexpr unsigned kWarpsPerWarpgroup = 4;

unsigned irLine(mlir::Operation *op, IRLineFn irLineOf);
RoleOpRef makeOpRef(mlir::Operation *op, unsigned threads, IRLineFn irLineOf);
BarrierUse makeBarrierUse(mlir::Operation *op, std::string barrier,
                          BarrierAction action, unsigned threads,
                          IRLineFn irLineOf,
                          std::optional<int64_t> slot = std::nullopt);
void addCheck(RoleTree &tree, Severity severity, std::string message,
              mlir::Operation *at, IRLineFn irLineOf);

/// Ops a role lists: everything but terminators and constants, which would
/// only pad the list.
bool isListedOp(mlir::Operation *op);

/// Builds the warpgroup and warp levels from the roles' warps and runs the
/// register and barrier checks. `activePerWarp[role][warp]` is how many
/// threads of that warp run the role's work.
void finishRoleTree(RoleTree &tree,
                    const std::vector<std::vector<unsigned>> &activePerWarp);

/// A klx.kernel after klx-warp-specialize.
RoleTree readKlxRoles(KernelOp kernel, WarpSpecializeOp roles,
                      IRLineFn irLineOf);

/// A gpu.func kernel or a gpu.launch body whose block size is known and
/// whose control flow is still structured; nullopt otherwise.
std::optional<RoleTree> readThreadBranches(mlir::Operation *kernel,
                                           IRLineFn irLineOf,
                                           const SourceNames *names);

} // namespace klx::roletree

#endif // KLX_LIB_ANALYSIS_ROLETREE_ROLETREEBUILDER_H
