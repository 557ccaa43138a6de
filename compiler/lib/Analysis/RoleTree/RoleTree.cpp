//===- RoleTree.cpp - Warp roles from klx.role, and the shared checks -----===//
//
// Index:
//   [SECTION] Small pieces
//   [SECTION] Warps, warpgroups and checks (every form)
//   [SECTION] The klx.role form
//   [SECTION] analyzeRoles
//
//===----------------------------------------------------------------------===//

#include "Analysis/RoleTree/RoleTreeBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

using namespace mlir;
using namespace klx;
using namespace klx::roletree;

// [SECTION] Small pieces -----------------------------------------------------

unsigned klx::registerCapAtEntry(unsigned threadsPerBlock,
                                 unsigned minBlocksPerSM) {
  if (threadsPerBlock == 0 || minBlocksPerSM == 0)
    return 0;
  uint64_t perThread =
      uint64_t(kRegistersPerSM) / (uint64_t(threadsPerBlock) * minBlocksPerSM);
  return unsigned(std::min<uint64_t>(255, perThread) / 8 * 8);
}

llvm::StringRef klx::barrierActionName(BarrierAction action) {
  switch (action) {
  case BarrierAction::Wait:
    return "wait";
  case BarrierAction::Arrive:
    return "arrive";
  case BarrierAction::ExpectTx:
    return "arrive.expect_tx";
  case BarrierAction::CompleteTx:
    return "complete_tx";
  }
  return "?";
}

bool RoleTree::hasErrors() const {
  return llvm::any_of(
      checks, [](const RoleCheck &c) { return c.severity == Severity::Error; });
}

unsigned roletree::irLine(Operation *op, IRLineFn irLineOf) {
  return irLineOf ? irLineOf(op) : 0;
}

RoleOpRef roletree::makeOpRef(Operation *op, unsigned threads,
                              IRLineFn irLineOf) {
  return RoleOpRef{op->getName().getStringRef().str(),
                   toSourceLoc(op->getLoc()), irLine(op, irLineOf), threads};
}

BarrierUse roletree::makeBarrierUse(Operation *op, std::string barrier,
                                    BarrierAction action, unsigned threads,
                                    IRLineFn irLineOf,
                                    std::optional<int64_t> slot) {
  BarrierUse use;
  use.barrier = std::move(barrier);
  use.slot = slot;
  use.action = action;
  use.threads = threads;
  use.source = toSourceLoc(op->getLoc());
  use.irLine = irLine(op, irLineOf);
  return use;
}

std::string BarrierUse::displayName() const {
  if (!slot)
    return barrier;
  return llvm::formatv("{0}[{1}]", barrier, *slot).str();
}

void roletree::addCheck(RoleTree &tree, Severity severity, std::string message,
                        Operation *at, IRLineFn irLineOf) {
  RoleCheck check;
  check.severity = severity;
  check.message = std::move(message);
  if (at) {
    check.source = toSourceLoc(at->getLoc());
    check.irLine = irLine(at, irLineOf);
  }
  tree.checks.push_back(std::move(check));
}

bool roletree::isListedOp(Operation *op) {
  return !op->hasTrait<OpTrait::IsTerminator>() &&
         !op->hasTrait<OpTrait::ConstantLike>();
}

// [SECTION] Warps, warpgroups and checks (every form) -------------------------

/// The register budget a role runs with: its own setmaxnreg, else the
/// nearest enclosing role's.
static std::optional<unsigned> budgetOf(const RoleTree &tree, int role) {
  for (; role >= 0; role = tree.roles[role].parent)
    if (tree.roles[role].regs)
      return tree.roles[role].regs;
  return std::nullopt;
}

