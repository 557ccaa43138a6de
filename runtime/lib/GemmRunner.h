//===- GemmRunner.h - Launching a gemm Bundle -------------------*- C++ -*-===//
//
// Private to runtime/lib: runBundle hands NVIDIA bundles whose problem is
// a gemm (D = A x B) here.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LIB_GEMMRUNNER_H
#define KLX_RUNTIME_LIB_GEMMRUNNER_H

#include "klx/Runtime/Runner.h"

namespace klx::rt {

/// Launches the gemm in `cubin` on the first GPU in named phases: upload
/// random inputs (several sets, rotated), a checked launch into poisoned
/// output, its rows against the CPU in double and every element against
/// cuBLAS, timed launches (alone, then alternating with cuBLAS), and with
/// `options.tracePath` the instrumented build in `dir`. `result` arrives
/// with the entry, size, dtype and threshold set.
LaunchResult runGemmBundle(const std::string &dir, const Manifest &manifest,
                           const std::string &cubin, const RunOptions &options,
                           LaunchResult result);

} // namespace klx::rt

#endif // KLX_RUNTIME_LIB_GEMMRUNNER_H
