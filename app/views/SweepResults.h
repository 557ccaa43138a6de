//===- SweepResults.h - A sweep as the Sweep pane draws it ------*- C++ -*-===//
//
// What the Sweep pane shows: per variant, what the compiler said
// (registers, shared memory, spills, roles, the simulated protocol), and
// per problem size, what the GPU measured (TFLOP/s, cuBLAS on the same
// shape, the ratio, the check), ranked. It comes from a sweep compiled
// here (SweepWorker), or from a JSON file a machine with a GPU wrote:
// `klx sweep --json` or `klx-run --sweep --json`. Nothing here includes
// ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_SWEEPRESULTS_H
#define KLX_APP_VIEWS_SWEEPRESULTS_H

#include "klx/Export/Sweep.h"
#include "klx/Runtime/RunFormat.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace klx::app {

/// A variant as the compiler saw it, the cells as printed ("-" unknown).
struct SweepCompileRow {
  std::string name;
  bool compiled = false;
  std::string error;
  std::string registers = "-", shared = "-", spills = "-";
  std::string roles, simulated;
};

/// One bar of the chart: a variant at one size, over its processes.
struct SweepBar {
  std::string variant;
  /// klx-run's status ("passed", "hang", "wrong_result", ...), or
  /// "not_compiled".
  std::string status;
  int rank = 0; // 1 for the fastest; 0 when it did not pass
  int processes = 0, passed = 0;
  double tflops = 0, cublasTflops = 0;          // medians; 0 when absent
  double ratio = 0, ratioMin = 0, ratioMax = 0; // klx / cuBLAS
  double relativeError = -1;                    // the worst check; -1: none
  std::string message;
  bool ok() const { return status == rt::runfile::kPassed; }
};

struct SweepSizeResult {
  std::string size; // "8192x8192x8192", or "" for each bundle's own
  /// Ranked (fastest first, then failures), or for a ladder the rungs
  /// in order, each adding a technique to the one before.
  std::vector<SweepBar> bars;
  bool ordered = false;
  /// The median of the bars' cuBLAS medians (one shape, one library): the
  /// line the chart draws; 0 when nothing timed cuBLAS.
  double cublasTflops = 0;
  /// The scale of the chart: the largest of the bars and cuBLAS.
  double largestTflops() const;
};

struct SweepResults {
  std::string file;   // the swept kernel, when known
  std::string device; // the GPU that measured it
  /// Why no size was measured (no GPU here, and where the bundles are).
  std::string notRun;
  std::vector<SweepCompileRow> variants;
  std::vector<SweepSizeResult> sizes;
  bool measured() const { return !sizes.empty(); }
};

/// Reads `klx sweep --json` (variants, and "runs" or "not_run") or
/// `klx-run --sweep --json` (sizes and ranked rows). Fails with the JSON
/// error's line and column, or which member is missing.
llvm::Expected<SweepResults> parseSweepResults(llvm::StringRef text);

/// A sweep compiled here: its variants' rows, and why none ran.
SweepResults sweepResultsFromCompile(llvm::StringRef file,
                                     llvm::ArrayRef<SweepVariant> variants,
                                     llvm::StringRef notRun);

/// "-D" lists as a person types them into the pane: "tile_n=128,256
/// stages=3,4" (one NAME=V1,V2 per word; ';' also separates) into -D
/// pairs for sweepAxes; fails on a word that is not NAME=VALUES.
llvm::Expected<Defines> parseSweepAxesText(llvm::StringRef text);

} // namespace klx::app

#endif // KLX_APP_VIEWS_SWEEPRESULTS_H
