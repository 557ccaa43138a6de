//===- ThreadValues.h - Integer values per thread ---------------*- C++ -*-===//
//
// Private to lib/Analysis: evaluates an integer or index value for every
// thread of a block, when it depends on nothing but the thread index, the
// block size and constants. Each lane holds the value zero-extended from
// its type's width, and the arith ops keep their signed/unsigned meaning
// at that width. Besides arith, it reads what real kernels pick threads
// with: thread, lane and warp (subgroup) ids in their gpu and nvvm
// spellings, the block size, `nvvm.shfl.sync` (idx, bfly, up, down) of a
// value it knows in every lane, and `nvvm.elect.sync`. A value it cannot
// read has a Reason naming the op.
//
// elect.sync: PTX elects one lane of the threads of a warp that run it,
// the same one every time, without saying which; the model takes the
// lowest such lane. A protocol cannot depend on which lane it is, only on
// there being one per warp.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_THREADVALUES_H
#define KLX_LIB_ANALYSIS_THREADS_THREADVALUES_H

#include "Analysis/Threads/Divergence.h"
#include "Analysis/Threads/KernelShape.h"

#include "llvm/ADT/BitVector.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace klx::threads {

class ThreadValues {
public:
  using Lanes = std::vector<uint64_t>;

  ThreadValues(const KernelShape &shape, const Divergence &divergence);

  unsigned threads() const { return shape.threads(); }
  const KernelShape &kernel() const { return shape; }

  /// The value in every thread, or null when it depends on more than the
  /// thread index (a block index, a load, an op klx does not evaluate) or
  /// is undefined somewhere (division by zero, an oversized shift, a
  /// shuffle from a lane that does not run it).
  const Lanes *eval(mlir::Value value);
  /// Why eval(value) is null.
  Reason whyUnknown(mlir::Value value);

  /// The threads that run `op`: those every enclosing branch lets through
  /// (loops over uniform bounds let all through); null when a branch or
  /// loop on a value that differs between threads and that klx cannot
  /// evaluate decides it, with the reason in `why`.
  const llvm::BitVector *reaching(mlir::Operation *op, Reason *why = nullptr);

  /// A value's lanes, or why it has none.
  struct Entry {
    std::unique_ptr<Lanes> lanes;
    Reason reason;
  };

private:
  Entry compute(mlir::Value value);
  Entry computeOp(mlir::Operation *op, mlir::Value value, unsigned width);
  Entry electLanes(mlir::Operation *op);
  Entry shuffleLanes(mlir::Operation *op);
  Lanes threadIndex(unsigned dim) const;
  Lanes same(uint64_t v) const { return Lanes(threads(), v); }
  /// The entry of `value`, computed once.
  const Entry &entry(mlir::Value value);

  const KernelShape &shape;
  const Divergence &divergence;
  // Pointers handed out by eval stay valid: the map owns each Lanes.
  std::unordered_map<const void *, Entry> cache;
  struct Reach {
    std::unique_ptr<llvm::BitVector> threads;
    Reason reason;
  };
  std::unordered_map<const void *, Reach> reachCache; // per Block
  unsigned depth = 0;                                 // of entry()'s recursion
};

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_THREADVALUES_H
