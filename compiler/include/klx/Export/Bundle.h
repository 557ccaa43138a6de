//===- Bundle.h - What klx export writes and klx-run reads ------*- C++ -*-===//
//
// A Bundle is a folder: kernel.cubin, kernel.ptx and manifest.json, which
// says everything needed to launch the kernel (docs/bundle.md). klx-run
// reads it without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_EXPORT_BUNDLE_H
#define KLX_EXPORT_BUNDLE_H

#include "klx/Analysis/KernelLaunch.h"
#include "klx/Runtime/BundleFormat.h"
#include "klx/Target/PtxasReport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace klx {

struct PipelineRun;

// The problem size and its parsing are the Bundle contract's
// (klx/Runtime/BundleFormat.h), which klx-run reads with.
using rt::parseProblemSize;
using rt::ProblemSize;

/// The size a bundle runs at when nobody says otherwise (klx export, the
/// Run pane).
inline constexpr ProblemSize kDefaultProblemSize{2048, 2048, 1024};
inline constexpr ProblemSize kDefaultGatherSize{1 << 24, 0, 0};
ProblemSize defaultProblemSize(const KernelLaunch &launch);

/// Why `size` cannot run with the kernel (rt::checkProblemSize, with what
/// it needs of `launch`), or "".
std::string checkProblemSize(const KernelLaunch &launch, llvm::StringRef target,
                             const ProblemSize &size);

/// The instrumented build of the same kernel (`klx export --trace`): it
/// takes one more parameter, the trace buffer.
struct TraceBundle {
  KernelLaunch launch;
  std::string cubin;
  std::string ptx; // kernel.trace.ptx: what recording adds, to read
  /// The role each warp of the CTA runs, as the role tree names it.
  std::vector<std::string> warpRoles;
};

/// What `klx timeline` says of the kernel, carried into the manifest so
/// that klx-run can set a hang or fault beside the simulator's verdict.
struct SimulatedVerdict {
  bool completes = true;
  bool protocolError = false;
  std::vector<std::string> findings;
  std::vector<std::string> blocked; // "consumer waits on full[0] ..."
  std::string latency;
};

struct BundleContents {
  KernelLaunch launch;
  std::string target;                         // "sm_90a"
  std::string source;                         // the file it was compiled from
  std::string sourceDigest;                   // sourceDigest() of its text
  std::map<std::string, std::string> defines; // -D NAME=VALUE
  ProblemSize problem; // the size klx-run uses without --size
  std::string cubin;   // bytes (NVIDIA)
  std::string ptx;
  std::string hsaco;  // bytes: the linked AMD code object
  std::string amdgcn; // its assembly
  bool isAmd() const { return !hsaco.empty(); }
  const PtxasFunctionReport *resources = nullptr; // ptxas -v, when known
  std::optional<TraceBundle> trace;
  std::optional<SimulatedVerdict> simulated;
};

/// "xxh3:" and the 16 hex digits of XXH3-64 of `text`: what the bundle and
/// a trace recorded from it say of the text they were compiled from, so the
/// window can tell a recording of an earlier text of the same file.
std::string sourceDigest(llvm::StringRef text);

/// The text of manifest.json.
std::string bundleManifest(const BundleContents &bundle);

/// The one kernel of `run` a bundle launches, if its parameters are those
/// klx-run knows; says why not otherwise. Cheaper than bundleFromRun.
llvm::Expected<const KernelLaunch &> bundleLaunch(const PipelineRun &run);

/// What a bundle can be made of: the one GEMM kernel of a run that reached
/// the cubin step, with its launch facts. Says why not otherwise.
llvm::Expected<BundleContents> bundleFromRun(const PipelineRun &run);

/// Why the kernel of `run` cannot record a measured timeline, or "" when
/// it can: the recording is added as klx-to-nvgpu lowers a klx tile
/// kernel, and a kernel written in gpu/nvgpu ops never passes through it.
std::string whyNoTimeline(const PipelineRun &run);

/// The instrumented build from a run compiled with `instrument`.
llvm::Expected<TraceBundle> traceBundleFromRun(const PipelineRun &run);

/// Writes kernel.cubin, kernel.ptx, manifest.json (and kernel.trace.cubin
/// with a trace) into `dir` (created if missing).
llvm::Error writeBundle(llvm::StringRef dir, const BundleContents &bundle);

} // namespace klx

#endif // KLX_EXPORT_BUNDLE_H
