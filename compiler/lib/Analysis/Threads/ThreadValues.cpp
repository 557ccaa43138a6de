//===- ThreadValues.cpp - Integer values per thread -----------------------===//

#include "Analysis/Threads/ThreadValues.h"

#include "Analysis/Threads/IntegerFold.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace klx::threads;

namespace {

std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

/// The source lane of a shfl.sync in `lane` (PTX's rule: b the lane or
/// offset, c the clamp in bits 0-4 and the segment mask in bits 8-12);
/// out of range, the lane's own.
unsigned shuffleSource(NVVM::ShflKind kind, unsigned lane, uint64_t b,
                       uint64_t c) {
  unsigned bval = unsigned(b & 31), cval = unsigned(c & 31),
           segmask = unsigned((c >> 8) & 31);
  unsigned maxLane = (lane & segmask) | (cval & ~segmask);
  unsigned minLane = lane & segmask;
  int j = int(lane);
  bool inRange = false;
  switch (kind) {
  case NVVM::ShflKind::up:
    j = int(lane) - int(bval);
    inRange = j >= int(maxLane);
    break;
  case NVVM::ShflKind::down:
    j = int(lane + bval);
    inRange = j <= int(maxLane);
    break;
  case NVVM::ShflKind::bfly:
    j = int(lane ^ bval);
    inRange = j <= int(maxLane);
    break;
  case NVVM::ShflKind::idx:
    j = int(minLane | (bval & ~segmask));
    inRange = j <= int(maxLane);
    break;
  }
  return inRange ? unsigned(j) : lane;
}

} // namespace

ThreadValues::ThreadValues(const KernelShape &shape,
                           const Divergence &divergence)
    : shape(shape), divergence(divergence) {}

const ThreadValues::Entry &ThreadValues::entry(Value value) {
  const void *key = value.getAsOpaquePointer();
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  // Values are evaluated through their operands, recursively: a chain of
  // ops longer than this is unknown rather than a stack overflow.
  constexpr unsigned kMaxDepth = 2000;
  Entry computed;
  if (depth >= kMaxDepth) {
    computed.reason = {"it is computed by a chain of more than 2000 ops",
                       value.getDefiningOp()};
    return cache[key] = std::move(computed);
  }
  ++depth;
  computed = compute(value);
  --depth;
  return cache[key] = std::move(computed);
}

const ThreadValues::Lanes *ThreadValues::eval(Value value) {
  return entry(value).lanes.get();
}

Reason ThreadValues::whyUnknown(Value value) { return entry(value).reason; }

ThreadValues::Lanes ThreadValues::threadIndex(unsigned dim) const {
  Lanes lanes(threads());
  for (unsigned t = 0; t < threads(); ++t)
    lanes[t] = shape.coordinates(t)[dim];
  return lanes;
}

/// An entry that knows `lanes`, each cut to `width` bits.
static ThreadValues::Entry knownLanes(ThreadValues::Lanes lanes,
                                      unsigned width) {
  for (uint64_t &v : lanes)
    v = truncateTo(v, width);
  ThreadValues::Entry result;
  result.lanes = std::make_unique<ThreadValues::Lanes>(std::move(lanes));
  return result;
}

