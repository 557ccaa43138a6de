//===- Divergence.cpp - Values that may differ between threads ------------===//

#include "Analysis/Threads/Divergence.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace klx::threads;

namespace {

/// Ops that give every thread of a block the same value.
bool isBlockSource(Operation *op) {
  return isa<gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             gpu::SubgroupSizeOp, gpu::NumSubgroupsOp, NVVM::BlockIdXOp,
             NVVM::BlockIdYOp, NVVM::BlockIdZOp, NVVM::BlockDimXOp,
             NVVM::BlockDimYOp, NVVM::BlockDimZOp, NVVM::GridDimXOp,
             NVVM::GridDimYOp, NVVM::GridDimZOp, NVVM::WarpSizeOp>(op);
}

std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

} // namespace

bool klx::threads::isThreadSource(Operation *op) {
  return isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
             NVVM::ThreadIdXOp, NVVM::ThreadIdYOp, NVVM::ThreadIdZOp,
             NVVM::LaneIdOp, NVVM::WarpIdOp, NVVM::ElectSyncOp>(op);
}

Divergence::Divergence(const KernelShape &shape) {
  for (unsigned i = 0; i < 3; ++i)
    if (shape.threadIds[i])
      mark(shape.threadIds[i], {"it is the thread index", shape.kernel});
  // Loops and branches carry a differing value round: repeat until
  // nothing new differs (a few sweeps for nested loops).
  bool changed = true;
  while (changed) {
    changed = false;
    shape.body->walk([&](Operation *op) { changed |= visit(op); });
  }
}

const Reason *Divergence::varies(Value value) const {
  auto it = differing.find(value);
  return it == differing.end() ? nullptr : &it->second;
}

bool Divergence::mark(Value value, Reason reason) {
  return differing.try_emplace(value, std::move(reason)).second;
}

bool Divergence::visit(Operation *op) {
  bool changed = false;
  // By value: a reason may point into the map that marking grows.
  auto markAll = [&](ValueRange values, Reason reason) {
    for (Value v : values)
      changed |= mark(v, reason);
  };
  auto firstDiffering = [&](ValueRange values) -> const Reason * {
    for (Value v : values)
      if (const Reason *r = varies(v))
        return r;
    return nullptr;
  };
  if (isThreadSource(op)) {
    markAll(op->getResults(),
            {isa<NVVM::ElectSyncOp>(op)
                 ? "elect.sync is true in one lane of each warp"
                 : opName(op) + " is the thread's own",
             op});
    return changed;
  }
  if (isBlockSource(op))
    return false;
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (const Reason *r = varies(branch.getCondition())) {
      markAll(branch.getResults(), *r);
      return changed;
    }
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
      if (!region->empty())
        for (auto [result, yielded] :
             llvm::zip(branch.getResults(),
                       region->front().getTerminator()->getOperands()))
          if (const Reason *r = varies(yielded))
            changed |= mark(result, *r);
    return changed;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    if (const Reason *r = firstDiffering(
            {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})) {
      changed |= mark(loop.getInductionVar(), *r);
      markAll(loop.getRegionIterArgs(), *r);
      markAll(loop.getResults(), *r);
      return changed;
    }
    auto yield = loop.getBody()->getTerminator();
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      const Reason *r = varies(loop.getInitArgs()[i]);
      if (!r)
        r = varies(yield->getOperand(i));
      if (r) {
        changed |= mark(arg, *r);
        changed |= mark(loop.getResult(i), *r);
      }
    }
    return changed;
  }
  if (op->getNumResults() == 0 && op->getNumRegions() == 0)
    return false;
  if (auto shuffle = dyn_cast<NVVM::ShflOp>(op)) {
    // Any lane's copy of a uniform value is that value.
    if (const Reason *r = varies(shuffle.getVal()))
      markAll(op->getResults(), *r);
    return changed;
  }
  if (op->getNumRegions() > 0) {
    // Values it yields and its regions' arguments: not read.
    Reason reason{opName(op) + " has regions klx does not read", op};
    markAll(op->getResults(), reason);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        markAll(block.getArguments(), reason);
    return changed;
  }
  if (!isMemoryEffectFree(op)) {
    markAll(op->getResults(),
            {opName(op) + " reads memory (or does what klx does not know), "
                          "so threads may see different values",
             op});
    return changed;
  }
  if (const Reason *r = firstDiffering(op->getOperands()))
    markAll(op->getResults(), *r);
  return changed;
}
