//===- BarrierModel.h - The mbarrier protocol of a klx kernel ---*- C++ -*-===//
//
// Reads a warp-specialized klx kernel between klx-circular-buffer and
// klx-to-nvgpu (pipelines, roles, turns) into the simulator's model: the
// barriers klx-to-nvgpu will create, with their init counts, and what each
// role does per k step (and per tile) on a small problem.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_PROTOCOL_BARRIERMODEL_H
#define KLX_ANALYSIS_PROTOCOL_BARRIERMODEL_H

#include "klx/Analysis/Protocol/BarrierSim.h"
#include "klx/Support/SourceNames.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace klx {

/// The problem the model covers: a few output tiles per CTA, and enough k
/// steps to go round the ring twice (0: 2 x stages + 1).
struct ModelSize {
  int64_t tiles = 4;
  int64_t kSteps = 0;
};

/// One model per klx.kernel under `op` that has pipelines and roles. A
/// kernel that cannot be modelled gets a reason in `notModelled`.
/// `lineOf` gives an op's line (for findings and blocked waits).
std::vector<sim::ProtocolModel>
buildProtocolModels(mlir::Operation *op, const ModelSize &size,
                    std::vector<std::string> &notModelled,
                    const std::function<unsigned(mlir::Operation *)> &lineOf);

/// One model per kernel gpu.func under `op` that creates nvgpu mbarriers,
/// read from the ops themselves (NvgpuProtocol.cpp): hand-written kernels,
/// and klx kernels after klx-to-nvgpu. Sized by `size` through the
/// kernel's klx.launch parameters (M, N, K, k_tiles) where it has them.
/// `names`, when given, names barriers as the input text does.
std::vector<sim::ProtocolModel> buildNvgpuProtocolModels(
    mlir::Operation *op, const ModelSize &size,
    std::vector<std::string> &notModelled,
    const std::function<unsigned(mlir::Operation *)> &lineOf,
    const SourceNames *names = nullptr);

} // namespace klx

#endif // KLX_ANALYSIS_PROTOCOL_BARRIERMODEL_H
