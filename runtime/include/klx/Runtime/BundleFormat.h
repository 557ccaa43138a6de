//===- BundleFormat.h - The Bundle, as klx writes it and klx-run reads it -===//
//
// The one place the Bundle's contract is spelt: manifest.json's version
// and member names, the problem size and what sizes a kernel can take,
// and the kinds of events an instrumented kernel records. The runtime owns
// it (it builds alone, with no LLVM) and the compiler includes it, so
// klx export (klx/Export/Bundle.h) and klx-run (klx/Runtime/Manifest.h)
// cannot drift apart. std-only; docs/bundle.md describes the format.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_BUNDLEFORMAT_H
#define KLX_RUNTIME_BUNDLEFORMAT_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace klx::rt {

namespace bundlefile {

/// manifest.json's version: klx writes it, klx-run refuses others.
inline constexpr int kVersion = 1;
inline constexpr char kVersionKey[] = "klx_bundle";

// The document.
inline constexpr char kSource[] = "source";   // the compiled file
inline constexpr char kDefines[] = "defines"; // {NAME: VALUE} of -D
/// The compiled text's digest ("xxh3:" and 16 hex digits): an edit since
/// the export changes it, where the file's name and -D values stay.
inline constexpr char kSourceDigest[] = "source_digest";
inline constexpr char kTarget[] = "target";   // "sm_90a", "gfx942"
inline constexpr char kBinary[] = "binary";   // file in the bundle
inline constexpr char kPtx[] = "ptx";         // NVIDIA: the PTX's file
inline constexpr char kAmdgcn[] = "amdgcn";   // AMD: the assembly's file
inline constexpr char kEntry[] = "entry";     // the kernel's symbol
inline constexpr char kBlock[] = "block";     // [x, y, z] threads
inline constexpr char kCluster[] = "cluster"; // [x, y, z] CTAs
/// The output tiles one cluster computes, [rows, columns].
inline constexpr char kClusterTiles[] = "cluster_tiles";
inline constexpr char kDynamicSharedMemory[] = "dynamic_shared_memory";
inline constexpr char kGrid[] = "grid"; // kGridPersistent, ...
inline constexpr char kTile[] = "tile"; // [M, N, K] of a gemm's tile
inline constexpr char kProblem[] = "problem";
inline constexpr char kParams[] = "params"; // [param], in order
inline constexpr char kAbi[] = "abi";       // ["ptr" | "i64" | "i32"]
inline constexpr char kResources[] = "resources";
inline constexpr char kSimulated[] = "simulated";
inline constexpr char kTrace[] = "trace";

// The grids.
inline constexpr char kGridPersistent[] = "persistent";
inline constexpr char kGridTiles[] = "tiles";
inline constexpr char kGridElements[] = "elements"; // a gather

// The problem.
inline constexpr char kProblemKind[] = "kind"; // kGemm or kGather
inline constexpr char kGemm[] = "gemm";
inline constexpr char kGather[] = "gather";
inline constexpr char kProblemDtype[] = "dtype"; // A and B
inline constexpr char kAccumulator[] = "accumulator";
inline constexpr char kOutDtype[] = "out_dtype";
inline constexpr char kLayout[] = "layout";
inline constexpr char kFormula[] = "formula"; // a gather's, in words
inline constexpr char kIndex[] = "index";     // "idx" or "i"
inline constexpr char kOffset[] = "offset";
inline constexpr char kAdd[] = "add";
// A gemm that computes on its accumulators: what D holds instead of A x B
// (klx.epilogue, compiler/lib/Dialect/Klx/Transforms/DescribeEpilogue.cpp
// says its form; runtime/lib/Epilogue.cpp evaluates it).
inline constexpr char kEpilogue[] = "epilogue";
inline constexpr char kM[] = "M"; // a gemm's sizes; a gather's N is kN
inline constexpr char kN[] = "N";
inline constexpr char kK[] = "K";

// A parameter.
inline constexpr char kParamName[] = "name";
inline constexpr char kParamKind[] = "kind";
inline constexpr char kTensorMap[] = "tensor_map";
inline constexpr char kMemref[] = "memref";
inline constexpr char kScalar[] = "scalar";
inline constexpr char kUnused[] = "unused";
inline constexpr char kTraceBuffer[] = "trace";
inline constexpr char kParamDtype[] = "dtype";
inline constexpr char kBox[] = "box"; // [rows, columns]
inline constexpr char kSwizzle[] = "swizzle";
inline constexpr char kRank[] = "rank";

// resources (ptxas -v).
inline constexpr char kRegisters[] = "registers";
inline constexpr char kStaticSharedMemory[] = "static_shared_memory";
inline constexpr char kStackFrame[] = "stack_frame";
inline constexpr char kSpillStores[] = "spill_stores";
inline constexpr char kSpillLoads[] = "spill_loads";

// simulated (klx timeline's verdict).
inline constexpr char kCompletes[] = "completes";
inline constexpr char kProtocolError[] = "protocol_error";
inline constexpr char kFindings[] = "findings";
inline constexpr char kBlocked[] = "blocked";
inline constexpr char kLatency[] = "latency";

// trace (the instrumented build), besides binary, params and abi.
inline constexpr char kCtas[] = "ctas";
inline constexpr char kWarps[] = "warps";
inline constexpr char kEvents[] = "events";
inline constexpr char kCtaList[] = "cta_list";
inline constexpr char kFormat[] = "format";
inline constexpr char kClock[] = "clock";
inline constexpr char kWarpRoles[] = "warp_roles";

} // namespace bundlefile

