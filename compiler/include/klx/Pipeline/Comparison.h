//===- Comparison.h - Two variants of a kernel, side by side ----*- C++ -*-===//
//
// A variant is the kernel compiled with other -D values, or another file.
// The comparison reads what each run recorded (the IR at one step, the
// launch, ptxas's or the AMDGPU backend's resources, instruction counts,
// role trees, the simulated barrier protocol, the steps) into rows of
// A against B, for `klx compile --compare` and the window's Compare view.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_PIPELINE_COMPARISON_H
#define KLX_PIPELINE_COMPARISON_H

#include "klx/Pipeline/PipelineRun.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace klx {

using Defines = std::vector<std::pair<std::string, std::string>>;

/// What a variant changes: -D values ("stages=2,consumers=1") or a file.
struct VariantSpec {
  std::string text; // as the user wrote it
  Defines defines;  // applied over the base -D values
  std::string file; // another kernel file; empty for the base file
};

/// "NAME=VALUE[,NAME=VALUE...]" (commas or spaces between) is a set of
/// -D values; anything else is a file path. nullopt, with `error` set,
/// for an empty text or a malformed value.
std::optional<VariantSpec> parseVariantSpec(llvm::StringRef text,
                                            std::string &error);

/// "stages=2, consumers=1": what parseVariantSpec reads back; "" for none.
std::string definesText(const Defines &defines);

/// `base` with the variant's values set (replacing same-named ones).
Defines applyVariant(const Defines &base, const VariantSpec &variant);

struct ComparisonRow {
  std::string group; // "launch", "resources", "ptx", "sass", "amdgcn",
                     // "roles", "timeline", "steps", "ir", "status"
  std::string name;  // "registers (@gemm)"
  std::string a, b;  // as printed; "-" when the run has none
  bool differs() const { return a != b; }
};

struct Comparison {
  std::string labelA, labelB;
  /// The step the IR is compared at (a display name), and its index in
  /// each run; -1 where that run does not have it.
  std::string step;
  int stepA = -1, stepB = -1;
  unsigned irLinesA = 0, irLinesB = 0;
  unsigned irAdded = 0, irRemoved = 0;
  bool irTruncated = false;
  std::vector<ComparisonRow> rows;

  unsigned differing() const;
};

/// The step the IR is compared at when none is named: klx-to-nvgpu (or
/// klx-to-amdgpu) where both runs have it, else the step `klx steps`
/// reads, else the last MLIR step both have.
std::string defaultComparisonStep(const PipelineRun &a, const PipelineRun &b);

/// The tiles and k steps the run's timeline covers (the most of its
/// kernels'), or nullopt when it has no timeline.
std::optional<ModelSize> timelineBound(const PipelineRun &run);

/// The bound two runs' timelines must share to compare equal work: the
/// larger number of tiles and of k steps either run's model covers, or
/// nullopt when they already agree (or a run has no timeline). A run whose
/// bound is not this one is compiled again with it (ModelSize).
std::optional<ModelSize> commonModelSize(const PipelineRun &a,
                                         const PipelineRun &b);

/// Compares two finished runs at `step` (a display name; empty for the
/// default).
Comparison compareRuns(const PipelineRun &a, const PipelineRun &b,
                       llvm::StringRef labelA, llvm::StringRef labelB,
                       llvm::StringRef step = "");

void printComparison(llvm::raw_ostream &os, const Comparison &comparison);
void writeComparisonJson(llvm::json::OStream &json,
                         const Comparison &comparison);

} // namespace klx

#endif // KLX_PIPELINE_COMPARISON_H
