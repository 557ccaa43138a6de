//===- HipRunner.h - Launching an AMD Bundle through HIP --------*- C++ -*-===//
//
// Private to runtime/lib: runBundle hands AMD bundles (target gfx*) here.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LIB_HIPRUNNER_H
#define KLX_RUNTIME_LIB_HIPRUNNER_H

#include "klx/Runtime/Runner.h"

namespace klx::rt {

/// Loads `codeObject` (kernel.hsaco) with the HIP runtime, launches it on
/// the first AMD GPU, checks rows of D against the CPU in double and times
/// it with events; `result` arrives with the size and threshold set.
LaunchResult runHipBundle(const Manifest &manifest,
                          const std::string &codeObject,
                          const RunOptions &options, LaunchResult result);

} // namespace klx::rt

#endif // KLX_RUNTIME_LIB_HIPRUNNER_H
