//===- SnapshotFacts.h - What the analyses read from one step ---*- C++ -*-===//
//
// Each step of a run records its IR and what klx's analyses read from it:
// the warp-role trees, the barrier protocols, the ordered steps of each
// kernel. One function fills them all, so the recorder knows no analysis
// by name and a new analysis is one more field here and one more call in
// analyzeSnapshot.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_SNAPSHOTFACTS_H
#define KLX_ANALYSIS_SNAPSHOTFACTS_H

#include "klx/Analysis/Protocol/BarrierModel.h"
#include "klx/Analysis/RoleTree/RoleTree.h"
#include "klx/Analysis/Steps/Steps.h"

#include <string>
#include <vector>

namespace klx {

struct SnapshotFacts {
  /// The warp-role tree of each kernel the analysis could read at this
  /// step (none before warp specialization or once scf is lowered to cf).
  std::vector<RoleTree> roles;
  /// The mbarrier protocol of each kernel klx can model at this step: a
  /// warp-specialized klx kernel from klx-circular-buffer until
  /// klx-persistent, and a gpu.func with nvgpu mbarriers until
  /// convert-nvgpu-to-nvvm (klx timeline); and why a kernel could not be
  /// modelled.
  std::vector<sim::ProtocolModel> protocols;
  std::vector<std::string> protocolNotes;
  /// Each kernel's body as ordered load/compute/store steps (klx steps),
  /// while its memory accesses are still ops (memref, vector or llvm).
  std::vector<KernelSteps> steps;
};

/// Every analysis of the IR under `op`: `lineOf` gives an op's line in the
/// printed text, `size` the problem the protocol models cover, `names`
/// (when given) the names the input text gives values and barriers.
SnapshotFacts
analyzeSnapshot(mlir::Operation *op,
                const std::function<unsigned(mlir::Operation *)> &lineOf,
                const ModelSize &size, const SourceNames *names = nullptr);

} // namespace klx

#endif // KLX_ANALYSIS_SNAPSHOTFACTS_H
