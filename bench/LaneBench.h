//===- LaneBench.h - Timeline lanes drawn by shaders, measured -*- C++ -*-===//
//
// What klx-bench-lanes (a GLFW window, under Xvfb where there is no
// display) and klx-bench-lanes-egl (an EGL pbuffer: no display at all, as
// on a GPU server) both measure, on a context their main made current.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_BENCH_LANEBENCH_H
#define KLX_BENCH_LANEBENCH_H

#include "render/LaneRenderer.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace klx::bench {

/// The value of `--NAME=N` among the arguments (`prefix` is "--NAME="),
/// else `fallback`.
int intArgument(int argc, char **argv, const char *prefix, int fallback);

/// Uploads 100k, 1M and 10M events on 132 lanes (an H100's SMs) once
/// each, draws them frame after frame at three zooms (everything, 1/100
/// of the time axis, 1/10000), panning, and prints per event count the
/// milliseconds to prepare them (sort, levels) and to upload them, and the
/// medians of the instances drawn, the CPU milliseconds of a frame's
/// draw() and the GPU milliseconds of the draw (a GL_TIME_ELAPSED query).
/// `present` ends a frame (a buffer swap).
void measureLaneFrames(app::LaneRenderer &renderer, int width, int height,
                       int frames, llvm::function_ref<void()> present,
                       llvm::raw_ostream &out);

} // namespace klx::bench

#endif // KLX_BENCH_LANEBENCH_H
