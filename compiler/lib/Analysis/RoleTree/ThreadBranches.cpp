//===- ThreadBranches.cpp - Warp roles from scf.if on the thread index ----===//
//
// A branch condition that depends only on the thread index is evaluated
// for every thread of the block. When the two sides of an scf.if split
// whole warps, each side is a role (nested splits make sub-roles); when
// they do not (`tid == 0`), the branch only narrows who runs the ops
// inside, which is how a role elects one thread to issue copies.
//
// Index:
//   [SECTION] The walk
//   [SECTION] readThreadBranches
//
//===----------------------------------------------------------------------===//

#include "Analysis/RoleTree/RoleTreeBuilder.h"
#include "Analysis/Threads/ThreadValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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
  BranchWalker(RoleTree &tree, ThreadValues &values, IRLineFn irLineOf)
      : tree(tree), values(values), irLineOf(irLineOf),
        warpCount((values.threads() + kThreadsPerWarp - 1) / kThreadsPerWarp) {}

  void visitBlock(Block &block, const llvm::BitVector &threads, int role);
  std::vector<std::vector<unsigned>> activePerWarp() const;

private:
  /// True when every warp with a thread in `threads` is wholly on one side.
  bool splitsWholeWarps(const llvm::BitVector &threads,
                        const ThreadValues::Lanes &condition) const;
  int newRole(const llvm::BitVector &threads, int parent, std::string name,
              Region &body, scf::IfOp branch);
  void record(Operation *op, const llvm::BitVector &threads, int role);
  void recordSetMaxRegister(NVVM::SetMaxRegisterOp op,
                            const llvm::BitVector &threads, int role);
  std::string barrierName(Value barriers);
  /// For `a and b` where only `a` is known per thread (the leader, and a
  /// loop-dependent condition): `a`, the threads that may run the branch.
  const ThreadValues::Lanes *knownConjunct(Value condition);

  RoleTree &tree;
  ThreadValues &values;
  IRLineFn irLineOf;
  unsigned warpCount;
  std::vector<llvm::BitVector> roleActive; // threads doing each role's work
  std::vector<Block *> roleBlocks;         // the branch that opens a role
  llvm::DenseMap<Value, std::string> barrierNames;
  llvm::StringMap<unsigned> namesGiven;      // role base name -> how many
  llvm::StringMap<unsigned> barrierNameUses; // barrier name -> groups

public:
  /// Barrier groups whose init counts are not one constant.
  std::set<std::string> unreadableInits;
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

/// A role is named by klx-to-nvgpu's attribute, else by what it does.
static std::string roleNameFromOps(Region &body) {
  bool mma = false, copies = false;
  body.walk([&](Operation *op) {
    mma |= isa<nvgpu::WarpgroupMmaOp, NVVM::WgmmaMmaAsyncOp>(op);
    copies |= isa<nvgpu::TmaAsyncLoadOp>(op);
  });
  if (mma)
    return "consumer";
  if (copies)
    return "producer";
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
  if (name.empty())
    name = !role.kind.empty() ? role.kind
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
    if (auto attr = create->getAttrOfType<StringAttr>(kBarrierNameAttrName))
      name = attr.getValue().str();
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

void BranchWalker::record(Operation *op, const llvm::BitVector &threads,
                          int role) {
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
  auto use = [&](Value barriers, Value index, BarrierAction action) {
    uses.push_back(makeBarrierUse(op, barrierName(barriers), action,
                                  unsigned(threads.count()), irLineOf,
                                  getConstantIntValue(index)));
  };
  if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op)) {
    // Every barrier of a group must expect the same count for the check.
    std::string name = barrierName(init.getBarriers());
    std::optional<int64_t> count = getConstantIntValue(init.getCount());
    auto [it, first] = tree.expectedArrivals.try_emplace(name, 0);
    if (!count || (!first && it->second != unsigned(*count)))
      unreadableInits.insert(name);
    else
      it->second = unsigned(*count);
  }
  if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op))
    use(wait.getBarriers(), wait.getMbarId(), BarrierAction::Wait);
  else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveOp>(op))
    use(arrive.getBarriers(), arrive.getMbarId(), BarrierAction::Arrive);
  else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveNoCompleteOp>(op))
    use(arrive.getBarriers(), arrive.getMbarId(), BarrierAction::Arrive);
  else if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op))
    use(expect.getBarriers(), expect.getMbarId(), BarrierAction::ExpectTx);
  else if (auto copy = dyn_cast<nvgpu::TmaAsyncLoadOp>(op))
    use(copy.getBarriers(), copy.getMbarId(), BarrierAction::CompleteTx);
}

