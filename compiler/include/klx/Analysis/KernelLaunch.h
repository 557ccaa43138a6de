//===- KernelLaunch.h - What launching a kernel takes -----------*- C++ -*-===//
//
// Read off the lowered module (the klx.launch attribute klx-to-nvgpu leaves
// on the kernel, and the kernel's final LLVM signature) once the MLIR
// passes have run. `klx export` writes it into a Bundle's manifest.json.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_KERNELLAUNCH_H
#define KLX_ANALYSIS_KERNELLAUNCH_H

#include "klx/Runtime/BundleFormat.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace klx {

/// What an instrumented kernel records: the Bundle contract's kinds,
/// which klx-run decodes.
using TraceEventKind = rt::TraceKind;

/// One kernel argument as the runner sees it.
struct LaunchParam {
  enum class Kind { TensorMap, Memref, Scalar, Unused, Trace };
  std::string name; // "A", "B", "D", "M", ...
  Kind kind = Kind::Scalar;
  std::string dtype;            // tensor maps and memrefs
  std::array<int64_t, 2> box{}; // tensor maps: rows, columns
  int64_t swizzleBytes = 0;     // tensor maps
  int64_t rank = 0;             // memrefs
  // The trace: the first traceCtas CTAs record (every CTA when 0), or
  // those in traceCtaList; its buffer's layout is rt::kTraceFormat's.
  int64_t traceCtas = 0, traceWarps = 0, traceFormat = 0;
  std::vector<int64_t> traceCtaList;

  /// Parameters this argument becomes in the lowered signature: a memref
  /// of rank r is (allocated, aligned, offset, sizes[r], strides[r]).
  unsigned abiSlots() const;
};

/// A kernel that computes y[i] = x[src(i) + offset] + add for i < N, with
/// src(i) = idx[i] (indirect) or i: `problem = {kind = "gather", index =
/// "idx" | "i", offset = N, add = N}` in klx.launch.
struct GatherLaunch {
  bool indirect = true;
  int64_t offset = 0;
  int64_t add = 0;
};

struct KernelLaunch {
  std::string entry; // the symbol in the cubin
  std::array<int64_t, 3> block{1, 1, 1};
  std::array<int64_t, 3> cluster{1, 1, 1};
  /// The output tiles one cluster computes, rows x columns (a persistent
  /// grid walks groups of them).
  std::array<int64_t, 2> clusterTiles{1, 1};
  int64_t dynamicSharedBytes = 0;
  /// "persistent": one CTA per SM up to the tile count, striding;
  /// "tiles": one CTA per output tile, grid (tiles_n, tiles_m);
  /// "elements": one thread per element (a gather).
  std::string grid;
  /// Set when the kernel is a gather; a gemm otherwise.
  std::optional<GatherLaunch> gather;
  std::array<int64_t, 3> tile{}; // tile_m, tile_n, tile_k
  std::string dtype;             // A and B element type
  std::vector<LaunchParam> params;
  /// The lowered signature, one entry per parameter: "ptr", "i64", "i32".
  std::vector<std::string> abi;
  /// What a kernel that computes on its accumulators stores, as klx.launch's
  /// `epilogue` says it (klx.epilogue, DescribeEpilogue.cpp), in JSON.
  std::optional<llvm::json::Value> epilogue;
  /// Whether the epilogue reduces along rows (klx.reduce ... rows): a row
  /// must then fit in one tile.
  bool reducesRows() const;
};

llvm::StringRef kindName(LaunchParam::Kind kind);

/// Every kernel of the lowered module that carries klx.launch. An error
/// says which attribute is malformed or where the description and the
/// lowered signature disagree.
llvm::Expected<std::vector<KernelLaunch>>
describeLaunches(mlir::ModuleOp module);

} // namespace klx

#endif // KLX_ANALYSIS_KERNELLAUNCH_H
