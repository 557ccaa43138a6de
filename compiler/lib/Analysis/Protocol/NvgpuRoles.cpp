//===- NvgpuRoles.cpp - Thread classes' traces as simulator roles ---------===//

#include "Analysis/Protocol/NvgpuRoles.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>
#include <tuple>

using namespace klx;
using namespace klx::protocol;
using klx::sim::OpKind;
using klx::threads::TraceEntry;
using Kind = TraceEntry::Kind;

std::string protocol::describeThreads(const std::vector<unsigned> &threads) {
  llvm::SmallVector<std::pair<unsigned, unsigned>> ranges;
  for (unsigned t : threads) {
    if (!ranges.empty() && ranges.back().second + 1 == t)
      ranges.back().second = t;
    else
      ranges.push_back({t, t});
  }
  auto range = [](std::pair<unsigned, unsigned> r) {
    return r.first == r.second
               ? std::to_string(r.first)
               : llvm::formatv("{0}-{1}", r.first, r.second).str();
  };
  std::string text = threads.size() == 1 ? "thread " : "threads ";
  for (size_t i = 0; i < ranges.size() && i < 3; ++i)
    text += (i ? ", " : "") + range(ranges[i]);
  if (ranges.size() > 3)
    text += llvm::formatv(" and {0} more ranges", ranges.size() - 3).str();
  return text;
}

namespace {
/// How the threads of a class stand to a role of the tree.
enum class Fit { None, Part, Whole };

Fit fitOf(const std::vector<unsigned> &threads, const Role &role) {
  std::set<unsigned> warps;
  for (unsigned t : threads)
    warps.insert(t / kThreadsPerWarp);
  std::set<unsigned> roleWarps(role.warps.begin(), role.warps.end());
  if (!std::includes(roleWarps.begin(), roleWarps.end(), warps.begin(),
                     warps.end()))
    return Fit::None;
  // Its warps' threads, or the ones elected to do its work.
  bool whole = roleWarps == warps && (threads.size() == role.threads ||
                                      threads.size() == role.activeThreads);
  return whole ? Fit::Whole : Fit::Part;
}
} // namespace

std::vector<std::string>
klx::protocol::roleNames(const std::vector<ThreadClass> &classes,
                         const RoleTree *tree) {
  std::vector<std::string> names;
  for (const ThreadClass &c : classes) {
    std::string name;
    Fit fit = Fit::None;
    // The innermost role that holds the class: roles follow their parent.
    for (const Role &role : tree ? tree->roles : std::vector<Role>())
      if (Fit f = fitOf(c.threads, role); f != Fit::None && !role.name.empty())
        std::tie(name, fit) = std::make_pair(role.name, f);
    // Part of the one role of a kernel that does not split its threads
    // ("all threads") says no more than the threads do.
    bool split = tree && tree->roles.size() > 1;
    if (fit == Fit::Part && split)
      name += " (" + describeThreads(c.threads) + ")";
    else if (fit != Fit::Whole)
      name.clear();
    names.push_back(name);
  }
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i].empty())
      names[i] = describeThreads(classes[i].threads);
    else if (llvm::count(names, names[i]) > 1)
      names[i] += " (" + describeThreads(classes[i].threads) + ")";
  return names;
}

std::optional<std::string>
RoleBuilder::readInits(const std::vector<ThreadClass> &classes) {
  const std::vector<threads::BarrierGroupInfo> &groups = kernel.memory.groups();
  std::map<int, std::set<int64_t>> counts;
  for (const ThreadClass &c : classes)
    for (const TraceEntry &e : c.inits)
      counts[e.group].insert(e.count);
  for (const threads::BarrierGroupInfo &g : groups)
    model.barriers.push_back({g.name, int(g.slots), 0});
  std::set<int> used;
  for (const ThreadClass &c : classes)
    for (const TraceEntry &e : c.run.trace)
      if (e.group >= 0)
        used.insert(e.group);
  for (auto [index, group] : llvm::enumerate(model.barriers)) {
    auto it = counts.find(int(index));
    if (it == counts.end()) {
      if (used.count(int(index)))
        return group.name + " is used but never initialised";
      continue;
    }
    if (it->second.size() > 1)
      return llvm::formatv("the barriers of {0} are initialised for "
                           "different counts ({1} and {2})",
                           group.name, *it->second.begin(),
                           *it->second.rbegin())
          .str();
    group.count = int(*it->second.begin());
  }
  return std::nullopt;
}

int RoleBuilder::syncGroup(int64_t id, int64_t count) {
  if (count == 0)
    count = syncThreads;
  auto [it, inserted] =
      syncGroups.try_emplace({id, count}, int(model.barriers.size()));
  if (inserted)
    model.barriers.push_back(
        {id == 0 ? std::string("bar.sync") : llvm::formatv("bar {0}", id).str(),
         1, int(count)});
  return it->second;
}

void RoleBuilder::addBuffers() {
  const threads::KernelMemory &memory = kernel.memory;
  for (auto [i, region] : llvm::enumerate(memory.regions()))
    model.buffers.push_back(
        {memory.regionName(int(i)), region.space, region.offset, region.bytes});
  model.buffersUnknown = memory.unplacedWhy();
}

