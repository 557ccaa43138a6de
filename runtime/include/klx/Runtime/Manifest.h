//===- Manifest.h - A Bundle's manifest.json, read and checked --*- C++ -*-===//
//
// The format `klx export` writes (docs/bundle.md). Every field klx-run
// needs is checked here, before any driver call, so a corrupt or
// hand-edited bundle gets a message naming the field.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_MANIFEST_H
#define KLX_RUNTIME_MANIFEST_H

#include "klx/Runtime/BundleFormat.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klx::rt {

struct EpilogueProgram;

enum class DType { F16, BF16, F32, I32 };
const char *dtypeName(DType dtype);
unsigned dtypeBytes(DType dtype);

struct Param {
  enum class Kind { TensorMap, Memref, Scalar, Unused, Trace };
  std::string name;
  Kind kind = Kind::Scalar;
  DType dtype = DType::F32;
  std::array<int64_t, 2> box{}; // rows, columns
  int64_t swizzleBytes = 0;
  int64_t rank = 0;
  /// A trace is its buffer and its capacity (events per warp).
  unsigned abiSlots() const {
    return kind == Kind::Memref ? 3 + 2 * rank : kind == Kind::Trace ? 2 : 1;
  }
};

/// y[i] = x[src(i) + offset] + add for i < N, src(i) = idx[i] (indirect)
/// or i (direct); x holds N + offset floats, idx values in [0, N).
struct GatherProblem {
  bool indirect = true;
  int64_t offset = 0;
  int64_t add = 0;
  std::string formula() const;
};

/// The instrumented build (`klx export --trace`): the same kernel taking
/// a trace buffer as one more parameter.
struct TraceSection {
  std::string binary;
  std::vector<Param> params;
  std::vector<std::string> abi;
  /// The first `ctas` CTAs record (every CTA when 0), or those listed.
  int64_t ctas = 0, warps = 0;
  std::vector<int64_t> ctaList;
  std::vector<std::string> warpRoles;
};

struct Manifest {
  int version = 0;
  std::string source;
  std::string target; // "sm_90a"
  std::string binary; // file name inside the bundle
  std::string ptx;
  std::string entry;
  std::array<int64_t, 3> block{};
  std::array<int64_t, 3> cluster{1, 1, 1};
  /// The output tiles one cluster computes (rows x columns): a persistent
  /// grid walks groups of them, one group per cluster.
  std::array<int64_t, 2> clusterTiles{1, 1};
  int64_t dynamicSharedBytes = 0;
  bool persistent = false; // grid "persistent" or "tiles"
  /// Set for a gather (grid "elements": one thread per element).
  std::optional<GatherProblem> gather;
  std::array<int64_t, 3> tile{}; // M, N, K
  DType dtype = DType::F16;      // A and B
  DType outDtype = DType::F32;   // D: f32, or bf16/f16 through a TMA store
  ProblemSize problem;
  std::vector<Param> params;
  std::vector<std::string> abi;
  std::vector<std::pair<std::string, std::string>> defines;
  std::string sourceDigest; // "" in bundles written before it was said
  int64_t registers = -1;   // from ptxas -v when the bundle has it
  std::optional<TraceSection> trace;
  /// klx timeline's verdict on the same kernel, when klx could model it.
  struct Simulated {
    bool completes = true;
    std::vector<std::string> findings, blocked;
  };
  std::optional<Simulated> simulated;
  /// What a kernel that computes on its accumulators stores instead of
  /// A x B (problem.epilogue, Epilogue.h).
  std::shared_ptr<const EpilogueProgram> epilogue;

  /// The compute capability the target needs: 90 for sm_90a.
  int requiredCapability() const;
  /// An AMD code object (target gfx942, gfx950): launched through HIP,
  /// with A and B as memrefs rather than tensor maps.
  bool amd() const { return target.rfind("gfx", 0) == 0; }
};

/// Parses and checks manifest.json. On failure returns nullopt and sets
/// `error` to "manifest.json:LINE:COL: ..." or "manifest.json: FIELD ...".
std::optional<Manifest> parseManifest(std::string_view text,
                                      std::string &error);

/// Why `size` cannot run with this kernel (BundleFormat.h's check, with
/// what it needs of the manifest), or an empty string.
std::string checkProblemSize(const Manifest &manifest, const ProblemSize &size);

} // namespace klx::rt

#endif // KLX_RUNTIME_MANIFEST_H
