//===- Sweep.h - Every combination of a kernel's -D values ------*- C++ -*-===//
//
// `klx sweep FILE -D tile_n=128,256 -D stages=3,4` compiles each
// combination of the listed values (the first -D varies slowest) and says
// for each what the compiler knows before anything runs: registers,
// shared memory, spills, the roles and the simulated barrier protocol.
// The variants it can bundle go into one folder each, with sweep.json
// beside them, which `klx-run --sweep DIR` reads to run and rank them on
// the GPU (klx/Runtime/SweepFormat.h spells the keys for both sides).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_EXPORT_SWEEP_H
#define KLX_EXPORT_SWEEP_H

#include "klx/Pipeline/Comparison.h"
#include "klx/Pipeline/Compiler.h"
#include "klx/Pipeline/PipelineRun.h"
#include "klx/Runtime/SweepFormat.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace klx {

/// The version of sweep.json that klx writes and klx-run reads (its
/// keys: klx/Runtime/SweepFormat.h, which the runtime owns).
inline constexpr int kSweepVersion = rt::sweepfile::kVersion;

/// A stated limit: past it a sweep is more compiles than anyone waits for
/// (the default sample takes about a second each on one core).
inline constexpr size_t kMaxSweepVariants = 256;

/// One `-D NAME=V1,V2,...`: a name and the values it takes, in order. A
/// -D with one value is an axis of one: every variant has it.
struct SweepAxis {
  std::string name;
  std::vector<std::string> values;
};

/// The axes of the -D values as given. Fails on a name given twice, an
/// empty value in a list ("1,,2") or more than kMaxSweepVariants
/// combinations.
llvm::Expected<std::vector<SweepAxis>>
sweepAxes(llvm::ArrayRef<std::pair<std::string, std::string>> defines);

/// Every combination of the axes' values, the first axis varying
/// slowest; each a full set of -D values.
std::vector<Defines> sweepCombinations(llvm::ArrayRef<SweepAxis> axes);

/// "tile_n=256 stages=4": the values of the axes with more than one value
/// ("as given" when there are none).
std::string sweepVariantName(const Defines &defines,
                             llvm::ArrayRef<SweepAxis> axes);

/// "tile_n-256_stages-4": the variant's bundle folder, letters, digits,
/// '-', '_' and '.' only.
std::string sweepFolderName(const Defines &defines,
                            llvm::ArrayRef<SweepAxis> axes);

/// One rung of a ladder: its name ("128x256 tiles") and its full -D
/// values (the rungs before it, and what it adds).
struct SweepRung {
  std::string name;
  Defines defines;
};

/// What is asked of a sweep: every combination of the axes, or a ladder
/// of rungs in order; and the sizes its bundles run at ("MxNxK" or "N";
/// none: each bundle's own).
struct SweepPlan {
  std::vector<SweepAxis> axes;
  std::vector<SweepRung> ladder; // when not empty, instead of the axes
  std::vector<std::string> sizes;
  bool isLadder() const { return !ladder.empty(); }
};

/// A ladder from `--ladder` texts, "NAME: A=1,B=2" or "A=1,B=2" (then
/// named by its values), each rung the one before with its own values
/// set, the first on top of `base`. Fails on a rung that is not
/// NAME=VALUE pairs, or more than kMaxSweepVariants rungs.
llvm::Expected<std::vector<SweepRung>>
sweepLadder(const Defines &base, llvm::ArrayRef<std::string> texts);

/// A variant the plan asks for: its name, bundle folder and -D values.
struct PlannedVariant {
  std::string name, folder;
  Defines defines;
};

/// The plan's variants in order: the axes' combinations (the first axis
/// slowest), or the rungs ("01-one-tile", ...).
std::vector<PlannedVariant> plannedVariants(const SweepPlan &plan);

/// What the compiler says of one variant, before it runs.
struct SweepVariant {
  std::string name;   // sweepVariantName
  std::string folder; // its bundle, relative to the sweep's folder; empty
                      // when none was written
  Defines defines;
  bool compiled = false;
  /// The first error ("FILE:LINE:COL: error: ..."), or why no bundle
  /// could be made of a variant that compiled.
  std::string error;
  std::string bundleNote;
  std::optional<PtxasFunctionReport> resources; // ptxas -v of the kernel
  std::optional<AmdgcnKernelInfo> amdResources; // its AMDGPU metadata
  unsigned dynamicSharedBytes = 0;
  std::string roles;       // "producer, consumer0, consumer1"; "" if none
  unsigned roleErrors = 0; // failed role checks
  /// The simulated protocol: "completes in 81234 cycles", "DEADLOCK", or
  /// "" when klx models none for the kernel.
  std::string timeline;
  bool deadlocks = false;
  /// The work the timeline covers (ProtocolModel's bound): every variant
  /// of a sweep is simulated over the same, the largest any needs.
  std::string timelineBound;
  int64_t timelineTiles = 0, timelineKSteps = 0;
  /// Cycles per 1000 output elements (tiles of two sizes are different
  /// work); 0 when unknown.
  double cyclesPer1kOutputs = 0;
  double compileSeconds = 0;
};

/// Reads the finished run of one variant.
/// The variant's simulated protocol (timeline, deadlocks and bound) from
/// `run`: summarizeSweepVariant's, and again after a run over the sweep's
/// common bound.
void summarizeSweepTimeline(const PipelineRun &run, SweepVariant &variant);

SweepVariant summarizeSweepVariant(const PipelineRun &run,
                                   const PlannedVariant &planned);

/// The compile table: one row per variant, in plan order.
void printSweepTable(llvm::raw_ostream &os,
                     llvm::ArrayRef<SweepVariant> variants);

/// sweep.json (and the "variants" of `klx sweep --json`): the file, the
/// axes (a ladder's: each parameter its rungs set, with its values), the
/// sizes, whether the variants are an ordered ladder, and the variants.
llvm::json::Value sweepJson(llvm::StringRef file, const SweepPlan &plan,
                            llvm::ArrayRef<SweepVariant> variants);

/// One CSV row per variant, with a header line.
void writeSweepCsv(llvm::raw_ostream &os,
                   llvm::ArrayRef<SweepVariant> variants);

/// Called as each variant finishes compiling (from the thread that
/// compiled it, one call at a time): how many are done, of how many.
using SweepProgress =
    std::function<void(size_t done, size_t total, const SweepVariant &)>;

/// Compiles every combination of `plan` to a cubin (or AMD code object),
/// `jobs` at a time, each with its own MLIRContext, over `base` (its
/// defines are replaced by each variant's). With a non-empty `dir`, each
/// variant that compiles gets its bundle in dir/FOLDER, or says why not
/// (SweepVariant::bundleNote). The variants come back in plan order.
std::vector<SweepVariant> compileSweep(llvm::StringRef source,
                                       llvm::StringRef fileName,
                                       const CompileOptions &base,
                                       const SweepPlan &plan,
                                       llvm::StringRef dir, unsigned jobs,
                                       const SweepProgress &progress = {});

/// Writes dir/sweep.json (sweepJson) for klx-run --sweep.
llvm::Error writeSweepFile(llvm::StringRef dir, llvm::StringRef fileName,
                           const SweepPlan &plan,
                           llvm::ArrayRef<SweepVariant> variants);

/// Why a successful run has no cubin to bundle (ptxas missing or unable
/// to build the chip): "no cubin: ..."; "" when it has one.
std::string missingCubin(const PipelineRun &run);

} // namespace klx

#endif // KLX_EXPORT_SWEEP_H