namespace {

/// Per (group, slot) of one role: the phase last waited for, arrivals
/// made, and the phase the last arrival was for.
struct MbarrierPhases {
  std::map<std::pair<int, int64_t>, int64_t> waited, arrived, announced;
};

} // namespace

/// An mbarrier op of `e` (arrive, expect_tx, copy or wait) as `op`, at the
/// ring position of the phase it is for; `width` threads do it at once.
static void placeMbarrierOp(sim::Op &op, const TraceEntry &e,
                            const sim::ProtocolModel &model,
                            MbarrierPhases &phases, int width) {
  int g = e.group;
  std::string name = g >= 0 ? model.barriers[g].name : "";
  std::pair<int, int64_t> key{g, e.slot};
  auto at = [&](int64_t phase) {
    op.barrier = g;
    op.ringOffset = e.slot + phase * model.barriers[g].slots;
  };
  switch (e.kind) {
  case Kind::Arrive:
  case Kind::ArriveExpectTx: {
    int64_t phase = phases.arrived[key]++;
    phases.announced[key] = phase;
    at(phase);
    op.arrivals = int(e.count) * width;
    if (e.kind == Kind::ArriveExpectTx) {
      op.kind = OpKind::ArriveExpectTx;
      op.bytes = e.bytes * width;
      op.label = "arrive.expect_tx " + name;
    } else {
      op.kind = OpKind::Arrive;
      op.label = "arrive " + name;
    }
    break;
  }
  case Kind::ExpectTx: {
    // Announces bytes for the phase its next arrival is for.
    int64_t phase = phases.arrived[key];
    phases.announced[key] = phase;
    at(phase);
    op.kind = OpKind::ExpectTx;
    op.bytes = e.bytes * width;
    op.label = "expect_tx " + name;
    break;
  }
  case Kind::Copy: {
    auto it = phases.announced.find(key);
    at(it != phases.announced.end() ? it->second : 0);
    op.kind = OpKind::Copy;
    op.bytes = e.bytes * width;
    op.buffer = e.region;
    op.label = "copy to " + name;
    break;
  }
  case Kind::Wait: {
    auto it = phases.waited.find(key);
    int64_t phase;
    if (it == phases.waited.end())
      phase = e.parity == 1 ? -1 : 0;
    else
      phase = it->second + 1 + ((it->second + 1 - e.parity) & 1);
    phases.waited[key] = phase;
    op.kind = OpKind::Wait;
    // Phase -1 is the one before the barrier's first: it has passed.
    op.previousPhase = phase < 0;
    at(std::max<int64_t>(phase, 0));
    op.label = "wait " + name;
    break;
  }
  default:
    llvm_unreachable("not an mbarrier op");
  }
}

sim::RoleModel RoleBuilder::role(const ThreadClass &c) {
  sim::RoleModel role;
  role.name = describeThreads(c.threads);
  role.steps = 1;
  int width = int(c.threads.size());
  MbarrierPhases phases;
  std::map<int, int64_t> syncs; // per sync group: arrivals so far
  int64_t lastIteration = -1;
  for (const TraceEntry &e : c.run.trace) {
    if (e.kind == Kind::Init)
      continue;
    sim::Op op;
    op.ringStride = 0;
    op.shownStep = std::max<int64_t>(e.iteration, 0);
    op.line = kernel.lineOf ? kernel.lineOf(e.op) : 0;
    lastIteration = std::max(lastIteration, e.iteration);
    switch (e.kind) {
    case Kind::Init:
      break;
    case Kind::Arrive:
    case Kind::ArriveExpectTx:
    case Kind::ExpectTx:
    case Kind::Copy:
    case Kind::Wait:
      placeMbarrierOp(op, e, model, phases, width);
      break;
    case Kind::Sync:
    case Kind::SyncArrive: {
      int g = syncGroup(e.syncId, e.count);
      op.barrier = g;
      op.ringOffset = syncs[g]++;
      op.kind = OpKind::Arrive;
      op.arrivals = width;
      op.label = "arrive " + model.barriers[g].name;
      if (e.kind == Kind::SyncArrive)
        break;
      role.body.push_back(op);
      op.kind = OpKind::Wait;
      op.label = "wait " + model.barriers[g].name;
      break;
    }
    case Kind::Compute:
      op.kind = OpKind::Compute;
      op.reads = e.reads;
      op.asyncGroups = e.waitGroup;
      op.label = "mma";
      break;
    case Kind::MmaWait:
      op.kind = OpKind::MmaWait;
      op.asyncGroups = e.waitGroup;
      op.label = llvm::formatv("wgmma.wait_group {0}", e.waitGroup).str();
      break;
    case Kind::Read:
      op.kind = OpKind::Read;
      op.reads = e.reads;
      op.label = "load";
      break;
    }
    role.body.push_back(op);
  }
  role.unrolledSteps = std::max<int64_t>(lastIteration + 1, 1);
  return role;
}
