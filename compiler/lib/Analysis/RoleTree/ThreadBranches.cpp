//===- ThreadBranches.cpp - Warp roles from scf.if on the thread index ----===//
//
// A branch condition that depends only on the thread index is evaluated
// for every thread of the block (ThreadValues: ids, shuffles, elect.sync).
// When the two sides of an scf.if split whole warps, each side is a role
// (nested splits make sub-roles); when they do not (`tid == 0`), the
// branch only narrows who runs the ops inside, which is how a role elects
// one thread to issue copies. A condition klx cannot evaluate is either
// the same in every thread (both sides counted for all of them, as one
// run takes one side) or differs between threads: then how many threads
// run what is inside is unknown, and the uses say why.
//
// Index:
//   [SECTION] The walk
//   [SECTION] readThreadBranches
//
//===----------------------------------------------------------------------===//

#include "Analysis/RoleTree/RoleTreeBuilder.h"
#include "Analysis/Threads/Divergence.h"
#include "Analysis/Threads/ThreadValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace mlir;
using namespace klx;
using namespace klx::roletree;
using namespace klx::threads;

namespace {

// [SECTION] The walk ---------------------------------------------------------

class BranchWalker {
public:
  BranchWalker(RoleTree &tree, ThreadValues &values,
               const Divergence &divergence, IRLineFn irLineOf,
               const SourceNames *names)
      : tree(tree), values(values), divergence(divergence), irLineOf(irLineOf),
        names(names),
        warpCount((values.threads() + kThreadsPerWarp - 1) / kThreadsPerWarp) {}

  /// `unknown`: why the number of threads that run the block is not known
  /// (empty when it is).
  void visitBlock(Block &block, const llvm::BitVector &threads, int role,
                  const std::string &unknown = "");
  std::vector<std::vector<unsigned>> activePerWarp() const;

private:
  /// True when every warp with a thread in `threads` is wholly on one side.
  bool splitsWholeWarps(const llvm::BitVector &threads,
                        const ThreadValues::Lanes &condition) const;
  int newRole(const llvm::BitVector &threads, int parent, std::string name,
              Region &body, scf::IfOp branch);
  void record(Operation *op, const llvm::BitVector &threads, int role,
              const std::string &unknown);
  /// Why a branch condition decides per thread in a way klx cannot read,
  /// or empty when it is the same in every thread.
  std::string differs(scf::IfOp branch);
  void recordSetMaxRegister(NVVM::SetMaxRegisterOp op,
                            const llvm::BitVector &threads, int role);
  std::string barrierName(Value barriers);
  void conjuncts(Value condition,
                 SmallVectorImpl<const ThreadValues::Lanes *> &known,
                 SmallVectorImpl<Value> &rest);

