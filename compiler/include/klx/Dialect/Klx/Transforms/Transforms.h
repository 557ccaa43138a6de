//===- Transforms.h - The logic behind the klx passes -----------*- C++ -*-===//
//
// Each pass is a thin wrapper around one of these functions, so tests and
// other passes can call the logic directly.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_DIALECT_KLX_TRANSFORMS_TRANSFORMS_H
#define KLX_DIALECT_KLX_TRANSFORMS_TRANSFORMS_H

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

namespace klx {

/// Applies `transform` to every klx.kernel of `module`, all of them even
/// when one fails, so each reports its own problems.
mlir::LogicalResult
forEachKernel(mlir::Operation *module,
              llvm::function_ref<mlir::LogicalResult(KernelOp)> transform);

/// Replaces `loop` by one that also carries `inits`; the new values are
/// the last block arguments and are yielded unchanged until the caller
/// changes the yield. Returns the new loop.
ForEachTileOp appendIterArgs(mlir::RewriterBase &rewriter, ForEachTileOp loop,
                             mlir::ValueRange inits);

/// Builds `kernel`'s schedule from `params` (may be null: all defaults) and
/// checks it, reporting problems on the kernel.
mlir::LogicalResult materializeSchedule(KernelOp kernel,
                                        mlir::DictionaryAttr params);

/// Checks that the ops computing on accumulators (klx.map, klx.reduce,
/// klx.splat, klx.load_vector) work on `schedule`'s tiles, which later
/// passes lower, and makes their types written with the schedule's shapes
/// bare; an error at the first op on a tile of another shape, a transposed
/// load or an MMA fed from registers (ComputeOnSchedule.cpp).
mlir::LogicalResult fitComputeToSchedule(KernelOp kernel,
                                         ScheduleAttr schedule);

/// Writes down what `kernel` stores when it computes on its accumulators
/// (klx.epilogue: a program klx-run evaluates as its reference), or why it
/// cannot; nothing for a GEMM (DescribeEpilogue.cpp).
void recordEpilogue(KernelOp kernel);

/// The names klx.params may use, for messages.
llvm::ArrayRef<llvm::StringLiteral> scheduleParamNames();

/// Splits the kernel's tile program into producer and consumer roles.
mlir::LogicalResult warpSpecialize(KernelOp kernel);

/// Turns the kernel's channels into pipelines of shared-memory stages; a
/// kernel whose schedule has no warp specialization gets one pipeline that
/// its own threads fill ahead of their MMAs (pipelineWithoutRoles).
mlir::LogicalResult buildCircularBuffers(KernelOp kernel);

/// warp_specialize = false: one elected thread keeps the copies
/// max(1, stages-1) k steps ahead of the MMAs all warpgroups run.
mlir::LogicalResult pipelineWithoutRoles(KernelOp kernel);

/// Lowers the kernel's klx.for_each_tile loops onto CTAs; without
/// `gridStride`, one tile per CTA even for persistent schedules.
mlir::LogicalResult mapTilesToCTAs(KernelOp kernel, bool gridStride = true);

} // namespace klx

#endif // KLX_DIALECT_KLX_TRANSFORMS_TRANSFORMS_H
