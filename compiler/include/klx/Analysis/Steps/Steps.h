//===- Steps.h - Load, compute and store steps ------------------*- C++ -*-===//
//
// A step loads from global memory, computes on what it loaded, and stores:
// the way a DMA-driven machine (and a TMA-fed GPU kernel) runs a body.
// All loads of a step are issued together, so a load whose address comes
// from data loaded in the same step (an indirect gather, x[idx[i] + 2])
// must wait for the next step; a barrier ends a step too. Values that one
// step produces and a later one uses cross in registers unless a store to
// shared memory and a load back bridge them (klx-bridge-steps).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_ANALYSIS_STEPS_STEPS_H
#define KLX_ANALYSIS_STEPS_STEPS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace klx {

enum class StepRole {
  Load,      // global -> registers or shared memory
  BridgeIn,  // shared -> registers: a value an earlier step left
  Compute,   // arithmetic on loaded data, tensor-core ops
  Store,     // registers -> global
  BridgeOut, // registers -> shared: a value for a later step
};
llvm::StringRef stepRoleName(StepRole role);

struct StepOp {
  StepRole role = StepRole::Compute;
  std::string op;    // "memref.load"
  unsigned line = 0; // in the printed IR, 0 when unknown
};

struct Step {
  std::vector<StepOp> ops; // in IR order
  /// Why this step could not be part of the one before: "memref.load at
  /// line 34 takes its address from data step 1 loads", "gpu.barrier at
  /// line 40". Empty for the first step.
  std::string why;

  bool has(StepRole role) const;
  /// Runs of one op in one role, in order, as {first index, length}: an
  /// epilogue's 128 stores are one run, which views show as one line. Eight
  /// or more ops in a row that compute on CUDA cores are one run whatever
  /// they are (a fused epilogue's per-element arithmetic is one line, not
  /// one per op).
  std::vector<std::pair<size_t, size_t>> runs() const;
  /// What a run says in one line: "arith.mulf x2", or for a run of several
  /// ops their counts, most first ("384 arith.mulf, 256 math.fma, ...").
  std::string runLabel(size_t first, size_t count) const;
  /// "load -> compute -> store", "transfer only", "compute only", ...
  std::string shape() const;
};

/// A value produced in one step and used in a later one.
struct StepCrossing {
  std::string op; // the op that produced it
  unsigned line = 0;
  int from = 0, to = 0;
};

struct KernelSteps {
  std::string kernel;
  unsigned line = 0;
  std::vector<Step> steps;
  /// Crossings in registers (a bridged value crosses through memory and
  /// is not listed).
  std::vector<StepCrossing> crossings;
};

/// Where each op of one kernel body falls: the step of every op placed,
/// and what the bridge pass needs to know about values.
struct StepPlacement {
  llvm::DenseMap<mlir::Operation *, int> stepOf;
  llvm::DenseMap<mlir::Operation *, StepRole> roleOf; // listed ops only
  llvm::DenseMap<mlir::Operation *, std::string> why; // first op of a step
  /// Values derived from memory contents (data, not addresses).
  llvm::DenseMap<mlir::Value, bool> isData;
  int stepCount = 0;
};

/// Places the ops of a kernel body (a gpu.func, klx.kernel or gpu.launch
/// region, or an llvm.func) in steps.
StepPlacement
placeSteps(mlir::Region &body,
           llvm::function_ref<unsigned(mlir::Operation *)> lineOf = {});

/// The steps of every kernel under `root` that has a body to read.
std::vector<KernelSteps>
analyzeSteps(mlir::Operation *root,
             llvm::function_ref<unsigned(mlir::Operation *)> lineOf = {});

} // namespace klx

#endif // KLX_ANALYSIS_STEPS_STEPS_H
