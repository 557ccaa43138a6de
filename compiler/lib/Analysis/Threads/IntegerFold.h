//===- IntegerFold.h - One arith op on known integers -----------*- C++ -*-===//
//
// Private to lib/Analysis: the value of one integer arith op given the
// values of its operands, for the evaluators that run a kernel's index
// arithmetic themselves (ThreadValues per thread, ThreadInterpreter for
// one thread through loops). Each value is held zero-extended from its
// type's width, and the ops keep their signed/unsigned meaning there.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_INTEGERFOLD_H
#define KLX_LIB_ANALYSIS_THREADS_INTEGERFOLD_H

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace klx::threads {

/// Bits of an integer or index value; 0 for anything else.
unsigned widthOf(mlir::Value value);

/// `v` cut to `width` bits.
uint64_t truncateTo(uint64_t v, unsigned width);

/// True for the ops foldInteger knows: casts between integer widths,
/// select, cmpi and the binary integer arith ops.
bool isFoldableInteger(mlir::Operation *op);

/// The result of `op` (one of isFoldableInteger's) for `operands`, or
/// nullopt where it is undefined (division by zero, an oversized shift,
/// signed overflow of a division).
std::optional<uint64_t> foldInteger(mlir::Operation *op,
                                    llvm::ArrayRef<uint64_t> operands);

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_INTEGERFOLD_H
