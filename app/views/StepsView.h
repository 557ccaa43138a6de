//===- StepsView.h - What the Steps pane draws ------------------*- C++ -*-===//
//
// The ordered steps of each kernel at the selected step (or, where it has
// none, at the run's default steps step), as columns of load, compute
// and store rows with the lines they came from. No ImGui here.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_STEPSVIEW_H
#define KLX_APP_VIEWS_STEPSVIEW_H

#include "klx/Pipeline/PipelineRun.h"

#include <string>
#include <vector>

namespace klx::app {

/// One op, or a run of the same op (an epilogue's 128 stores).
struct StepsRow {
  StepRole role = StepRole::Compute;
  std::string label; // the IR line, or "memref.store x128"
  unsigned irLine = 0;
  unsigned sourceLine = 0; // 0 when unknown
  unsigned count = 1;
};

struct StepsColumn {
  std::string title; // "step 2: load -> compute -> store"
  std::string why;
  std::vector<StepsRow> rows;
};

struct KernelStepsView {
  std::string kernel;
  std::vector<StepsColumn> columns;
  /// "arith.index_cast (line 13) is made in step 1 and used in step 2"
  std::vector<std::string> crossings;
  std::vector<unsigned> crossingSourceLines;
};

struct StepsView {
  int step = -1; // the snapshot shown; -1 when no step has any
  /// False when the selected step has no kernel body to read and `step`
  /// is the run's default instead.
  bool followsSelection = false;
  std::vector<KernelStepsView> kernels;
};

StepsView buildStepsView(const PipelineRun &run, int selected);

/// Whether a row belongs in the load, compute or store part of a column.
enum class StepsSection { Load, Compute, Store };
StepsSection sectionOf(StepRole role);

} // namespace klx::app

#endif // KLX_APP_VIEWS_STEPSVIEW_H
