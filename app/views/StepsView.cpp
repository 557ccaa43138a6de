//===- StepsView.cpp - What the Steps pane draws --------------------------===//

#include "StepsView.h"

#include "llvm/Support/FormatVariadic.h"

using namespace klx;
using namespace klx::app;

StepsSection klx::app::sectionOf(StepRole role) {
  switch (role) {
  case StepRole::Load:
  case StepRole::BridgeIn:
    return StepsSection::Load;
  case StepRole::Compute:
    return StepsSection::Compute;
  case StepRole::Store:
  case StepRole::BridgeOut:
    return StepsSection::Store;
  }
  return StepsSection::Compute;
}

static KernelStepsView viewOf(const KernelSteps &kernel,
                              const SnapshotLines &lines) {
  KernelStepsView view;
  view.kernel = kernel.kernel;
  for (size_t s = 0; s < kernel.steps.size(); ++s) {
    const Step &step = kernel.steps[s];
    StepsColumn column;
    column.title = llvm::formatv("step {0}: {1}", s + 1, step.shape()).str();
    column.why = step.why;
    for (auto [first, count] : step.runs()) {
      const StepOp &op = step.ops[first];
      StepsRow row;
      row.role = op.role;
      row.irLine = op.line;
      row.sourceLine = lines.sourceLine(op.line);
      row.count = unsigned(count);
      row.label = row.count == 1 ? lines.text(op.line).str()
                                 : step.runLabel(first, count);
      if (row.label.empty())
        row.label = op.op;
      column.rows.push_back(std::move(row));
    }
    view.columns.push_back(std::move(column));
  }
  for (const StepCrossing &c : kernel.crossings) {
    view.crossings.push_back(
        llvm::formatv("{0} (line {1}) is made in step {2} and used in step "
                      "{3}: it crosses in registers",
                      c.op, c.line, c.from + 1, c.to + 1)
            .str());
    view.crossingSourceLines.push_back(lines.sourceLine(c.line));
  }
  return view;
}

StepsView klx::app::buildStepsView(const PipelineRun &run, int selected) {
  StepsView view;
  if (selected >= 0 && selected < int(run.snapshots.size()) &&
      !run.snapshots[selected].facts.steps.empty()) {
    view.step = selected;
    view.followsSelection = true;
  } else {
    view.step = run.stepsStep();
  }
  if (view.step < 0)
    return view;
  const Snapshot &snapshot = run.snapshots[view.step];
  SnapshotLines lines(snapshot);
  for (const KernelSteps &kernel : snapshot.facts.steps)
    view.kernels.push_back(viewOf(kernel, lines));
  return view;
}