static void checkRegisterFile(RoleTree &tree) {
  std::string terms;
  unsigned total = 0;
  for (WarpgroupNode &group : tree.warpgroups) {
    // Every warp of a warpgroup runs one setmaxnreg together, so its roles
    // must agree on the budget.
    std::map<unsigned, std::string> budgets; // regs -> a role that sets them
    for (const WarpNode &warp : group.warps)
      for (int role : warp.roles)
        if (std::optional<unsigned> regs = budgetOf(tree, role))
          budgets.emplace(*regs, tree.roles[role].name);
    if (budgets.size() > 1) {
      std::string list;
      for (auto &[regs, name] : budgets)
        list += (list.empty() ? "" : ", ") + name + " " + std::to_string(regs);
      tree.checks.push_back(
          {Severity::Error,
           llvm::formatv("warpgroup {0} runs roles with different register "
                         "budgets ({1}); setmaxnreg applies to all four warps "
                         "of a warpgroup at once",
                         group.index, list),
           tree.source, 0});
    }
    group.regs =
        budgets.empty() ? tree.registersAtEntry : budgets.rbegin()->first;
    total += group.threads * group.regs;
    terms += llvm::formatv("{0}{1} x {2}", terms.empty() ? "" : " + ",
                           group.threads, group.regs);
  }
  tree.registerTotal = total;
  bool unknown = llvm::any_of(
      tree.warpgroups, [](const WarpgroupNode &g) { return g.regs == 0; });
  if (!unknown && total > kRegistersPerSM)
    tree.checks.push_back(
        {Severity::Error,
         llvm::formatv("the roles need {0} = {1} registers, more than the "
                       "{2} of an SM: setmaxnreg.inc would wait forever",
                       terms, total, kRegistersPerSM),
         tree.source, 0});
}

/// Whether an arrival on `arrive` may complete a wait on `wait`: the same
/// group, and the same slot unless either picks it at run time.
static bool mayComplete(const BarrierUse &arrive, const BarrierUse &wait) {
  if (arrive.barrier != wait.barrier)
    return false;
  return !arrive.slot || !wait.slot || *arrive.slot == *wait.slot;
}

/// Whether a role takes turns with others (waits on the ping-pong turns):
/// such roles arrive on shared barriers in different phases.
static bool takesTurns(const Role &role) {
  return llvm::any_of(role.barriers, [](const BarrierUse &use) {
    return use.action == BarrierAction::Wait && use.barrier == "turn";
  });
}