const ThreadValues::Lanes *BranchWalker::knownConjunct(Value condition) {
  auto both = condition.getDefiningOp<arith::AndIOp>();
  if (!both)
    return nullptr;
  for (Value side : {both.getLhs(), both.getRhs()})
    if (const ThreadValues::Lanes *known = values.eval(side))
      return known;
  for (Value side : {both.getLhs(), both.getRhs()})
    if (const ThreadValues::Lanes *known = knownConjunct(side))
      return known;
  return nullptr;
}

void BranchWalker::visitBlock(Block &block, const llvm::BitVector &threads,
                              int role) {
  for (Operation &op : block) {
    auto branch = dyn_cast<scf::IfOp>(&op);
    const ThreadValues::Lanes *condition =
        branch ? values.eval(branch.getCondition()) : nullptr;
    // Part of the condition known: the then side runs on at most the
    // threads where that part holds (a leader that issues while k < K).
    // Not a split into roles, but ops there are counted for those threads.
    const ThreadValues::Lanes *bound =
        branch && !condition ? knownConjunct(branch.getCondition()) : nullptr;
    if (bound) {
      llvm::BitVector thenThreads(values.threads());
      for (unsigned t = 0; t < values.threads(); ++t)
        if (threads.test(t) && ((*bound)[t] & 1))
          thenThreads.set(t);
      record(&op, threads, role);
      if (!branch.getThenRegion().empty() && thenThreads.any())
        visitBlock(branch.getThenRegion().front(), thenThreads, role);
      if (!branch.getElseRegion().empty())
        visitBlock(branch.getElseRegion().front(), threads, role);
      continue;
    }
    if (!condition) {
      record(&op, threads, role);
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          visitBlock(nested, threads, role);
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
                                                     IRLineFn irLineOf) {
  std::array<unsigned, 3> block = {0, 0, 0};
  Value tids[3] = {};
  Region *body = nullptr;
  RoleTree tree;
  tree.source = toSourceLoc(kernel->getLoc());
  if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel)) {
    std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
    if (!known || known->size() != 3)
      return std::nullopt;
    for (unsigned i = 0; i < 3; ++i) {
      if ((*known)[i] < 1 || (*known)[i] > 1024)
        return std::nullopt;
      block[i] = unsigned((*known)[i]);
    }
    body = &func.getBody();
    tree.kernel = func.getName().str();
    unsigned threads = block[0] * block[1] * block[2];
    if (threads > 1024)
      return std::nullopt;
    if (auto maxnreg = func->getAttrOfType<IntegerAttr>(
            NVVM::NVVMDialect::getMaxnregAttrName()))
      tree.registersAtEntry = unsigned(maxnreg.getInt());
    else if (auto minctasm = func->getAttrOfType<IntegerAttr>(
                 NVVM::NVVMDialect::getMinctasmAttrName()))
      tree.registersAtEntry =
          registerCapAtEntry(threads, unsigned(minctasm.getInt()));
  } else if (auto launch = dyn_cast<gpu::LaunchOp>(kernel)) {
    Value sizes[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                      launch.getBlockSizeZ()};
    for (unsigned i = 0; i < 3; ++i) {
      std::optional<int64_t> size = getConstantIntValue(sizes[i]);
      if (!size || *size <= 0 || *size > 1024)
        return std::nullopt;
      block[i] = unsigned(*size);
    }
    gpu::KernelDim3 ids = launch.getThreadIds();
    tids[0] = ids.x;
    tids[1] = ids.y;
    tids[2] = ids.z;
    body = &launch.getBody();
    tree.kernel = "gpu.launch";
    if (auto func = launch->getParentOfType<FunctionOpInterface>())
      tree.kernel += " in @" + func.getName().str();
  } else {
    return std::nullopt;
  }
  unsigned threads = block[0] * block[1] * block[2];
  // Once scf is lowered to cf there are blocks, not branches, to read.
  if (threads == 0 || threads > 1024 || !body->hasOneBlock())
    return std::nullopt;
  tree.threads = threads;

  ThreadValues values(block, tids[0], tids[1], tids[2]);
  BranchWalker walker(tree, values, irLineOf);
  llvm::BitVector all(threads, true);
  walker.visitBlock(body->front(), all, -1);
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
