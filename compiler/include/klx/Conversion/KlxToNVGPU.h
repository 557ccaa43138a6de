//===- KlxToNVGPU.h - klx kernels to gpu, nvgpu and nvvm --------*- C++ -*-===//

#ifndef KLX_CONVERSION_KLXTONVGPU_H
#define KLX_CONVERSION_KLXTONVGPU_H

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace klx {

/// A measured timeline: which CTAs record, and how many events per warp.
struct TraceOptions {
  bool enabled = false;
  /// The CTAs that record: the first `ctas`, every CTA when 0, or those in
  /// `ctaList` (linear block ids) when it is not empty.
  unsigned ctas = 0;
  std::vector<int64_t> ctaList;
};

/// Replaces `kernel` with a gpu.func in a new gpu.module of `module`; with
/// `trace.enabled` the kernel records its timeline (Trace.cpp).
mlir::LogicalResult lowerKernelToNVGPU(KernelOp kernel, mlir::ModuleOp module,
                                       const TraceOptions &trace = {});

} // namespace klx

#endif // KLX_CONVERSION_KLXTONVGPU_H