/// Each role that arrives on a barrier does so once per phase per thread
/// that runs its arrive; the sum must be what the barrier was initialised
/// to expect, or phases complete early (and parity waits slip) or never.
/// Barriers picked by constant slots are counted per slot; roles that take
/// turns arrive in turn, so they count as one. An arrive on another CTA's
/// barrier of the cluster counts as the CTA's own: every CTA runs the
/// same code, so each receives as many as it sends.
static void checkArrivalCounts(RoleTree &tree) {
  auto isArrival = [](const BarrierUse &use) {
    return use.action == BarrierAction::Arrive ||
           use.action == BarrierAction::ExpectTx;
  };
  for (const auto &entry : tree.expectedArrivals) {
    const std::string &barrier = entry.first;
    unsigned expected = entry.second;
    // The slots arrived on, when every arrival names its slot.
    std::set<std::optional<int64_t>> slots;
    auto noteSlots = [&](const std::vector<BarrierUse> &uses) {
      for (const BarrierUse &use : uses)
        if (use.barrier == barrier && isArrival(use))
          slots.insert(use.slot);
    };
    noteSlots(tree.sharedBarriers);
    for (const Role &role : tree.roles)
      noteSlots(role.barriers);
    // An arrival whose thread count is unknown makes the count unknown:
    // say so rather than compare a guess.
    const BarrierUse *unknown = nullptr;
    auto findUnknown = [&](const std::vector<BarrierUse> &uses) {
      for (const BarrierUse &use : uses)
        if (!unknown && use.barrier == barrier && isArrival(use) &&
            !use.threadsUnknown.empty())
          unknown = &use;
    };
    findUnknown(tree.sharedBarriers);
    for (const Role &role : tree.roles)
      findUnknown(role.barriers);
    if (unknown) {
      tree.checks.push_back(
          {Severity::Note,
           llvm::formatv("arrivals per phase on barrier '{0}' are unknown: "
                         "{1}",
                         barrier, unknown->threadsUnknown),
           unknown->source, unknown->irLine});
      continue;
    }
    if (slots.count(std::nullopt))
      slots = {std::nullopt};
    for (const std::optional<int64_t> &slot : slots) {
      unsigned total = 0, turnTakers = 0;
      std::vector<std::string> who;
      const BarrierUse *at = nullptr;
      auto count = [&](const std::vector<BarrierUse> &uses,
                       const std::string &name, bool inTurn) {
        // Threads arrive once per phase wherever they do it: the role
        // brings the threads its arrivals cover together (the two arms
        // of an `if (tid == 0)` add up), or its largest arrival when only
        // counts are known.
        unsigned most = 0;
        llvm::BitVector covered;
        for (const BarrierUse &use : uses)
          if (use.barrier == barrier && isArrival(use) &&
              (!slot || use.slot == slot)) {
            most = std::max(most, use.threads);
            covered |= use.threadSet;
            at = at ? at : &use;
          }
        most = std::max(most, unsigned(covered.count()));
        if (!most)
          return;
        who.push_back(name);
        if (inTurn)
          turnTakers = std::max(turnTakers, most);
        else
          total += most;
      };
      count(tree.sharedBarriers, "the code outside the roles", false);
      for (const Role &role : tree.roles)
        count(role.barriers, role.name, takesTurns(role));
      total += turnTakers;
      if (total == 0 || total == expected)
        continue;
      std::string name =
          slot ? llvm::formatv("{0}[{1}]", barrier, *slot).str() : barrier;
      std::string names = llvm::join(who, " and ");
      std::string message =
          total > expected
              ? llvm::formatv(
                    "barrier '{0}' is initialised for {1} arrival{2} per "
                    "phase, but {3} arrive on it: {4} per phase, so each "
                    "phase completes early and the parity waits on it slip "
                    "(the shared-barrier deadlock)",
                    name, expected, expected == 1 ? "" : "s", names, total)
                    .str()
              : llvm::formatv("barrier '{0}' is initialised for {1} arrivals "
                              "per phase, but {2} bring{3} only {4}: its "
                              "phases never complete",
                              name, expected, names, who.size() == 1 ? "s" : "",
                              total)
                    .str();
      tree.checks.push_back({Severity::Error, message, at->source, at->irLine});
    }
  }
}

static void checkBarriers(RoleTree &tree) {
  std::vector<const BarrierUse *> arrivals;
  auto noteArrivals = [&](const std::vector<BarrierUse> &uses) {
    for (const BarrierUse &use : uses)
      if (use.action == BarrierAction::Arrive ||
          use.action == BarrierAction::ExpectTx)
        arrivals.push_back(&use);
  };
  noteArrivals(tree.sharedBarriers);
  for (const Role &role : tree.roles)
    noteArrivals(role.barriers);
  for (const Role &role : tree.roles) {
    llvm::StringSet<> reported;
    for (const BarrierUse &use : role.barriers) {
      if (use.action != BarrierAction::Wait)
        continue;
      bool completed = llvm::any_of(arrivals, [&](const BarrierUse *arrive) {
        return mayComplete(*arrive, use);
      });
      if (completed || !reported.insert(use.displayName()).second)
        continue;
      tree.checks.push_back(
          {Severity::Error,
           llvm::formatv("role '{0}' waits on barrier '{1}', which no role "
                         "arrives on: the wait never completes",
                         role.name, use.displayName()),
           use.source, use.irLine});
    }
  }
  checkArrivalCounts(tree);
}