  RoleTree &tree;
  ThreadValues &values;
  const Divergence &divergence;
  IRLineFn irLineOf;
  const SourceNames *names;
  unsigned warpCount;
  std::vector<llvm::BitVector> roleActive; // threads doing each role's work
  std::vector<Block *> roleBlocks;         // the branch that opens a role
  llvm::DenseMap<Value, std::string> barrierNames;
  llvm::StringMap<unsigned> namesGiven;      // role base name -> how many
  llvm::StringMap<unsigned> barrierNameUses; // barrier name -> groups

public:
  /// Barrier groups whose init counts are not one constant.
  std::set<std::string> unreadableInits;
  /// The name of an nvvm barrier op whose address klx cannot trace.
  const std::string untracedBarrier = "an mbarrier at an address klx "
                                      "cannot trace";
};

bool BranchWalker::splitsWholeWarps(
    const llvm::BitVector &threads,
    const ThreadValues::Lanes &condition) const {
  for (unsigned w = 0; w < warpCount; ++w) {
    std::optional<bool> side;
    for (unsigned t = w * kThreadsPerWarp;
         t < std::min(values.threads(), (w + 1) * kThreadsPerWarp); ++t) {
      if (!threads.test(t))
        continue;
      bool taken = (condition[t] & 1) != 0;
      if (side && *side != taken)
        return false;
      side = taken;
    }
  }
  return true;
}

/// A role is named by klx-to-nvgpu's attribute, else by what it does: it
/// multiplies (consumer), issues copies or announces their bytes
/// (producer), or waits for what others bring (consumer).
static std::string roleNameFromOps(Region &body) {
  bool mma = false, copies = false, waits = false;
  body.walk([&](Operation *op) {
    mma |= isa<nvgpu::WarpgroupMmaOp, NVVM::WgmmaMmaAsyncOp,
               klx::WgmmaRegisterAOp>(op);
    copies |= isa<nvgpu::TmaAsyncLoadOp, nvgpu::MBarrierArriveExpectTxOp,
                  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp,
                  NVVM::MBarrierArriveExpectTxOp>(op);
    waits |=
        isa<nvgpu::MBarrierTryWaitParityOp, NVVM::MBarrierTryWaitParityOp>(op);
  });
  if (mma)
    return "consumer";
  if (copies)
    return "producer";
  if (waits)
    return "consumer";
  return "";
}

int BranchWalker::newRole(const llvm::BitVector &threads, int parent,
                          std::string name, Region &body, scf::IfOp branch) {
  Role role;
  role.kind = roleNameFromOps(body);
  role.parent = parent;
  for (unsigned w = 0; w < warpCount; ++w)
    if (threads.find_first_in(
            w * kThreadsPerWarp,
            std::min(values.threads(), (w + 1) * kThreadsPerWarp)) != -1)
      role.warps.push_back(w);
  role.threads = unsigned(threads.count());
  // A sub-role that does what its parent does is named by its warps.
  bool sameAsParent = parent >= 0 && tree.roles[parent].kind == role.kind;
  if (name.empty())
    name = !role.kind.empty() && !sameAsParent ? role.kind
           : role.warps.size() == 1
               ? llvm::formatv("warp {0}", role.warps.front()).str()
               : llvm::formatv("warps {0}-{1}", role.warps.front(),
                               role.warps.back())
                     .str();
  // Roles of one name (two producers) get numbered: producer, producer 2.
  unsigned same = ++namesGiven[name];
  role.name = same > 1 ? llvm::formatv("{0} {1}", name, same).str() : name;
  role.source = toSourceLoc(branch.getLoc());
  role.irLine = irLine(branch, irLineOf);
  tree.roles.push_back(std::move(role));
  roleActive.emplace_back(values.threads());
  roleBlocks.push_back(&body.front());
  return int(tree.roles.size()) - 1;
}

std::string BranchWalker::barrierName(Value barriers) {
  auto it = barrierNames.find(barriers);
  if (it != barrierNames.end())
    return it->second;
  std::string name = "mbarrier";
  if (Operation *create = barriers.getDefiningOp()) {
    std::string written = names ? names->resultName(create) : "";
    if (auto attr = create->getAttrOfType<StringAttr>(kBarrierNameAttrName))
      name = attr.getValue().str();
    else if (!written.empty())
      name = written;
    else if (SourceLoc loc = toSourceLoc(create->getLoc()); loc.isKnown())
      name = llvm::formatv("mbarrier@{0}", loc.line).str();
  }
  // The checks match barriers by name: two groups never share one.
  if (unsigned uses = ++barrierNameUses[name]; uses > 1)
    name += "#" + std::to_string(uses);
  barrierNames[barriers] = name;
  return name;
}

void BranchWalker::recordSetMaxRegister(NVVM::SetMaxRegisterOp op,
                                        const llvm::BitVector &threads,
                                        int role) {
  unsigned count = op.getRegCount();
  bool increase = op.getAction() == NVVM::SetMaxRegisterAction::increase;
  // .sync.aligned: all four warps of a warpgroup run it together.
  for (unsigned g = 0; g * 128 < values.threads(); ++g) {
    unsigned first = g * 128, last = std::min(values.threads(), first + 128);
    int in = 0;
    for (unsigned t = first; t < last; ++t)
      in += threads.test(t);
    if (in != 0 && unsigned(in) != last - first)
      addCheck(tree, Severity::Error,
               llvm::formatv("setmaxnreg is run by {0} of the {1} threads of "
                             "warpgroup {2}; all four warps of a warpgroup "
                             "must run it together (.sync.aligned)",
                             in, last - first, g),
               op, irLineOf);
  }
  if (tree.registersAtEntry == 0)
    addCheck(tree, Severity::Warning,
             "ptxas ignores setmaxnreg here (C7508): the kernel has no "
             "register cap at entry; give it known_block_size and "
             "nvvm.minctasm = 1 (or nvvm.maxnreg)",
             op, irLineOf);
  else if (increase ? count < tree.registersAtEntry
                    : count > tree.registersAtEntry)
    addCheck(tree, Severity::Error,
             llvm::formatv("setmaxnreg.{0} to {1} registers, but threads start "
                           "with {2}: an increase must go up and a decrease "
                           "down",
                           increase ? "inc" : "dec", count,
                           tree.registersAtEntry),
             op, irLineOf);
  if (role < 0) {
    addCheck(tree, Severity::Warning,
             "setmaxnreg outside every role gives all warpgroups the same "
             "budget; put it at the top of each role's branch",
             op, irLineOf);
    return;
  }
  Role &owner = tree.roles[role];
  if (op->getBlock() != roleBlocks[role] || owner.regs) {
    addCheck(tree, Severity::Warning,
             llvm::formatv("setmaxnreg of role '{0}' is not the first thing "
                           "its branch does (inside a loop, a one-thread "
                           "section, or a second one)",
                           owner.name),
             op, irLineOf);
    if (owner.regs)
      return;
  }
  owner.regs = count;
  owner.regsIncrease = increase;
}

/// The nvgpu group an mbarrier address comes from: through pointer casts,
/// offsets, selects and register arrays (all they hold must agree).
static Value barrierGroupOf(Value address, unsigned depth = 0) {
  if (!address || depth > 16)
    return {};
  if (auto get = address.getDefiningOp<nvgpu::MBarrierGetOp>())
    return get.getBarriers();
  Operation *def = address.getDefiningOp();
  if (!def)
    return {};
  auto common = [&](ValueRange candidates) -> Value {
    Value found;
    for (Value v : candidates) {
      Value group = barrierGroupOf(v, depth + 1);
      if (!group || (found && found != group))
        return {};
      found = group;
    }
    return found;
  };
  // mapa: the same barrier in another CTA of the cluster, which runs the
  // same code (an arrive there counts as the CTA's own arrivals do).
  if (isa<LLVM::IntToPtrOp, LLVM::PtrToIntOp, LLVM::AddrSpaceCastOp,
          arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
          arith::TruncIOp, NVVM::MapaOp>(def))
    return barrierGroupOf(def->getOperand(0), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp, arith::OrIOp>(def))
    for (Value side : def->getOperands())
      if (Value group = barrierGroupOf(side, depth + 1))
        return group;
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return common({select.getTrueValue(), select.getFalseValue()});
  if (auto load = dyn_cast<memref::LoadOp>(def)) {
    if (!load.getMemRef().getDefiningOp<memref::AllocaOp>())
      return {};
    SmallVector<Value> stored;
    for (Operation *user : load.getMemRef().getUsers())
      if (auto store = dyn_cast<memref::StoreOp>(user))
        stored.push_back(store.getValueToStore());
    return common(stored);
  }
  return {};
}

/// Whether an mbarrier address was mapped into the cluster (nvvm.mapa).
static bool reachesCluster(Value address, unsigned depth = 0) {
  Operation *def = address ? address.getDefiningOp() : nullptr;
  if (!def || depth > 16)
    return false;
  if (isa<NVVM::MapaOp>(def))
    return true;
  if (isa<LLVM::AddrSpaceCastOp, LLVM::IntToPtrOp, LLVM::PtrToIntOp>(def))
    return reachesCluster(def->getOperand(0), depth + 1);
  return false;
}

void BranchWalker::record(Operation *op, const llvm::BitVector &threads,
                          int role, const std::string &unknown) {
  if (auto setmax = dyn_cast<NVVM::SetMaxRegisterOp>(op)) {
    recordSetMaxRegister(setmax, threads, role);
  } else if (role >= 0 && !isMemoryEffectFree(op) && op->getNumRegions() == 0) {
    roleActive[role] |= threads;
  }
  if (isListedOp(op)) {
    RoleOpRef ref = makeOpRef(op, unsigned(threads.count()), irLineOf);
    (role >= 0 ? tree.roles[role].ops : tree.sharedOps).push_back(ref);
  }
  std::vector<BarrierUse> &uses =
      role >= 0 ? tree.roles[role].barriers : tree.sharedBarriers;
  auto useNamed = [&](std::string name, std::optional<int64_t> slot,
                      BarrierAction action, bool acrossCluster = false) {
    BarrierUse use = makeBarrierUse(op, std::move(name), action,
                                    unsigned(threads.count()), irLineOf, slot);
    use.threadsUnknown = unknown;
    use.threadSet = threads;
    use.acrossCluster = acrossCluster;
    uses.push_back(std::move(use));
  };
  auto use = [&](Value barriers, Value index, BarrierAction action) {
    useNamed(barrierName(barriers), getConstantIntValue(index), action);
  };
  // An nvvm op names its barrier by address: the group it was taken from.
  auto useAt = [&](Value address, BarrierAction action) {
    if (Value group = barrierGroupOf(address))
      useNamed(barrierName(group), std::nullopt, action,
               reachesCluster(address));
    else
      unreadableInits.insert(untracedBarrier);
  };
  auto expectInit = [&](const std::string &name, Value countValue) {
    // Every barrier of a group must expect the same count for the check.
    std::optional<int64_t> count = getConstantIntValue(countValue);
    auto [it, first] = tree.expectedArrivals.try_emplace(name, 0);
    if (!count || (!first && it->second != unsigned(*count)))
      unreadableInits.insert(name);
    else
      it->second = unsigned(*count);
  };
  if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op))
    expectInit(barrierName(init.getBarriers()), init.getCount());
  else if (auto init = dyn_cast<NVVM::MBarrierInitOp>(op))
    if (Value group = barrierGroupOf(init.getAddr()))
      expectInit(barrierName(group), init.getCount());
  if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op))
    use(wait.getBarriers(), wait.getMbarId(), BarrierAction::Wait);
  else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveOp>(op))
    use(arrive.getBarriers(), arrive.getMbarId(), BarrierAction::Arrive);
  else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveNoCompleteOp>(op))
    use(arrive.getBarriers(), arrive.getMbarId(), BarrierAction::Arrive);
  else if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op))
    use(expect.getBarriers(), expect.getMbarId(), BarrierAction::ExpectTx);
  else if (auto copy = dyn_cast<nvgpu::TmaAsyncLoadOp>(op))
    useNamed(barrierName(copy.getBarriers()),
             getConstantIntValue(copy.getMbarId()), BarrierAction::CompleteTx,
             bool(copy.getMulticastMask()));
  else if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op))
    useAt(wait.getAddr(), BarrierAction::Wait);
  else if (auto arrive = dyn_cast<NVVM::MBarrierArriveOp>(op))
    useAt(arrive.getAddr(), BarrierAction::Arrive);
  else if (auto arrive = dyn_cast<NVVM::MBarrierArriveNocompleteOp>(op))
    useAt(arrive.getAddr(), BarrierAction::Arrive);
  else if (auto expect = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op))
    useAt(expect.getAddr(), BarrierAction::ExpectTx);
}

