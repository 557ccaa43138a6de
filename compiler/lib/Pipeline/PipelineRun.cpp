//===- PipelineRun.cpp - One recorded run of the klx pipeline -------------===//

#include "klx/Pipeline/PipelineRun.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace klx;

std::string Snapshot::displayName() const {
  if (occurrence <= 1)
    return name;
  return (name + "#" + llvm::Twine(occurrence)).str();
}

std::vector<Diag> PipelineRun::allDiagnostics() const {
  std::vector<Diag> all = diagnostics;
  for (const Snapshot &snapshot : snapshots)
    all.insert(all.end(), snapshot.diagnostics.begin(),
               snapshot.diagnostics.end());
  return all;
}

llvm::StringRef Snapshot::moduleName() const {
  llvm::StringRef name = anchor;
  return name.consume_front("gpu.module @") ? name : llvm::StringRef();
}

std::string Snapshot::label(bool severalModules) const {
  if (!severalModules || moduleName().empty())
    return displayName();
  return displayName() + " @" + moduleName().str();
}

bool PipelineRun::severalModules() const {
  llvm::StringRef first;
  for (const Snapshot &snapshot : snapshots) {
    llvm::StringRef module = snapshot.moduleName();
    if (module.empty())
      continue;
    if (first.empty())
      first = module;
    else if (module != first)
      return true;
  }
  return false;
}

int PipelineRun::findStep(llvm::StringRef label,
                          llvm::StringRef preferred) const {
  auto [name, module] = label.split(" @");
  name = name.trim();
  int first = -1;
  for (size_t i = 0; i < snapshots.size(); ++i) {
    const Snapshot &snapshot = snapshots[i];
    if (snapshot.displayName() != name)
      continue;
    llvm::StringRef ranOn = snapshot.moduleName();
    if (!module.empty() ? ranOn == module : ranOn.empty() || ranOn == preferred)
      return int(i);
    if (module.empty() && first < 0)
      first = int(i);
  }
  return first;
}

const Snapshot *PipelineRun::findSnapshot(llvm::StringRef name) const {
  for (const Snapshot &snapshot : snapshots)
    if (snapshot.displayName() == name)
      return &snapshot;
  return nullptr;
}

int PipelineRun::madeBy(int step) const {
  // Steps that left the IR as it was (klx-lint, a canonicalize with
  // nothing to do) show the IR of the step before them: name that one.
  while (step > 0 && snapshots[step].kind == EmitKind::MLIR &&
         !snapshots[step].changed && !snapshots[step].text.empty() &&
         snapshots[step - 1].kind == EmitKind::MLIR)
    --step;
  return step;
}

int PipelineRun::timelineStep() const {
  int fromNvgpu = -1;
  for (int i = int(snapshots.size()) - 1; i >= 0; --i)
    for (const sim::ProtocolModel &model : snapshots[i].facts.protocols) {
      if (model.readFrom != "nvgpu ops")
        return madeBy(i);
      if (fromNvgpu < 0)
        fromNvgpu = i;
    }
  return fromNvgpu < 0 ? -1 : madeBy(fromNvgpu);
}

int PipelineRun::stepsStep() const {
  int last = -1;
  // The payload as it stands after the transform script, if the file has
  // one (snapshots 1..N are its ops).
  int firstAsWritten = int(lowering.transformSteps.size());
  for (int i = 0; i < int(snapshots.size()); ++i) {
    // A kernel written inside gpu.launch reads as written: before the
    // pipeline converts its ops and outlines it.
    if (last < 0 && i >= firstAsWritten &&
        llvm::any_of(
            snapshots[i].facts.steps,
            [](const KernelSteps &k) {
              return llvm::StringRef(k.kernel).ends_with("(gpu.launch)");
            }))
      return i;
    llvm::StringRef name = snapshots[i].name;
    if (name == "convert-scf-to-cf" || name == "convert-arith-to-llvm" ||
        name == "convert-gpu-to-nvvm" || name == "convert-gpu-to-rocdl")
      break;
    if (i >= firstAsWritten && !snapshots[i].facts.steps.empty())
      last = i;
  }
  return last < 0 ? -1 : madeBy(last);
}

SnapshotLines::SnapshotLines(const Snapshot &snapshot) : snapshot(snapshot) {
  llvm::SmallVector<llvm::StringRef> split;
  llvm::StringRef(snapshot.text).split(split, '\n');
  lines.assign(split.begin(), split.end());
}

llvm::StringRef SnapshotLines::text(unsigned line) const {
  return line >= 1 && line <= lines.size() ? lines[line - 1].trim()
                                           : llvm::StringRef();
}

unsigned SnapshotLines::sourceLine(unsigned line) const {
  auto it = llvm::lower_bound(
      snapshot.origins, line,
      [](const LineOrigin &o, unsigned l) { return o.line < l; });
  return it != snapshot.origins.end() && it->line == line ? it->source.line : 0;
}

int PipelineRun::rolesStep() const {
  int last = -1, lastBeforeNVVM = -1;
  bool nvvmYet = false;
  for (int i = 0; i < int(snapshots.size()); ++i) {
    nvvmYet |= snapshots[i].name == "convert-nvgpu-to-nvvm";
    if (snapshots[i].facts.roles.empty())
      continue;
    last = i;
    if (!nvvmYet)
      lastBeforeNVVM = i;
  }
  int chosen = lastBeforeNVVM >= 0 ? lastBeforeNVVM : last;
  return chosen < 0 ? -1 : madeBy(chosen);
}
