//===- BridgeSteps.cpp - Values between steps, through shared memory ------===//
//
// A GPU thread can load x[idx[i] + 2] with the address in a register. A
// machine that runs a kernel as steps cannot: the gather's addresses must
// be in memory when its step begins, as a DMA engine (or TMA's gather)
// reads them from there. This pass makes that explicit, so the steps klx
// shows are the steps the kernel runs, and the cost of the bridge (a
// shared store, a barrier, a shared load) is there to measure.
//
//===----------------------------------------------------------------------===//

#include "klx/Transforms/Passes.h"

#include "klx/Analysis/Steps/Steps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

namespace klx {
#define GEN_PASS_DEF_KLXBRIDGESTEPSPASS
#include "klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

/// The op of `body`'s block that holds `op`, or null.
Operation *topLevelAncestor(Block &body, Operation *op) {
  return body.findAncestorOpInBlock(*op);
}

struct Crossing {
  Value value;
  int to = 0; // the first later step that uses it
};

/// The values of `body`'s own ops that a later step uses, each with the
/// first such step; a warning where a later step begins inside an op.
FailureOr<std::vector<Crossing>> findCrossings(Block &body,
                                               const StepPlacement &placement) {
  std::vector<Crossing> crossings;
  for (Operation &op : body) {
    auto from = placement.stepOf.find(&op);
    if (from == placement.stepOf.end() || op.getNumRegions() > 0)
      continue;
    for (Value v : op.getResults()) {
      if (!placement.isData.lookup(v))
        continue;
      int to = -1;
      for (Operation *user : v.getUsers()) {
        int step = placement.stepOf.lookup(user);
        if (step <= from->second)
          continue;
        Operation *holder = topLevelAncestor(body, user);
        if (holder && placement.stepOf.lookup(holder) < step)
          return holder->emitWarning()
                 << "klx-bridge-steps: step " << step + 1
                 << " begins inside this op; left as it is";
        if (to < 0 || step < to)
          to = step;
      }
      if (to >= 0)
        crossings.push_back({v, to});
    }
  }
  return crossings;
}

/// Crossings out of a nested op are not handled: its value would have to
/// be stored inside the loop or branch. Each is added with no step (-1),
/// for checkCrossings to refuse, once there is a crossing at all.
void addNestedCrossings(gpu::GPUFuncOp func, Block &body,
                        const StepPlacement &placement,
                        std::vector<Crossing> &crossings) {
  func.walk([&](Operation *op) {
    if (op->getBlock() == &body || crossings.empty())
      return;
    auto from = placement.stepOf.find(op);
    if (from == placement.stepOf.end())
      return;
    for (Value v : op->getResults())
      for (Operation *user : v.getUsers())
        if (placement.isData.lookup(v) &&
            placement.stepOf.lookup(user) > from->second)
          crossings.push_back({v, -1});
  });
}

/// The threads of a block, a shared-memory slot each: the kernel's
/// one-dimensional known_block_size. A warning when there is none, or when
/// a crossing cannot go through shared memory.
FailureOr<int64_t> checkCrossings(gpu::GPUFuncOp func,
                                  ArrayRef<Crossing> crossings) {
  std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
  if (!block || block->size() != 3 || (*block)[1] != 1 || (*block)[2] != 1)
    return func.emitWarning()
           << "klx-bridge-steps: values cross from one step to another in "
              "registers, but the kernel has no one-dimensional "
              "known_block_size to size a slot per thread; left as it is";
  for (const Crossing &c : crossings) {
    Operation *def = c.value.getDefiningOp();
    if (c.to < 0 || !def)
      return (def ? def->emitWarning() : func.emitWarning())
             << "klx-bridge-steps: this value crosses into a later step "
                "from inside a loop or branch; left in registers";
    if (!c.value.getType().isIntOrIndexOrFloat())
      return def->emitWarning()
             << "klx-bridge-steps: only scalars cross through shared "
                "memory, not "
             << c.value.getType();
  }
  return int64_t((*block)[0]);
}

/// One barrier per step boundary, before the first op of the later step;
/// a warning where that step begins inside an op.
FailureOr<llvm::DenseMap<int, Operation *>>
placeBoundaryBarriers(Block &body, const StepPlacement &placement,
                      ArrayRef<Crossing> crossings) {
  llvm::DenseMap<int, Operation *> boundary;
  for (const Crossing &c : crossings) {
    if (boundary.count(c.to))
      continue;
    for (Operation &op : body)
      if (placement.stepOf.lookup(&op) >= c.to) {
        if (op.getNumRegions() > 0 && placement.stepOf.lookup(&op) != c.to)
          return op.emitWarning() << "klx-bridge-steps: step " << c.to + 1
                                  << " begins inside this op; left as it is";
        OpBuilder at(&op);
        boundary[c.to] = gpu::BarrierOp::create(at, op.getLoc());
        break;
      }
  }
  return boundary;
}

/// Takes `c` through shared memory: thread `tid` stores it into its slot
/// of a new workgroup buffer after its definition and loads it back after
/// `barrier`, and the uses from step c.to on read the loaded value.
void bridgeCrossing(gpu::GPUFuncOp func, Block &body,
                    const StepPlacement &placement, const Crossing &c,
                    Operation *barrier, Value tid, int64_t threads) {
  Operation *def = c.value.getDefiningOp();
  // A widening cast is redone after the bridge, so the slot holds the
  // narrow value (an i32 offset, not a 64-bit index).
  Value stored = c.value;
  bool recast = isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                    arith::ExtUIOp>(def) &&
                isa<IntegerType>(def->getOperand(0).getType());
  if (recast)
    stored = def->getOperand(0);
  auto slots =
      MemRefType::get({threads}, stored.getType(), AffineMap(),
                      gpu::AddressSpaceAttr::get(func.getContext(),
                                                 gpu::AddressSpace::Workgroup));
  Value buffer = func.addWorkgroupAttribution(slots, def->getLoc());
  OpBuilder after(def->getContext());
  after.setInsertionPointAfter(def);
  Operation *bridgeOut =
      memref::StoreOp::create(after, def->getLoc(), stored, buffer, tid);
  OpBuilder reload(barrier->getContext());
  reload.setInsertionPointAfter(barrier);
  Value back = memref::LoadOp::create(reload, def->getLoc(), buffer, tid);
  if (recast) {
    IRMapping mapping;
    mapping.map(stored, back);
    back = reload.clone(*def, mapping)->getResult(0);
  }
  Value crossing = c.value;
  crossing.replaceUsesWithIf(back, [&](OpOperand &use) {
    Operation *owner = topLevelAncestor(body, use.getOwner());
    return use.getOwner() != bridgeOut && owner &&
           placement.stepOf.lookup(owner) >= c.to;
  });
}

/// One round of bridging: every value that crosses into a later step in
/// registers, through shared memory. False when nothing crosses (or
/// there are fewer than two steps).
FailureOr<bool> bridgeRound(gpu::GPUFuncOp func) {
  Block &body = func.getBody().front();
  StepPlacement placement = placeSteps(func.getBody());
  if (placement.stepCount < 2)
    return false;
  FailureOr<std::vector<Crossing>> crossings = findCrossings(body, placement);
  if (failed(crossings))
    return failure();
  addNestedCrossings(func, body, placement, *crossings);
  if (crossings->empty())
    return false;
  FailureOr<int64_t> threads = checkCrossings(func, *crossings);
  if (failed(threads))
    return failure();

  OpBuilder builder(func.getContext());
  builder.setInsertionPointToStart(&body);
  Value tid =
      gpu::ThreadIdOp::create(builder, func.getLoc(), gpu::Dimension::x);
  FailureOr<llvm::DenseMap<int, Operation *>> boundary =
      placeBoundaryBarriers(body, placement, *crossings);
  if (failed(boundary))
    return failure();
  for (const Crossing &c : *crossings)
    bridgeCrossing(func, body, placement, c, (*boundary)[c.to], tid, *threads);
  return true;
}

} // namespace

LogicalResult klx::bridgeSteps(gpu::GPUFuncOp func) {
  if (!func.isKernel() || func.getBody().empty())
    return success();
  // A handful of rounds: a value bridged into step t may be needed again
  // in step t + 1 and is then a crossing of its own.
  for (int round = 0; round < 8; ++round) {
    FailureOr<bool> bridged = bridgeRound(func);
    if (failed(bridged))
      return failure();
    if (!*bridged)
      return success();
  }
  return success();
}

namespace {

struct KlxBridgeStepsPass
    : klx::impl::KlxBridgeStepsPassBase<KlxBridgeStepsPass> {
  void runOnOperation() override {
    // A kernel that cannot be bridged keeps its steps in registers; the
    // warning says why, and the rest of the module is unaffected.
    getOperation()->walk([](gpu::GPUFuncOp func) { (void)bridgeSteps(func); });
  }
};

} // namespace
