//===- KlxToAMDGPU.h - klx kernels to gpu and amdgpu ------------*- C++ -*-===//

#ifndef KLX_CONVERSION_KLXTOAMDGPU_H
#define KLX_CONVERSION_KLXTOAMDGPU_H

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace klx {

/// Replaces `kernel` (a tile program after klx-persistent) with a gpu.func
/// of four waves in a new gpu.module of `module`, for `chipset` (gfx942,
/// gfx950): MFMA, LDS-DMA into two named stages, a barrier per k step.
mlir::LogicalResult lowerKernelToAMDGPU(KernelOp kernel, mlir::ModuleOp module,
                                        llvm::StringRef chipset);

} // namespace klx

#endif // KLX_CONVERSION_KLXTOAMDGPU_H