std::string BranchWalker::differs(scf::IfOp branch) {
  const Reason *r = divergence.varies(branch.getCondition());
  if (!r)
    return "";
  std::string text = "the branch";
  if (unsigned line = irLine(branch, irLineOf))
    text += llvm::formatv(" at IR line {0}", line).str();
  text +=
      " decides per thread, and klx cannot evaluate its condition: " + r->why;
  if (unsigned line = r->at ? irLine(r->at, irLineOf) : 0)
    text += llvm::formatv(" (IR line {0})", line).str();
  return text;
}

/// Flattens `a and (b and c)` into the conjuncts klx evaluates per
/// thread and the rest.
void BranchWalker::conjuncts(
    Value condition, SmallVectorImpl<const ThreadValues::Lanes *> &known,
    SmallVectorImpl<Value> &rest) {
  if (const ThreadValues::Lanes *lanes = values.eval(condition)) {
    known.push_back(lanes);
    return;
  }
  if (auto both = condition.getDefiningOp<arith::AndIOp>()) {
    conjuncts(both.getLhs(), known, rest);
    conjuncts(both.getRhs(), known, rest);
    return;
  }
  rest.push_back(condition);
}

/// Why how many threads run a loop's body differs between them, or "".
static std::string loopDiffers(scf::ForOp loop, const Divergence &divergence,
                               IRLineFn irLineOf) {
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (const Reason *r = divergence.varies(bound)) {
      std::string text = "the loop";
      if (unsigned line = irLine(loop, irLineOf))
        text += llvm::formatv(" at IR line {0}", line).str();
      return text +
             " runs a number of times that differs between threads: " + r->why;
    }
  return "";
}

