//===- Divergence.h - Values that may differ between threads ----*- C++ -*-===//
//
// Private to lib/Analysis: which values of a kernel body are the same in
// every thread that computes them (uniform) and which may differ, with the
// op that makes them differ. Thread and lane ids, elect.sync, loads and
// ops klx does not know make values differ; pure ops pass it on from
// their operands; a branch or loop on a value that differs makes what it
// yields and carries differ. A kernel argument, a constant, a block id and
// a loop counter over uniform bounds are uniform.
//
// The role tree and the protocol reader ask this of a condition they
// cannot evaluate per thread: a uniform one takes all threads the same
// way (so counting arrivals per phase is still right), one that differs
// makes the count unknown.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_DIVERGENCE_H
#define KLX_LIB_ANALYSIS_THREADS_DIVERGENCE_H

#include "Analysis/Threads/KernelShape.h"

#include "llvm/ADT/DenseMap.h"

#include <string>

namespace klx::threads {

/// Why a value is not known, or may differ between threads: the words
/// and the op they are about.
struct Reason {
  std::string why;
  mlir::Operation *at = nullptr;
};

/// Ops whose result is the thread's own: its index, its lane, the lane
/// elect.sync picks (what makes a value differ between threads).
bool isThreadSource(mlir::Operation *op);

class Divergence {
public:
  explicit Divergence(const KernelShape &shape);

  /// Why `value` may differ between the threads that compute it; null
  /// when it is the same in all of them.
  const Reason *varies(mlir::Value value) const;
  bool isUniform(mlir::Value value) const { return !varies(value); }

private:
  /// Marks `value` as differing for `reason`; true when it was not yet.
  /// By value: `reason` may be one this map holds, which marking moves.
  bool mark(mlir::Value value, Reason reason);
  bool visit(mlir::Operation *op);

  llvm::DenseMap<mlir::Value, Reason> differing;
};

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_DIVERGENCE_H
