//===- Launch.h - Grid and kernel arguments from a manifest -----*- C++ -*-===//
//
// Pure functions (no driver calls), so that packing is unit-tested on
// machines without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LAUNCH_H
#define KLX_RUNTIME_LAUNCH_H

#include "klx/Runtime/Manifest.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace klx::rt {

/// "persistent": one CTA per SM, at most one per output tile (with a
/// cluster: whole clusters, `maxClusters` of them when the driver said how
/// many fit at once, else smCount / size, at most one per group of tiles);
/// "tiles": grid (tiles_n, tiles_m), as klx-persistent maps block ids;
/// "elements" (a gather): one thread per element, N / block CTAs.
std::array<unsigned, 3> gridFor(const Manifest &manifest,
                                const ProblemSize &size, int smCount,
                                int maxClusters = 0);

/// How D is laid out in device memory: whole tiles, so that the epilogue
/// of a ragged last tile writes into padding, never past the buffer.
/// Elements (r, c) of the M x N result sit at r * rowStride + c.
struct OutputLayout {
  int64_t rows = 0;      // M rounded up to tile_m
  int64_t rowStride = 0; // N rounded up to tile_n
  int64_t elements() const { return rows * rowStride; }
};
OutputLayout outputLayout(const Manifest &manifest, const ProblemSize &size);

/// The k steps of one output tile: K / tile_k rounded up (0 where the
/// manifest has no tile_k).
int64_t kStepsFor(const Manifest &manifest, const ProblemSize &size);

/// Device addresses of one set of inputs and output.
struct DeviceOperands {
  uint64_t tensorMapA = 0, tensorMapB = 0; // CUtensorMaps in global memory
  uint64_t d = 0;                          // M x N f32
  uint64_t trace = 0;                      // the trace buffer, if any
  int64_t traceEvents = 0;                 // its capacity per warp
  uint64_t tensorMapD = 0;        // D's boxes, when the epilogue stores by TMA
  uint64_t a = 0, b = 0;          // A and B, when they are memrefs (AMD)
  uint64_t idx = 0, x = 0, y = 0; // a gather's vectors
  /// An epilogue's vectors by parameter name: where, and how many f32.
  std::map<std::string, std::pair<uint64_t, int64_t>> vectors;
};

/// The kernel's parameters in ABI order, each in 8 bytes (little-endian,
/// so an i32 reads its low half).
struct PackedArguments {
  std::vector<uint64_t> values;
  std::vector<std::string> names; // "D.sizes[1]", "K", ...
  std::vector<void *> pointers(); // what cuLaunchKernelEx takes
};

PackedArguments packArguments(const Manifest &manifest, const ProblemSize &size,
                              const DeviceOperands &operands);
/// The same for another parameter list of the kernel (its trace build).
PackedArguments packArguments(const Manifest &manifest,
                              const std::vector<Param> &params,
                              const ProblemSize &size,
                              const DeviceOperands &operands);

/// A tensor map request: what cuTensorMapEncodeTiled gets for A or B.
struct TensorMapRequest {
  std::array<uint64_t, 2> dims{}; // innermost first: columns, rows
  uint64_t rowStrideBytes = 0;
  std::array<unsigned, 2> box{}; // innermost first
  int swizzle = 0;               // cu::TensorMapSwizzle
  int dataType = 0;              // cu::TensorMapDataType
};

/// A is M x K, B is K x N, both row-major; D is M x N f32 in the buffer
/// outputLayout describes (a TMA store clips at M x N). The box comes from
/// the manifest.
TensorMapRequest tensorMapFor(const Manifest &manifest, const Param &param,
                              const ProblemSize &size);

} // namespace klx::rt

#endif // KLX_RUNTIME_LAUNCH_H