void BranchWalker::visitBlock(Block &block, const llvm::BitVector &threads,
                              int role, const std::string &unknown) {
  for (Operation &op : block) {
    auto branch = dyn_cast<scf::IfOp>(&op);
    const ThreadValues::Lanes *condition =
        branch && unknown.empty() ? values.eval(branch.getCondition())
                                  : nullptr;
    if (!condition) {
      // Part of the condition known: the then side runs on at most the
      // threads where that part holds (a leader that issues while k < K).
      // Not a split into roles, but ops there are counted for those
      // threads when the rest is the same in all of them.
      SmallVector<const ThreadValues::Lanes *> known;
      SmallVector<Value> rest;
      if (branch)
        conjuncts(branch.getCondition(), known, rest);
      std::string why = unknown;
      if (why.empty() && branch)
        for (Value part : rest)
          if (divergence.varies(part)) {
            why = differs(branch);
            break;
          }
      if (auto loop = dyn_cast<scf::ForOp>(&op); loop && why.empty())
        why = loopDiffers(loop, divergence, irLineOf);
      llvm::BitVector thenThreads(threads);
      for (const ThreadValues::Lanes *lanes : known)
        for (unsigned t = 0; t < values.threads(); ++t)
          if (!((*lanes)[t] & 1))
            thenThreads.reset(t);
      record(&op, threads, role, unknown);
      for (Region &region : op.getRegions()) {
        bool thenSide = branch && &region == &branch.getThenRegion();
        const llvm::BitVector &here = thenSide ? thenThreads : threads;
        if (here.none())
          continue;
        for (Block &nested : region)
          visitBlock(nested, here, role, why);
      }
      continue;
    }
    llvm::BitVector thenThreads(values.threads()), elseThreads(threads);
    for (unsigned t = 0; t < values.threads(); ++t)
      if (threads.test(t) && ((*condition)[t] & 1))
        thenThreads.set(t);
    elseThreads.reset(thenThreads);
    bool split = thenThreads.any() && elseThreads.any() &&
                 splitsWholeWarps(threads, *condition);
    auto names = branch->getAttrOfType<ArrayAttr>(kRoleNamesAttrName);
    auto nameOf = [&](unsigned side) -> std::string {
      if (!names || names.size() <= side)
        return "";
      auto s = dyn_cast<StringAttr>(names[side]);
      return s ? s.getValue().str() : "";
    };
    if (isListedOp(branch))
      (role >= 0 ? tree.roles[role].ops : tree.sharedOps)
          .push_back(makeOpRef(branch, unsigned(threads.count()), irLineOf));
    Region *sides[2] = {&branch.getThenRegion(), &branch.getElseRegion()};
    const llvm::BitVector *sideThreads[2] = {&thenThreads, &elseThreads};
    for (unsigned side = 0; side < 2; ++side) {
      Region &region = *sides[side];
      if (region.empty() || sideThreads[side]->none())
        continue;
      bool onlyYield = region.front().getOperations().size() == 1;
      if (onlyYield)
        continue;
      int inner = split ? newRole(*sideThreads[side], role, nameOf(side),
                                  region, branch)
                        : role;
      visitBlock(region.front(), *sideThreads[side], inner);
    }
  }
}