void roletree::finishRoleTree(
    RoleTree &tree, const std::vector<std::vector<unsigned>> &activePerWarp) {
  unsigned warps = (tree.threads + kThreadsPerWarp - 1) / kThreadsPerWarp;
  unsigned groups = (warps + kWarpsPerWarpgroup - 1) / kWarpsPerWarpgroup;
  tree.warpgroups.assign(groups, WarpgroupNode{});
  for (unsigned g = 0; g < groups; ++g) {
    tree.warpgroups[g].index = g;
    tree.warpgroups[g].threads =
        std::min(kThreadsPerWarpgroup, tree.threads - g * kThreadsPerWarpgroup);
    for (unsigned w = g * kWarpsPerWarpgroup;
         w < std::min(warps, (g + 1) * kWarpsPerWarpgroup); ++w) {
      WarpNode node;
      node.index = w;
      for (size_t r = 0; r < tree.roles.size(); ++r) {
        const Role &role = tree.roles[r];
        if (!llvm::is_contained(role.warps, w))
          continue;
        node.activeThreads = std::max(node.activeThreads, activePerWarp[r][w]);
        // Innermost roles only: a role whose sub-role also covers w is
        // reached through the sub-role's parent link.
        bool hasChildHere = llvm::any_of(tree.roles, [&](const Role &other) {
          return other.parent == int(r) && llvm::is_contained(other.warps, w);
        });
        if (!hasChildHere)
          node.roles.push_back(int(r));
      }
      tree.warpgroups[g].warps.push_back(std::move(node));
    }
  }
  checkRegisterFile(tree);
  checkBarriers(tree);
}

// [SECTION] The klx.role form
// --------------------------------------------------

namespace {

/// Names the barriers of pipelines ("full", "empty") and channels
/// ("channel"): with several, by the operand each carries ("full_a"); a
/// full barrier shared through full_of is plain "full".
class KlxBarrierNames {
public:
  explicit KlxBarrierNames(KernelOp kernel) {
    SmallVector<Value> queues;
    kernel.walk([&](Operation *op) {
      if (isa<PipelineOp, ChannelOp>(op))
        queues.push_back(op->getResult(0));
    });
    for (auto [i, queue] : llvm::enumerate(queues)) {
      std::string suffix;
      if (queues.size() > 1) {
        suffix = operandSuffix(queue);
        if (suffix.empty())
          suffix = std::to_string(i);
      }
      suffixes[queue] = suffix;
    }
    kernel.walk([&](PipelineOp pipeline) {
      if (Value owner = pipeline.getFullOf()) {
        sharedFull[pipeline.getPipeline()] = owner;
        sharedFull[owner] = owner;
      }
    });
  }
  std::string name(Value queue, llvm::StringRef which) const {
    if (which == "full") {
      auto shared = sharedFull.find(queue);
      if (shared != sharedFull.end())
        return "full";
    }
    auto it = suffixes.find(queue);
    return which.str() + (it == suffixes.end() ? "" : it->second);
  }

private:
  llvm::DenseMap<Value, std::string> suffixes;
  llvm::DenseMap<Value, Value> sharedFull;
};

void collectKlxBarrierUses(Operation *op, const KlxBarrierNames &names,
                           unsigned threads, std::vector<BarrierUse> &uses,
                           IRLineFn irLineOf) {
  auto use = [&](Value queue, llvm::StringRef which, BarrierAction action,
                 bool acrossCluster = false) {
    uses.push_back(makeBarrierUse(op, names.name(queue, which), action, threads,
                                  irLineOf));
    uses.back().acrossCluster = acrossCluster;
  };
  // In a cluster the consumers release every CTA's stage, and the copies
  // of the operand the CTAs share are multicast (klx-to-nvgpu).
  ScheduleAttr schedule;
  if (auto kernel = op->getParentOfType<KernelOp>())
    schedule = kernel.getScheduleAttr();
  bool clustered = schedule && schedule.clusterSize() > 1;
  if (auto acquire = dyn_cast<ProducerAcquireOp>(op)) {
    use(acquire.getPipeline(), "empty", BarrierAction::Wait);
    use(acquire.getPipeline(), "full", BarrierAction::ExpectTx);
  } else if (auto copy = dyn_cast<CopyOp>(op)) {
    bool shared = clustered && (copy.getOperand() == Operand::A
                                    ? schedule.getClusterN() > 1
                                    : schedule.getClusterM() > 1);
    use(copy.getPipeline(), "full", BarrierAction::CompleteTx, shared);
  } else if (auto wait = dyn_cast<ConsumerWaitOp>(op)) {
    use(wait.getPipeline(), "full", BarrierAction::Wait);
  } else if (auto release = dyn_cast<ConsumerReleaseOp>(op)) {
    use(release.getPipeline(), "empty", BarrierAction::Arrive, clustered);
  } else if (auto push = dyn_cast<PushOp>(op)) {
    use(push.getChannel(), "channel", BarrierAction::Arrive);
  } else if (auto pop = dyn_cast<PopOp>(op)) {
    use(pop.getChannel(), "channel", BarrierAction::Wait);
  } else if (auto take = dyn_cast<TakeTurnOp>(op)) {
    uses.push_back(makeBarrierUse(op, "turn", BarrierAction::Wait, threads,
                                  irLineOf, take.getConsumer()));
  } else if (auto pass = dyn_cast<PassTurnOp>(op)) {
    uses.push_back(makeBarrierUse(op, "turn", BarrierAction::Arrive, threads,
                                  irLineOf, pass.getConsumer()));
  }
}

} // namespace