/// The trace buffer's layout (klx-to-nvgpu{instrument}, decoded by klx-run):
/// per traced CTA a header of kTraceHeaderWords i64 words, then per warp a
/// count word and `capacity` event words. Header: globaltimer and clock64
/// at the CTA's start, the same at its end, %smid, the linear block id + 1.
/// An event word: clock64's low 32 bits << 32 | pipeline << 24 | stage << 8
/// | kind (the pipeline's bits were the stage's before 2026-11-27, always 0
/// there: stages are few). The
/// count word stays 0 until an event finds the region full; then it holds
/// how many the warp had recorded. A trace section whose `format` is not
/// from kOldestTraceFormat to this is a layout klx-run cannot read (an
/// older klx's or a newer one's). Format 3 adds kTraceStampedLate; a
/// format 2 buffer never sets it.
inline constexpr int kTraceFormat = 3;
inline constexpr int kOldestTraceFormat = 2;
/// Set in an event word's kind byte: its clock is the one the warp's next
/// event read (a release right after an MMA waited for at once reads none
/// of its own, Trace.cpp in the compiler says why). The event happened
/// after the warp's previous event and before that next one.
inline constexpr int64_t kTraceStampedLate = 0x80;
inline constexpr int kTraceHeaderWords = 6;
/// A trace records every CTA, the first N (at most kMaxTraceCtas) or a
/// list of at most kMaxTraceCtaList block ids.
inline constexpr int64_t kMaxTraceCtas = int64_t(1) << 20;
inline constexpr size_t kMaxTraceCtaList = 64;
/// In the Chrome trace klx-run writes, the process whose threads are the
/// SMs and whose slices are the CTAs each ran (the CTAs' own processes are
/// their block ids).
inline constexpr int64_t kTraceSmsPid = int64_t(1) << 30;
enum class TraceHeader : int {
  StartTimer = 0,
  StartClock = 1,
  EndTimer = 2,
  EndClock = 3,
  SmId = 4,
  BlockId = 5,
};

/// What an instrumented kernel records; the numbers are the low byte of
/// each event word.
enum class TraceKind : int {
  WaitFullBegin = 1,
  WaitFullEnd = 2,
  WaitEmptyBegin = 3,
  WaitEmptyEnd = 4,
  CopyIssue = 5,
  MmaIssue = 6,
  ReleaseEmpty = 7,
  WaitTurnBegin = 8,
  WaitTurnEnd = 9,
  PassTurn = 10,
};

/// A barrier wait is recorded as a begin and, one kind later, its end.
inline bool isWaitBegin(TraceKind k) {
  return k == TraceKind::WaitFullBegin || k == TraceKind::WaitEmptyBegin ||
         k == TraceKind::WaitTurnBegin;
}
inline bool isWaitEnd(TraceKind k) {
  return k == TraceKind::WaitFullEnd || k == TraceKind::WaitEmptyEnd ||
         k == TraceKind::WaitTurnEnd;
}
inline TraceKind waitEndOf(TraceKind begin) {
  return TraceKind(int(begin) + 1);
}
/// "full", "empty" or "turn": the barrier a wait's begin waits on.
inline const char *waitBarrier(TraceKind begin) {
  switch (begin) {
  case TraceKind::WaitFullBegin:
    return "full";
  case TraceKind::WaitEmptyBegin:
    return "empty";
  default:
    return "turn";
  }
}

/// M x N x K of a gemm; a gather's element count N is m, with n = k = 0.
struct ProblemSize {
  int64_t m = 0, n = 0, k = 0;
  bool isGather() const { return n == 0 && k == 0; }
  /// "2048x2048x1024", or "N=16777216" for a gather: for people.
  std::string str() const {
    return isGather() ? "N=" + std::to_string(m) : flag();
  }
  /// "2048x2048x1024", or "16777216" for a gather: what --size= takes
  /// (parseProblemSize, klx export, klx-run) for every kind of kernel.
  std::string flag() const {
    if (isGather())
      return std::to_string(m);
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k);
  }
  bool operator==(const ProblemSize &o) const {
    return m == o.m && n == o.n && k == o.k;
  }
};

/// Sizes each dimension stays below: TMA's and the kernels' 32-bit index
/// arithmetic.
inline constexpr int64_t kMaxDim = int64_t(1) << 31;

