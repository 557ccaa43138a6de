//===- RoleTree.h - Warp roles, their registers and barriers ---*- C++ -*-===//
//
// The warp-role tree of a kernel: kernel -> warpgroups -> warps -> roles,
// with thread ranges, register budgets (setmaxnreg), the ops each role runs
// and the barriers it waits and arrives on, plus checks a reader of a
// warp-specialized kernel wants made for them.
//
// It is read from three forms of the same kernel:
//   - klx.warp_specialize / klx.role (after klx-warp-specialize);
//   - scf.if on the thread index in a gpu.func or gpu.launch (after
//     klx-to-nvgpu, or written by hand): conditions are evaluated for every
//     thread of the block, so `tid / 128 == 2`, `warp == 0`,
//     `tid % 128 == 0` or a warp index broadcast with shfl.sync and a lane
//     picked by elect.sync all work without naming patterns; a condition
//     that differs between threads in a way klx cannot evaluate makes the
//     counts it decides "unknown" (a note with the reason), never a guess;
//   - a kernel with no such branch is one role, all threads.
// Once the structured control flow is gone (cf branches) there is no tree.
//
// The data is plain (no MLIR types) so the GUI and the CLI can keep it.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_ROLETREE_ROLETREE_H
#define KLX_ANALYSIS_ROLETREE_ROLETREE_H

#include "klx/Support/Diagnostics.h"
#include "klx/Support/SourceNames.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace klx {

/// Hopper facts the tree is measured against.
inline constexpr unsigned kRegistersPerSM = 65536;
inline constexpr unsigned kThreadsPerWarp = 32;
inline constexpr unsigned kThreadsPerWarpgroup = 128;

/// Registers per thread ptxas allows at kernel entry when the kernel has a
/// register cap (`.maxntid` with `.minnctapersm`): what the register file
/// leaves per thread, a multiple of 8, at most 255.
unsigned registerCapAtEntry(unsigned threadsPerBlock, unsigned minBlocksPerSM);

/// One op a role runs, and where it came from.
struct RoleOpRef {
  std::string name;     // "nvgpu.tma.async.load"
  SourceLoc source;     // position in the input file
  unsigned irLine = 0;  // line in the snapshot text it was read from; 0: none
  unsigned threads = 0; // threads of the role that run it
};

enum class BarrierAction {
  Wait,       // try_wait.parity, consumer_wait, the wait of producer_acquire
  Arrive,     // arrive, consumer_release
  ExpectTx,   // arrive.expect_tx, the arrive of producer_acquire
  CompleteTx, // a TMA copy completing bytes on it
};
llvm::StringRef barrierActionName(BarrierAction action);

struct BarrierUse {
  std::string barrier; // "full", "empty", "mbarrier@70" (its line)
  /// Which barrier of the group, when a constant picks it; otherwise the
  /// index is a run-time value (a pipeline stage).
  std::optional<int64_t> slot;
  BarrierAction action = BarrierAction::Wait;
  unsigned threads = 0; // threads that run the op (each arrives once)
  /// Which threads of the block run it, when a thread branch decides it
  /// (bit i: thread i); empty when only the count is known. Arrivals of
  /// one role in the two arms of an `if (tid == 0)` are then counted as
  /// the threads they cover together, not as the larger arm.
  llvm::BitVector threadSet;
  /// Set when how many threads run it is not known (a branch on a value
  /// that differs between threads and that klx cannot evaluate): why,
  /// with the branch's line. `threads` is then at most that many.
  std::string threadsUnknown;
  /// The op reaches the barrier in other CTAs of the cluster too: an
  /// arrive on a `mapa` address, a copy multicast to the cluster.
  bool acrossCluster = false;
  SourceLoc source;
  unsigned irLine = 0;

  /// "full", or "full[1]" with a constant slot.
  std::string displayName() const;
};

struct Role {
  std::string name; // "producer", "consumer", "all threads", ...
  std::string kind; // "producer", "consumer", or "" when it is neither
  int parent = -1;  // index in RoleTree::roles of the role it splits
  std::vector<unsigned> warps; // warp indices in the CTA
  unsigned threads = 0;        // threads of its warps in the block
  /// Threads that run the role's work: 1 when one thread is elected.
  unsigned activeThreads = 0;
  std::optional<unsigned> regs; // setmaxnreg count, when it sets one
  bool regsIncrease = false;
  SourceLoc source; // the klx.role or scf.if that makes it
  unsigned irLine = 0;
  std::vector<RoleOpRef> ops;
  std::vector<BarrierUse> barriers;
};

struct WarpNode {
  unsigned index = 0;         // in the CTA
  std::vector<int> roles;     // innermost roles the warp runs
  unsigned activeThreads = 0; // threads of this warp doing role work
};

struct WarpgroupNode {
  unsigned index = 0;
  unsigned threads = 0; // 128, fewer in a last partial warpgroup
  std::vector<WarpNode> warps;
  /// Registers per thread the warpgroup runs with: its roles' setmaxnreg,
  /// else the cap at entry; 0 when neither is known.
  unsigned regs = 0;
};

struct RoleCheck {
  Severity severity = Severity::Error;
  std::string message;
  SourceLoc source;
  unsigned irLine = 0;
};

struct RoleTree {
  std::string kernel;
  std::string form; // "klx.role", "thread-index branches", "single role"
  SourceLoc source;
  unsigned threads = 0;
  unsigned registersAtEntry = 0; // 0: no register cap at entry
  /// CTAs per cluster (`.reqnctapercluster`, or the schedule's cluster).
  unsigned clusterCtas = 1;
  std::vector<WarpgroupNode> warpgroups;
  std::vector<Role> roles;
  /// Ops outside every role: set-up before the split, the shared tail.
  std::vector<RoleOpRef> sharedOps;
  std::vector<BarrierUse> sharedBarriers;
  /// Arrivals each barrier is initialised to expect per phase, by name
  /// (barriers whose count klx could not read are absent).
  std::map<std::string, unsigned> expectedArrivals;
  unsigned registerTotal = 0; // sum over warpgroups of threads x regs
  std::vector<RoleCheck> checks;

  bool hasErrors() const;
};

/// The role trees of every kernel under `root` in a form the analysis can
/// read; kernels in other forms (lowered to LLVM, unstructured control
/// flow) have none. `irLineOf` gives an op's line in the printed text;
/// `names`, when given, the names the input text gives barriers.
std::vector<RoleTree>
analyzeRoles(mlir::Operation *root,
             llvm::function_ref<unsigned(mlir::Operation *)> irLineOf = {},
             const SourceNames *names = nullptr);

} // namespace klx

#endif // KLX_ANALYSIS_ROLETREE_ROLETREE_H
