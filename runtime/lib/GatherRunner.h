//===- GatherRunner.h - Launching a gather Bundle ---------------*- C++ -*-===//
//
// Private to runtime/lib: runBundle hands bundles whose problem is a
// gather (y[i] = x[src(i) + offset] + add) here.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LIB_GATHERRUNNER_H
#define KLX_RUNTIME_LIB_GATHERRUNNER_H

#include "klx/Runtime/Runner.h"

namespace klx::rt {

/// Launches the gather in `cubin` over N = result.size.m elements on the
/// first GPU, compares every element of y with the CPU (exactly: one f32
/// add), and times it with events; `result` arrives with the size set.
LaunchResult runGatherBundle(const Manifest &manifest, const std::string &cubin,
                             const RunOptions &options, LaunchResult result);

} // namespace klx::rt

#endif // KLX_RUNTIME_LIB_GATHERRUNNER_H
