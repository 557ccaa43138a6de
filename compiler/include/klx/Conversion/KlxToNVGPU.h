//===- KlxToNVGPU.h - klx kernels to gpu, nvgpu and nvvm --------*- C++ -*-===//

#ifndef KLX_CONVERSION_KLXTONVGPU_H
#define KLX_CONVERSION_KLXTONVGPU_H

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace klx {

/// Replaces `kernel` with a gpu.func in a new gpu.module of `module`.
mlir::LogicalResult lowerKernelToNVGPU(KernelOp kernel, mlir::ModuleOp module);

} // namespace klx

#endif // KLX_CONVERSION_KLXTONVGPU_H