/// "MxNxK" or "N" (a gather), each a positive integer of at most 12
/// digits; with `allowSpaces`, spaces around each number too (what a
/// person types into the Run pane).
inline std::optional<ProblemSize> parseProblemSize(std::string_view text,
                                                   bool allowSpaces = false) {
  auto number = [&](std::string_view part) -> std::optional<int64_t> {
    if (allowSpaces) {
      while (!part.empty() && part.front() == ' ')
        part.remove_prefix(1);
      while (!part.empty() && part.back() == ' ')
        part.remove_suffix(1);
    }
    if (part.empty() || part.size() > 12)
      return std::nullopt;
    int64_t value = 0;
    for (char c : part) {
      if (c < '0' || c > '9')
        return std::nullopt;
      value = value * 10 + (c - '0');
    }
    return value > 0 ? std::optional(value) : std::nullopt;
  };
  ProblemSize size;
  int64_t *dims[3] = {&size.m, &size.n, &size.k};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t end = text.find('x', start);
    bool last = end == std::string_view::npos;
    if (last && i == 1)
      return std::nullopt; // "MxN"
    std::optional<int64_t> value =
        number(text.substr(start, last ? std::string_view::npos : end - start));
    if (!value)
      return std::nullopt;
    *dims[i] = *value;
    if (last)
      return i == 0 || i == 2 ? std::optional(size) : std::nullopt;
    if (i == 2)
      return std::nullopt; // a fourth part
    start = end + 1;
  }
  return std::nullopt;
}

/// What a kernel's size check needs to know of it.
struct ProblemLimits {
  std::string entry;  // the kernel, as messages name it
  std::string target; // "sm_90a", "gfx942"
  bool gather = false;
  int64_t block = 1;             // a gather's threads per CTA
  int64_t gatherOffset = 0;      // a gather reads x[... + offset]
  std::array<int64_t, 3> tile{}; // a gemm's
  int64_t elementBytes = 2;      // of A and B
  /// The kernel's epilogue reduces along rows (klx.reduce ... rows), which
  /// covers one tile's columns: N must fit in one tile.
  bool reducesRowsInATile = false;
  bool amd() const { return target.rfind("gfx", 0) == 0; }
};

/// Why `size` cannot run with the kernel (a gemm's size for a gather and
/// the other way round, TMA's row strides, tile multiples on AMD, elements
/// per block, 2^31), or "".
inline std::string checkProblemSize(const ProblemLimits &kernel,
                                    const ProblemSize &size) {
  // As it was typed: "4000" or "2048x2048x1024".
  std::string shape = size.flag();
  if (kernel.gather) {
    if (!size.isGather())
      return shape + ": @" + kernel.entry +
             " is a gather; give its element count N";
    if (size.m <= 0 || size.m % kernel.block)
      return shape + ": N must be a positive multiple of the block (" +
             std::to_string(kernel.block) +
             " threads, one element each; the kernel does not mask)";
    if (size.m + kernel.gatherOffset >= kMaxDim)
      return shape + ": N + offset must be below 2^31";
    return "";
  }
  if (size.isGather())
    return shape + ": @" + kernel.entry + " is a gemm; give MxNxK";
  if (size.m <= 0 || size.n <= 0 || size.k <= 0)
    return shape + ": sizes must be positive";
  const std::array<int64_t, 3> &tile = kernel.tile;
  if (kernel.amd() &&
      (size.m % tile[0] || size.n % tile[1] || size.k % tile[2]))
    return shape + ": for " + kernel.target +
           ", M, N and K must be multiples of the tile " +
           std::to_string(tile[0]) + "x" + std::to_string(tile[1]) + "x" +
           std::to_string(tile[2]) +
           " (the AMD kernel does not mask its copies or its stores)";
  // TMA needs every row stride (K elements of A, N of B) to be a multiple
  // of 16 bytes; ragged tiles are fine (zeros past the edge on load,
  // clipped or padded on store).
  int64_t bytes = kernel.elementBytes > 0 ? kernel.elementBytes : 2;
  if (!kernel.amd() && ((size.k * bytes) % 16 || (size.n * bytes) % 16))
    return shape + ": N and K must be multiples of " +
           std::to_string(16 / bytes) +
           " (TMA needs row strides of A and B in multiples of 16 bytes)";
  if (size.m >= kMaxDim || size.n >= kMaxDim || size.k >= kMaxDim)
    return shape + ": each size must be below 2^31";
  if (kernel.reducesRowsInATile && size.n > tile[1])
    return shape + ": @" + kernel.entry +
           " reduces each row within one tile (klx.reduce ... rows) of " +
           "tile_n = " + std::to_string(tile[1]) +
           " columns, so N = " + std::to_string(size.n) +
           " would be reduced in pieces: N must be at most " +
           std::to_string(tile[1]) + " (or compile with -D tile_n >= N)";
  return "";
}

} // namespace klx::rt

#endif // KLX_RUNTIME_BUNDLEFORMAT_H