RoleTree roletree::readKlxRoles(KernelOp kernel, WarpSpecializeOp roles,
                                IRLineFn irLineOf) {
  RoleTree tree;
  tree.kernel = kernel.getSymName().str();
  tree.form = "klx.role";
  tree.source = toSourceLoc(kernel.getLoc());
  ScheduleAttr schedule = kernel.getScheduleAttr();
  unsigned consumers = 0;
  for (RoleOp role : roles.getBody().front().getOps<RoleOp>())
    for (int64_t g : role.getWarpgroups())
      consumers = std::max<unsigned>(consumers, unsigned(g) + 1);
  tree.threads = schedule ? unsigned(schedule.threads())
                          : consumers * kThreadsPerWarp * kWarpsPerWarpgroup;
  // A CTA has at most 1024 threads; anything else is not a kernel to draw.
  tree.threads = std::min(tree.threads, 1024u);
  // klx-to-nvgpu gives every kernel `.maxntid` and `.minnctapersm 1`.
  tree.registersAtEntry = registerCapAtEntry(tree.threads, 1);
  if (schedule)
    tree.clusterCtas = unsigned(schedule.clusterSize());
  unsigned warpCount = tree.threads / kThreadsPerWarp;
  KlxBarrierNames names(kernel);

  // A warpgroup's idle warps belong to its role when it has just one (they
  // run the role's setmaxnreg); with several, to none of them.
  llvm::SmallDenseMap<int64_t, unsigned> rolesOnGroup;
  for (RoleOp roleOp : roles.getBody().front().getOps<RoleOp>())
    for (int64_t g : roleOp.getWarpgroups())
      ++rolesOnGroup[g];
  kernel.walk([&](PipelineOp pipeline) {
    if (!pipeline.getFullOf())
      tree.expectedArrivals[names.name(pipeline.getPipeline(), "full")] = 1;
    tree.expectedArrivals[names.name(pipeline.getPipeline(), "empty")] =
        unsigned(pipeline.getArrivals());
  });
  // klx-to-nvgpu initialises each turn for the warpgroup that passes it.
  kernel.walk([&](TurnsOp) { tree.expectedArrivals["turn"] = 128; });

  std::vector<std::vector<unsigned>> active;
  for (RoleOp roleOp : roles.getBody().front().getOps<RoleOp>()) {
    Role role;
    role.name = roleOp.getName().str();
    role.kind = stringifyRoleKind(roleOp.getKind()).str();
    role.source = toSourceLoc(roleOp.getLoc());
    role.irLine = irLine(roleOp, irLineOf);
    role.regs = unsigned(roleOp.getRegs());
    role.regsIncrease = *role.regs >= tree.registersAtEntry;
    // The whole warpgroup belongs to the role (setmaxnreg is per
    // warpgroup); the listed warps do its work, one elected thread each
    // for a producer.
    std::vector<unsigned> perWarp(warpCount, 0);
    unsigned perWorkingWarp =
        roleOp.getKind() == RoleKind::Producer ? 1 : kThreadsPerWarp;
    for (int64_t g : roleOp.getWarpgroups())
      for (unsigned w = 0; w < kWarpsPerWarpgroup; ++w) {
        unsigned warp = unsigned(g) * kWarpsPerWarpgroup + w;
        if (warp >= warpCount)
          continue;
        bool works = llvm::is_contained(roleOp.getWarps(), int64_t(w));
        if (works || rolesOnGroup[g] == 1)
          role.warps.push_back(warp);
        if (works) {
          perWarp[warp] = perWorkingWarp;
          role.activeThreads += perWorkingWarp;
        }
      }
    role.threads = unsigned(role.warps.size()) * kThreadsPerWarp;
    roleOp.getBody().walk([&](Operation *op) {
      if (isListedOp(op))
        role.ops.push_back(makeOpRef(op, role.activeThreads, irLineOf));
      collectKlxBarrierUses(op, names, role.activeThreads, role.barriers,
                            irLineOf);
    });
    tree.roles.push_back(std::move(role));
    active.push_back(std::move(perWarp));
  }
  for (Operation &op : kernel.getBodyBlock()) {
    if (&op == roles.getOperation())
      continue;
    op.walk([&](Operation *nested) {
      if (isListedOp(nested))
        tree.sharedOps.push_back(makeOpRef(nested, tree.threads, irLineOf));
      collectKlxBarrierUses(nested, names, tree.threads, tree.sharedBarriers,
                            irLineOf);
    });
  }
  finishRoleTree(tree, active);
  return tree;
}

