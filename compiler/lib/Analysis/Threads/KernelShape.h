//===- KernelShape.h - A kernel body and its block, in any form -*- C++ -*-===//
//
// Private to lib/Analysis: the per-thread evaluators read kernels in the
// two forms people write them, a `gpu.func` kernel (its block size from
// `known_block_size`) and the body of a `gpu.launch` (its block size from
// constant launch operands; thread ids, block ids and sizes as the body's
// block arguments). KernelShape says which values those are, so the
// evaluators treat both forms alike.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_KERNELSHAPE_H
#define KLX_LIB_ANALYSIS_THREADS_KERNELSHAPE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <array>
#include <optional>
#include <string>

namespace klx::threads {

inline constexpr unsigned kLanesPerWarp = 32;

struct KernelShape {
  mlir::Operation *kernel = nullptr; // gpu.func or gpu.launch
  mlir::Region *body = nullptr;
  /// "gemm" for a gpu.func, "gpu.launch in @main" for a launch body.
  std::string name;
  std::array<unsigned, 3> block = {1, 1, 1};
  /// gpu.launch only: the body's thread ids, block sizes, block ids and
  /// grid sizes (null for a gpu.func, which reads them through ops).
  std::array<mlir::Value, 3> threadIds, blockSizes, blockIds, gridSizes;
  /// gpu.launch only: the grid, when its sizes are constants.
  std::optional<std::array<unsigned, 3>> grid;

  unsigned threads() const { return block[0] * block[1] * block[2]; }
  /// The thread's linear index from its x, y, z.
  unsigned linear(const std::array<unsigned, 3> &tid) const {
    return tid[0] + block[0] * (tid[1] + block[1] * tid[2]);
  }
  std::array<unsigned, 3> coordinates(unsigned linearThread) const {
    return {linearThread % block[0], (linearThread / block[0]) % block[1],
            linearThread / (block[0] * block[1])};
  }
  bool isLaunch() const { return threadIds[0] != nullptr; }
  /// Whether `value` is defined outside the body (a gpu.launch's captures).
  bool isCaptured(mlir::Value value) const;
};

/// The shape of a gpu.func kernel or gpu.launch, or why it has none (no
/// known block size, a block of more than 1024 threads).
std::optional<KernelShape> readKernelShape(mlir::Operation *kernel,
                                           std::string &whyNot);

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_KERNELSHAPE_H