ThreadValues::Entry ThreadValues::compute(Value value) {
  unsigned width = widthOf(value);
  Entry result;
  auto known = [&](Lanes lanes) { return knownLanes(std::move(lanes), width); };
  if (width == 0) {
    result.reason = {"it is not an integer", value.getDefiningOp()};
    return result;
  }
  for (unsigned dim = 0; dim < 3; ++dim) {
    if (shape.threadIds[dim] && value == shape.threadIds[dim])
      return known(threadIndex(dim));
    if (shape.blockSizes[dim] && value == shape.blockSizes[dim])
      return known(same(shape.block[dim]));
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return known(same(constant.getZExtValue()));
  Operation *op = value.getDefiningOp();
  if (!op) {
    Operation *owner = value.getParentBlock()->getParentOp();
    result.reason = {isa<gpu::GPUFuncOp>(owner)
                         ? "it is a kernel argument, the same in every "
                           "thread but not known"
                         : "it is carried by " + opName(owner) +
                               " (a loop counter or value that changes "
                               "from one iteration to the next)",
                     owner};
    return result;
  }
  if (shape.isCaptured(value)) {
    result.reason = {"it comes from the host code around the gpu.launch", op};
    return result;
  }
  return computeOp(op, value, width);
}

ThreadValues::Entry ThreadValues::computeOp(Operation *op, Value value,
                                            unsigned width) {
  Entry result;
  auto known = [&](Lanes lanes) { return knownLanes(std::move(lanes), width); };
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return known(threadIndex(unsigned(id.getDimension())));
  if (isa<NVVM::ThreadIdXOp>(op))
    return known(threadIndex(0));
  if (isa<NVVM::ThreadIdYOp>(op))
    return known(threadIndex(1));
  if (isa<NVVM::ThreadIdZOp>(op))
    return known(threadIndex(2));
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return known(same(shape.block[unsigned(dim.getDimension())]));
  if (isa<NVVM::BlockDimXOp>(op))
    return known(same(shape.block[0]));
  if (isa<NVVM::BlockDimYOp>(op))
    return known(same(shape.block[1]));
  if (isa<NVVM::BlockDimZOp>(op))
    return known(same(shape.block[2]));
  if (isa<gpu::SubgroupSizeOp, NVVM::WarpSizeOp>(op))
    return known(same(kLanesPerWarp));
  if (isa<gpu::NumSubgroupsOp>(op))
    return known(same((threads() + kLanesPerWarp - 1) / kLanesPerWarp));
  if (isa<gpu::LaneIdOp, NVVM::LaneIdOp, gpu::SubgroupIdOp>(op)) {
    bool lane = !isa<gpu::SubgroupIdOp>(op);
    Lanes lanes(threads());
    for (unsigned t = 0; t < threads(); ++t)
      lanes[t] = lane ? t % kLanesPerWarp : t / kLanesPerWarp;
    return known(std::move(lanes));
  }
  if (isa<NVVM::WarpIdOp>(op)) {
    result.reason = {"%warpid is the warp's slot on its SM, not its index "
                     "in the block, and may change while it runs (use the "
                     "thread index / 32)",
                     op};
    return result;
  }
  if (isa<NVVM::ElectSyncOp>(op))
    return electLanes(op);
  if (isa<NVVM::ShflOp>(op))
    return shuffleLanes(op);
  if (!isFoldableInteger(op)) {
    result.reason = {opName(op) + " is not evaluated per thread", op};
    return result;
  }
  SmallVector<const Lanes *, 3> in;
  for (Value operand : op->getOperands()) {
    const Entry &e = entry(operand);
    if (!e.lanes) {
      result.reason = e.reason;
      return result;
    }
    in.push_back(e.lanes.get());
  }
  Lanes lanes(threads());
  SmallVector<uint64_t, 3> scalars(in.size());
  for (unsigned t = 0; t < threads(); ++t) {
    for (size_t i = 0; i < in.size(); ++i)
      scalars[i] = (*in[i])[t];
    std::optional<uint64_t> r = foldInteger(op, scalars);
    if (!r) {
      result.reason = {llvm::formatv("{0} is undefined in thread {1} "
                                     "(division by zero or an oversized "
                                     "shift)",
                                     opName(op), t)
                           .str(),
                       op};
      return result;
    }
    lanes[t] = *r;
  }
  return known(std::move(lanes));
}

ThreadValues::Entry ThreadValues::electLanes(Operation *op) {
  Entry result;
  auto elect = cast<NVVM::ElectSyncOp>(op);
  Reason why;
  const llvm::BitVector *runs = reaching(op, &why);
  if (!runs) {
    result.reason = {"elect.sync picks a lane among those that run it, and "
                     "which run it is not known: " +
                         why.why,
                     why.at ? why.at : op};
    return result;
  }
  uint64_t mask = ~uint64_t(0);
  if (Value m = elect.getMembermask()) {
    const Lanes *lanes = eval(m);
    if (!lanes ||
        llvm::any_of(*lanes, [&](uint64_t v) { return v != lanes->front(); })) {
      result.reason = {"the elect.sync member mask is not one known value", op};
      return result;
    }
    mask = lanes->front();
  }
  Lanes lanes(threads(), 0);
  for (unsigned first = 0; first < threads(); first += kLanesPerWarp) {
    for (unsigned t = first; t < std::min(threads(), first + kLanesPerWarp);
         ++t) {
      if (!runs->test(t))
        continue;
      if (!((mask >> (t - first)) & 1)) {
        result.reason = {llvm::formatv("thread {0} runs elect.sync but is "
                                       "not in its member mask (undefined)",
                                       t)
                             .str(),
                         op};
        return result;
      }
    }
    // The lowest lane that runs it: PTX only promises one, always the same.
    for (unsigned t = first; t < std::min(threads(), first + kLanesPerWarp);
         ++t)
      if (runs->test(t)) {
        lanes[t] = 1;
        break;
      }
  }
  result.lanes = std::make_unique<Lanes>(std::move(lanes));
  return result;
}

ThreadValues::Entry ThreadValues::shuffleLanes(Operation *op) {
  Entry result;
  auto shuffle = cast<NVVM::ShflOp>(op);
  if (shuffle.getReturnValueAndIsValid()) {
    result.reason = {"a shfl.sync that returns a (value, valid) pair is not "
                     "evaluated per thread",
                     op};
    return result;
  }
  const Lanes *value = nullptr;
  for (Value operand :
       {Value(shuffle.getVal()), Value(shuffle.getOffset()),
        Value(shuffle.getMaskAndClamp()), Value(shuffle.getThreadMask())}) {
    const Entry &e = entry(operand);
    if (!e.lanes) {
      result.reason = e.reason;
      return result;
    }
    if (!value)
      value = e.lanes.get();
  }
  const Lanes &offset = *eval(shuffle.getOffset());
  const Lanes &clamp = *eval(shuffle.getMaskAndClamp());
  const Lanes &members = *eval(shuffle.getThreadMask());
  Reason why;
  const llvm::BitVector *runs = reaching(op, &why);
  if (!runs) {
    result.reason = {"which lanes run the shfl.sync is not known: " + why.why,
                     why.at ? why.at : op};
    return result;
  }
  Lanes lanes(threads(), 0);
  for (unsigned t = 0; t < threads(); ++t) {
    if (!runs->test(t))
      continue;
    unsigned warp = t / kLanesPerWarp, lane = t % kLanesPerWarp;
    unsigned source =
        warp * kLanesPerWarp +
        shuffleSource(shuffle.getKind(), lane, offset[t], clamp[t]);
    bool member = (members[t] >> (source % kLanesPerWarp)) & 1;
    if (source >= threads() || !runs->test(source) || !member) {
      result.reason = {llvm::formatv("thread {0} reads lane {1} with "
                                     "shfl.sync, which does not run it or "
                                     "is not in its mask (undefined)",
                                     t, source % kLanesPerWarp)
                           .str(),
                       op};
      return result;
    }
    lanes[t] = (*value)[source];
  }
  result.lanes = std::make_unique<Lanes>(std::move(lanes));
  return result;
}

const llvm::BitVector *ThreadValues::reaching(Operation *op, Reason *why) {
  Block *block = op->getBlock();
  const void *key = block;
  auto it = reachCache.find(key);
  if (it == reachCache.end()) {
    Reach reach;
    Operation *parent = block->getParentOp();
    if (block->getParent() == shape.body) {
      reach.threads = std::make_unique<llvm::BitVector>(threads(), true);
    } else if (!parent || !shape.body->isAncestor(block->getParent())) {
      reach.reason = {"it is outside the kernel", op};
    } else {
      Reason outer;
      const llvm::BitVector *around = reaching(parent, &outer);
      if (!around) {
        reach.reason = outer;
      } else if (auto branch = dyn_cast<scf::IfOp>(parent)) {
        bool thenSide = block->getParent() == &branch.getThenRegion();
        if (const Lanes *cond = eval(branch.getCondition())) {
          auto threadsHere = std::make_unique<llvm::BitVector>(*around);
          for (unsigned t = 0; t < threads(); ++t)
            if (((*cond)[t] & 1) != (thenSide ? 1u : 0u))
              threadsHere->reset(t);
          reach.threads = std::move(threadsHere);
        } else if (divergence.isUniform(branch.getCondition())) {
          // The whole block goes one way: lanes of a warp stay together.
          reach.threads = std::make_unique<llvm::BitVector>(*around);
        } else {
          reach.reason = {"the branch condition " +
                              whyUnknown(branch.getCondition()).why,
                          parent};
        }
      } else if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        if (const Reason *r = divergence.varies(loop.getUpperBound()))
          reach.reason = {
              "the loop bound may differ between threads: " + r->why, parent};
        else if (const Reason *r = divergence.varies(loop.getLowerBound()))
          reach.reason = {
              "the loop start may differ between threads: " + r->why, parent};
        else
          reach.threads = std::make_unique<llvm::BitVector>(*around);
      } else {
        reach.reason = {opName(parent) + " decides which threads run it, "
                                         "and klx does not read it",
                        parent};
      }
    }
    it = reachCache.emplace(key, std::move(reach)).first;
  }
  if (!it->second.threads && why)
    *why = it->second.reason;
  return it->second.threads.get();
}
