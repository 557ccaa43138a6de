//===- ThreadInterpreter.h - A gpu.func run as one thread -------*- C++ -*-===//
//
// Private to lib/Analysis: runs the structured body of a kernel written
// with nvgpu ops (by hand, or after klx-to-nvgpu) as one thread of CTA 0 in
// a grid of one CTA would run it: index arithmetic, scf.for and scf.if are
// evaluated, and what the thread does to mbarriers (init, arrive,
// arrive.expect_tx, TMA copies completing bytes, try_wait.parity), the
// CTA barriers it reaches and its tensor-core work are written down in
// order. Values that come from memory or from ops it does not evaluate
// are unknown; a branch or loop bound or barrier index that needs one
// stops the run with the reason and the op.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_THREADINTERPRETER_H
#define KLX_LIB_ANALYSIS_THREADS_THREADINTERPRETER_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::gpu {
class GPUFuncOp;
} // namespace mlir::gpu

namespace klx::threads {

struct TraceEntry {
  enum class Kind {
    Init,           // mbarrier.init: `count` arrivals per phase
    Arrive,         // mbarrier.arrive(.nocomplete): `count` arrivals
    ArriveExpectTx, // one arrival announcing `bytes`
    Copy,           // a TMA load completing `bytes` on the barrier
    Wait,           // try_wait.parity `parity`
    Sync,           // gpu.barrier: every thread of the CTA
    Compute,        // a warpgroup MMA
  };
  Kind kind = Kind::Compute;
  mlir::Operation *op = nullptr;
  mlir::Value group; // the mbarrier group; null for Sync and Compute
  int64_t slot = 0;
  int64_t count = 1;
  int64_t bytes = 0;
  int parity = 0;
  /// Iterations the innermost loop around the op had started before this
  /// one (counted over the whole run, so tiles x k steps number k steps
  /// straight through); -1 outside loops.
  int64_t iteration = -1;

  bool operator==(const TraceEntry &o) const {
    return kind == o.kind && op == o.op && group == o.group && slot == o.slot &&
           count == o.count && bytes == o.bytes && parity == o.parity &&
           iteration == o.iteration;
  }
};

struct ThreadRunInputs {
  std::array<unsigned, 3> block = {1, 1, 1};
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

ThreadRun runAsThread(mlir::gpu::GPUFuncOp func, const ThreadRunInputs &in);

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_THREADINTERPRETER_H
