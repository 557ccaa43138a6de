//===- ThreadInterpreter.h - A kernel run as one thread ---------*- C++ -*-===//
//
// Private to lib/Analysis: runs the structured body of a kernel written
// with nvgpu (or nvvm) mbarrier ops, by hand or after klx-to-nvgpu, a
// gpu.func or a gpu.launch body, as one thread of CTA 0 in a grid of one
// CTA would run it: index arithmetic, scf.for and scf.if are evaluated,
// and what the thread does to mbarriers (init, arrive, arrive.expect_tx,
// expect_tx, TMA copies completing bytes, try_wait.parity), the CTA and
// named barriers it reaches, its tensor-core work and the shared memory
// its copies write and its MMAs and loads read are written down in order.
//
// It reads what real kernels pick threads and barriers with: elect.sync
// and shfl.sync (through ThreadValues), warp and lane ids, private
// register arrays (memref.alloca written and read at computed indices),
// and mbarrier addresses kept as integers (KernelMemory's symbolic
// addresses). Values that come from memory or from ops it does not
// evaluate are unknown; a branch, loop bound or barrier operand that needs
// one stops the run with the reason and the op: never a guess.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_THREADINTERPRETER_H
#define KLX_LIB_ANALYSIS_THREADS_THREADINTERPRETER_H

#include "Analysis/Threads/Divergence.h"
#include "Analysis/Threads/KernelMemory.h"
#include "Analysis/Threads/KernelShape.h"
#include "Analysis/Threads/ThreadValues.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace klx::threads {

struct TraceEntry {
  enum class Kind {
    Init,           // mbarrier.init: `count` arrivals per phase
    Arrive,         // mbarrier.arrive(.nocomplete): `count` arrivals
    ArriveExpectTx, // one arrival announcing `bytes`
    ExpectTx,       // `bytes` announced without an arrival
    Copy,           // a TMA load completing `bytes` on the barrier
    Wait,           // try_wait.parity `parity`
    Sync,           // bar.sync `syncId` for `count` threads (0: the block)
    SyncArrive,     // bar.arrive `syncId` for `count` threads
    Compute,        // a warpgroup MMA reading `reads`
    MmaWait,        // wgmma.wait_group `waitGroup`
    Read,           // loads from shared memory `reads`
  };
  Kind kind = Kind::Compute;
  mlir::Operation *op = nullptr;
  int group = -1; // KernelMemory's barrier group; -1 for the rest
  int64_t slot = 0;
  int64_t count = 1;
  int64_t bytes = 0;
  int parity = 0;
  int64_t syncId = 0;
  int region = -1;        // Copy: the region written (-1: not placed)
  std::vector<int> reads; // Compute, Read: the regions read
  /// Compute: wgmma groups left in flight after it (-1: synchronous);
  /// MmaWait: the groups its wait leaves.
  int64_t waitGroup = -1;
  /// Iterations the innermost loop around the op had started before this
  /// one (counted over the whole run, so tiles x k steps number k steps
  /// straight through); -1 outside loops.
  int64_t iteration = -1;

  bool operator==(const TraceEntry &o) const {
    return kind == o.kind && op == o.op && group == o.group && slot == o.slot &&
           count == o.count && bytes == o.bytes && parity == o.parity &&
           syncId == o.syncId && region == o.region && reads == o.reads &&
           waitGroup == o.waitGroup && iteration == o.iteration;
  }
};

/// Everything the runs of one kernel's threads share. Not copyable: its
/// parts refer to each other.
class KernelContext {
public:
  KernelContext(KernelShape shape,
                std::function<unsigned(mlir::Operation *)> lineOf,
                const SourceNames *names = nullptr)
      : shape(std::move(shape)), divergence(this->shape),
        values(this->shape, divergence), memory(lineOf, names),
        lineOf(std::move(lineOf)) {}
  KernelContext(const KernelContext &) = delete;
  KernelContext &operator=(const KernelContext &) = delete;

  KernelShape shape;
  Divergence divergence;
  ThreadValues values;
  KernelMemory memory;
  std::function<unsigned(mlir::Operation *)> lineOf;
};

struct ThreadRunInputs {
  std::array<unsigned, 3> thread = {0, 0, 0};
  /// Integer kernel arguments by position; the rest are unknown.
  llvm::DenseMap<unsigned, uint64_t> arguments;
  /// Bounds on the work, so that a huge or endless loop stops the run.
  int64_t maxOps = 4'000'000;
  int64_t maxEntries = 100'000;
};

struct ThreadRun {
  bool ok = true;
  std::vector<TraceEntry> trace;
  std::string error; // why the run stopped, when !ok
  mlir::Operation *errorAt = nullptr;
};

ThreadRun runAsThread(KernelContext &kernel, const ThreadRunInputs &in);

/// Whether anything under `op` is an op the protocol reader writes down
/// (or must refuse): barriers, copies, MMAs, syncs.
bool touchesProtocol(mlir::Operation *op);

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_THREADINTERPRETER_H