// [SECTION] analyzeRoles
// -------------------------------------------------------

/// Warps, warpgroups and setmaxnreg are NVIDIA's; an AMD kernel runs in
/// 64-wide wavefronts and has no roles to read.
static bool targetsAMD(Operation *op) {
  for (; op; op = op->getParentOp()) {
    if (auto target = op->getAttrOfType<StringAttr>(kTargetAttrName))
      if (target.getValue().starts_with("gfx"))
        return true;
    if (auto module = dyn_cast<gpu::GPUModuleOp>(op))
      if (ArrayAttr targets = module.getTargetsAttr())
        for (Attribute target : targets)
          if (target.getDialect().getNamespace() == "rocdl")
            return true;
  }
  return false;
}

std::vector<RoleTree> klx::analyzeRoles(Operation *root, IRLineFn irLineOf,
                                        const SourceNames *names) {
  std::vector<RoleTree> trees;
  if (targetsAMD(root))
    return trees;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      auto specialized = kernel.getBodyBlock().getOps<WarpSpecializeOp>();
      if (specialized.begin() != specialized.end())
        trees.push_back(readKlxRoles(kernel, *specialized.begin(), irLineOf));
      return WalkResult::skip();
    }
    if (auto module = dyn_cast<gpu::GPUModuleOp>(op); module && targetsAMD(op))
      return WalkResult::skip();
    auto func = dyn_cast<gpu::GPUFuncOp>(op);
    if ((func && func.isKernel()) || isa<gpu::LaunchOp>(op)) {
      if (std::optional<RoleTree> tree =
              readThreadBranches(op, irLineOf, names))
        trees.push_back(std::move(*tree));
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return trees;
}
