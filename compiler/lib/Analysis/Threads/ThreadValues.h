//===- ThreadValues.h - Integer values as functions of the thread -*- C++
//-*-===//
//
// Private to lib/Analysis: evaluates an integer or index value for every
// thread of a block, when it depends on nothing but the thread index and
// constants. Each lane holds the value zero-extended from its type's width,
// and the arith ops keep their signed/unsigned meaning at that width.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_THREADVALUES_H
#define KLX_LIB_ANALYSIS_THREADS_THREADVALUES_H

#include "mlir/IR/Value.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace klx::threads {

class ThreadValues {
public:
  using Lanes = std::vector<uint64_t>;

  /// `tidX/Y/Z` are the block arguments of a gpu.launch, or null when the
  /// thread index comes from gpu.thread_id / nvvm ops.
  ThreadValues(std::array<unsigned, 3> blockSize, mlir::Value tidX,
               mlir::Value tidY, mlir::Value tidZ);

  unsigned threads() const { return count; }

  /// The value in every thread, or null when it depends on more than the
  /// thread index (a block index, a load, an op klx does not evaluate) or
  /// is undefined somewhere (division by zero, an oversized shift).
  const Lanes *eval(mlir::Value value);

private:
  std::optional<Lanes> compute(mlir::Value value);
  Lanes threadIndex(unsigned dim) const;

  std::array<unsigned, 3> block;
  std::array<mlir::Value, 3> tids;
  unsigned count = 0;
  // Pointers handed out by eval stay valid: the map owns each Lanes.
  std::unordered_map<const void *, std::unique_ptr<Lanes>> cache;
};

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_THREADVALUES_H