std::vector<std::vector<unsigned>> BranchWalker::activePerWarp() const {
  std::vector<std::vector<unsigned>> result;
  for (const llvm::BitVector &active : roleActive) {
    std::vector<unsigned> perWarp(warpCount, 0);
    for (int t : active.set_bits())
      ++perWarp[unsigned(t) / kThreadsPerWarp];
    result.push_back(std::move(perWarp));
  }
  return result;
}

} // namespace

// [SECTION] readThreadBranches ------------------------------------------------

std::optional<RoleTree> roletree::readThreadBranches(Operation *kernel,
                                                     IRLineFn irLineOf,
                                                     const SourceNames *names) {
  std::string whyNot;
  std::optional<KernelShape> shape = readKernelShape(kernel, whyNot);
  // Once scf is lowered to cf there are blocks, not branches, to read.
  if (!shape || !shape->body->hasOneBlock())
    return std::nullopt;
  RoleTree tree;
  tree.source = toSourceLoc(kernel->getLoc());
  tree.kernel = shape->name;
  unsigned threads = shape->threads();
  tree.threads = threads;
  if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel)) {
    if (auto maxnreg = func->getAttrOfType<IntegerAttr>(
            NVVM::NVVMDialect::getMaxnregAttrName()))
      tree.registersAtEntry = unsigned(maxnreg.getInt());
    else if (auto minctasm = func->getAttrOfType<IntegerAttr>(
                 NVVM::NVVMDialect::getMinctasmAttrName()))
      tree.registersAtEntry =
          registerCapAtEntry(threads, unsigned(minctasm.getInt()));
    if (auto cluster = func->getAttrOfType<DenseI32ArrayAttr>(
            NVVM::NVVMDialect::getClusterDimAttrName()))
      for (int32_t extent : cluster.asArrayRef())
        tree.clusterCtas *= unsigned(std::max(extent, 1));
  }

  Divergence divergence(*shape);
  ThreadValues values(*shape, divergence);
  BranchWalker walker(tree, values, divergence, irLineOf, names);
  llvm::BitVector all(threads, true);
  walker.visitBlock(shape->body->front(), all, -1);
  std::vector<std::vector<unsigned>> active = walker.activePerWarp();
  for (const std::string &name : walker.unreadableInits)
    tree.expectedArrivals.erase(name);
  tree.form = "thread-index branches";
  if (tree.roles.empty()) {
    // No split: the whole block is one role.
    Role role;
    role.name = "all threads";
    role.source = tree.source;
    for (unsigned w = 0; w < (threads + kThreadsPerWarp - 1) / kThreadsPerWarp;
         ++w)
      role.warps.push_back(w);
    role.threads = threads;
    role.ops = std::move(tree.sharedOps);
    role.barriers = std::move(tree.sharedBarriers);
    tree.sharedOps.clear();
    tree.sharedBarriers.clear();
    std::vector<unsigned> perWarp(role.warps.size(), 0);
    // Without a split, every warp is active (ops narrowed to one thread
    // still leave the rest of the block working).
    for (unsigned w = 0; w < perWarp.size(); ++w)
      perWarp[w] = std::min(kThreadsPerWarp, threads - w * kThreadsPerWarp);
    role.activeThreads = threads;
    tree.form = "single role";
    tree.roles.push_back(std::move(role));
    active = {perWarp};
  } else {
    for (size_t r = 0; r < tree.roles.size(); ++r)
      for (unsigned n : active[r])
        tree.roles[r].activeThreads += n;
  }
  finishRoleTree(tree, active);
  return tree;
}
