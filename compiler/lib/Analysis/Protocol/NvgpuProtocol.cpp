//===- NvgpuProtocol.cpp - The mbarrier protocol of an nvgpu kernel -------===//
//
// A kernel written with nvgpu mbarriers (by hand, or by klx-to-nvgpu) says
// its protocol only through index arithmetic: which barrier of a group,
// which parity, who runs it. Rather than match patterns, the threads of
// the block are split into classes that the protocol cannot tell apart
// (the thread-dependent values that reach a branch, a loop bound or a
// barrier operand are equal across a class), one thread of each class is
// run through the kernel (ThreadInterpreter), and classes that did the
// same are merged into one role. Each role's run is the simulator's model
// unrolled: every op at the ring position its own slot and phase give.
//
// Phases are not in the IR, parities are: a role's wait on parity p means
// the next phase of that parity after the one it last waited for (the
// first wait on parity 1 of a fresh barrier is the "previous phase" that
// has already passed, as a producer's first acquire of an empty slot is).
// Its n-th arrival on a barrier is meant for phase n; a copy completes on
// the phase its role's last arrival there announced.
//
//===----------------------------------------------------------------------===//

#include "klx/Analysis/Protocol/BarrierModel.h"

#include "Analysis/Threads/ThreadInterpreter.h"
#include "Analysis/Threads/ThreadValues.h"
#include "klx/Dialect/Klx/IR/KlxDialect.h"
#include "klx/Support/Diagnostics.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace mlir;
using namespace klx;
using namespace klx::threads;
using SimOp = klx::sim::Op;
using klx::sim::OpKind;
using Kind = TraceEntry::Kind;

namespace {

constexpr size_t kMaxThreadClasses = 64;

struct ThreadClass {
  std::vector<unsigned> threads;
  ThreadRun run; // its trace without the inits
  std::vector<TraceEntry> inits;
};

/// Operands through which thread-dependent values reach the protocol:
/// branch conditions, loop bounds, and the index, count, parity and
/// predicate operands of barrier ops.
SmallVector<Value> protocolOperands(gpu::GPUFuncOp func) {
  SmallVector<Value> roots;
  func.walk([&](Operation *op) {
    if (auto branch = dyn_cast<scf::IfOp>(op))
      roots.push_back(branch.getCondition());
    else if (auto loop = dyn_cast<scf::ForOp>(op))
      llvm::append_range(roots,
                         ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                                    loop.getStep()});
    else if (isa<nvgpu::MBarrierInitOp, nvgpu::MBarrierArriveOp,
                 nvgpu::MBarrierArriveNoCompleteOp,
                 nvgpu::MBarrierArriveExpectTxOp,
                 nvgpu::MBarrierTryWaitParityOp, nvgpu::TmaAsyncLoadOp>(op))
      for (Value operand : op->getOperands())
        if (operand.getType().isIntOrIndex())
          roots.push_back(operand);
  });
  return roots;
}

/// The values that depend on the thread index alone and differ between
/// threads, found by walking back from the protocol's operands through
/// integer arithmetic and loop-carried and branch-yielded values.
SmallVector<const ThreadValues::Lanes *>
threadDependentLeaves(gpu::GPUFuncOp func, ThreadValues &values) {
  SmallVector<const ThreadValues::Lanes *> leaves;
  llvm::SetVector<Value> seen;
  SmallVector<Value> work = protocolOperands(func);
  auto push = [&](Value v) {
    if (seen.insert(v))
      work.push_back(v);
  };
  for (Value v : SmallVector<Value>(work))
    seen.insert(v);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (const ThreadValues::Lanes *lanes = values.eval(v)) {
      if (llvm::any_of(*lanes, [&](uint64_t x) { return x != lanes->front(); }))
        leaves.push_back(lanes);
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
        if (OpOperand *init = loop.getTiedLoopInit(arg))
          push(init->get());
        if (auto *yielded = loop.getTiedLoopYieldedValue(arg))
          push(yielded->get());
      }
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (auto branch = dyn_cast<scf::IfOp>(def)) {
      unsigned i = cast<OpResult>(v).getResultNumber();
      push(branch.getCondition());
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          push(region->front().getTerminator()->getOperand(i));
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      unsigned i = cast<OpResult>(v).getResultNumber();
      push(loop.getInitArgs()[i]);
      push(loop.getBody()->getTerminator()->getOperand(i));
      continue;
    }
    if (def->getNumRegions() == 0)
      for (Value operand : def->getOperands())
        if (operand.getType().isIntOrIndex())
          push(operand);
  }
  return leaves;
}

/// "thread 0", "threads 1-127", "threads 0-3, 32-35 and 2 more ranges".
std::string describeThreads(const std::vector<unsigned> &threads) {
  SmallVector<std::pair<unsigned, unsigned>> ranges;
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

/// Sizes the kernel's integer arguments from its klx.launch description,
/// when it has one: M and N for `tiles` output tiles, K or k_tiles for
/// `kSteps` k steps.
void sizeArguments(gpu::GPUFuncOp func, const ModelSize &size, int64_t kSteps,
                   ThreadRunInputs &in, std::string &assumptions) {
  auto launch = func->getAttrOfType<DictionaryAttr>("klx.launch");
  auto params = launch ? launch.getAs<ArrayAttr>("params") : nullptr;
  if (!params || params.size() != func.getNumArguments())
    return;
  std::array<int64_t, 3> tile = {128, 128, 64};
  if (auto t = launch.getAs<DenseI64ArrayAttr>("tile"); t && t.size() == 3)
    tile = {t[0], t[1], t[2]};
  int64_t tilesN = size.tiles >= 2 ? 2 : 1;
  int64_t tilesM = std::max<int64_t>(1, size.tiles / tilesN);
  for (auto [i, attr] : llvm::enumerate(params)) {
    auto param = dyn_cast<DictionaryAttr>(attr);
    auto name = param ? param.getAs<StringAttr>("name") : nullptr;
    if (!name)
      continue;
    int64_t value = -1;
    if (name.getValue() == "M")
      value = tilesM * tile[0];
    else if (name.getValue() == "N")
      value = tilesN * tile[1];
    else if (name.getValue() == "K")
      value = kSteps * tile[2];
    else if (name.getValue() == "k_tiles")
      value = kSteps;
    if (value < 0)
      continue;
    in.arguments[unsigned(i)] = uint64_t(value);
    assumptions +=
        llvm::formatv("{0}{1} = {2}", assumptions.empty() ? "" : ", ",
                      name.getValue(), value);
  }
}

class ModelBuilder {
public:
  ModelBuilder(sim::ProtocolModel &model,
               const std::function<unsigned(Operation *)> &lineOf)
      : model(model), lineOf(lineOf) {}

  /// The group's index in the model, named as the role tree names it.
  int groupOf(Value group) {
    auto [it, inserted] = groups.try_emplace(group, int(model.barriers.size()));
    if (!inserted)
      return it->second;
    std::string name = "mbarrier";
    Operation *create = group.getDefiningOp();
    if (auto attr =
            create ? create->getAttrOfType<StringAttr>(kBarrierNameAttrName)
                   : nullptr)
      name = attr.getValue().str();
    else if (SourceLoc loc =
                 create ? toSourceLoc(create->getLoc()) : SourceLoc();
             loc.isKnown())
      name = llvm::formatv("mbarrier@{0}", loc.line).str();
    if (unsigned uses = ++nameUses[name]; uses > 1)
      name += "#" + std::to_string(uses);
    auto type = cast<nvgpu::MBarrierGroupType>(group.getType());
    model.barriers.push_back({name, int(type.getNumBarriers()), 0});
    return it->second;
  }

  /// Init counts, from whichever classes ran the inits; a reason when a
  /// group is never initialised or its barriers expect different counts.
  std::optional<std::string>
  readInits(const std::vector<ThreadClass> &classes) {
    std::map<int, std::set<int64_t>> counts;
    for (const ThreadClass &c : classes)
      for (const TraceEntry &e : c.inits)
        counts[groupOf(e.group)].insert(e.count);
    for (const ThreadClass &c : classes)
      for (const TraceEntry &e : c.run.trace)
        if (e.group)
          (void)groupOf(e.group);
    for (auto [index, group] : llvm::enumerate(model.barriers)) {
      auto it = counts.find(int(index));
      if (it == counts.end())
        return group.name + " is used but never initialised";
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

  /// The CTA barrier as one more group: every thread arrives once per
  /// gpu.barrier and waits for the rest.
  int syncGroup(int threads) {
    if (sync < 0) {
      sync = int(model.barriers.size());
      model.barriers.push_back({"bar.sync", 1, threads});
    }
    return sync;
  }

  sim::RoleModel role(const ThreadClass &c) {
    sim::RoleModel role;
    role.name = describeThreads(c.threads);
    role.steps = 1;
    int width = int(c.threads.size());
    // Per (group, slot): the phase last waited for, arrivals made, and the
    // phase the last arrival was for.
    std::map<std::pair<int, int64_t>, int64_t> waited, arrived, announced;
    int64_t syncs = 0, lastIteration = -1;
    for (const TraceEntry &e : c.run.trace) {
      if (e.kind == Kind::Init)
        continue;
      SimOp op;
      op.ringStride = 0;
      op.shownStep = std::max<int64_t>(e.iteration, 0);
      op.line = lineOf(e.op);
      lastIteration = std::max(lastIteration, e.iteration);
      int g = e.group ? groupOf(e.group) : -1;
      std::string name = g >= 0 ? model.barriers[g].name : "";
      std::pair<int, int64_t> key{g, e.slot};
      auto at = [&](int64_t phase) {
        op.barrier = g;
        op.ringOffset = e.slot + phase * model.barriers[g].slots;
      };
      switch (e.kind) {
      case Kind::Init:
        break;
      case Kind::Arrive:
      case Kind::ArriveExpectTx: {
        int64_t phase = arrived[key]++;
        announced[key] = phase;
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
      case Kind::Copy: {
        auto it = announced.find(key);
        at(it != announced.end() ? it->second : 0);
        op.kind = OpKind::Copy;
        op.bytes = e.bytes * width;
        op.label = "copy to " + name;
        break;
      }
      case Kind::Wait: {
        auto it = waited.find(key);
        int64_t phase;
        if (it == waited.end())
          phase = e.parity == 1 ? -1 : 0;
        else
          phase = it->second + 1 + ((it->second + 1 - e.parity) & 1);
        waited[key] = phase;
        op.kind = OpKind::Wait;
        // Phase -1 is the one before the barrier's first: it has passed.
        op.previousPhase = phase < 0;
        at(std::max<int64_t>(phase, 0));
        op.label = "wait " + name;
        break;
      }
      case Kind::Sync: {
        g = syncGroup(syncThreads);
        op.barrier = g;
        op.ringOffset = syncs++;
        op.kind = OpKind::Arrive;
        op.arrivals = width;
        op.label = "bar.sync";
        role.body.push_back(op);
        op.kind = OpKind::Wait;
        break;
      }
      case Kind::Compute:
        op.kind = OpKind::Compute;
        op.label = "mma";
        break;
      }
      role.body.push_back(op);
    }
    role.unrolledSteps = std::max<int64_t>(lastIteration + 1, 1);
    return role;
  }

  int syncThreads = 0;

private:
  sim::ProtocolModel &model;
  const std::function<unsigned(Operation *)> &lineOf;
  llvm::DenseMap<Value, int> groups;
  llvm::StringMap<unsigned> nameUses;
  int sync = -1;
};

int64_t syncCount(const ThreadRun &run) {
  return llvm::count_if(
      run.trace, [](const TraceEntry &e) { return e.kind == Kind::Sync; });
}

/// The model of one kernel, or a reason it has none.
FailureOr<sim::ProtocolModel>
modelKernel(gpu::GPUFuncOp func, const ModelSize &size, std::string &why,
            const std::function<unsigned(Operation *)> &lineOf) {
  std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
  if (!known || known->size() != 3 ||
      llvm::any_of(*known, [](int32_t n) { return n < 1 || n > 1024; }) ||
      (*known)[0] * (*known)[1] * (*known)[2] > 1024) {
    why = "its block size is not known (give the gpu.func known_block_size)";
    return failure();
  }
  std::array<unsigned, 3> block = {unsigned((*known)[0]), unsigned((*known)[1]),
                                   unsigned((*known)[2])};
  unsigned threads = block[0] * block[1] * block[2];
  int64_t slots = 1;
  func.walk([&](nvgpu::MBarrierCreateOp create) {
    slots = std::max<int64_t>(slots,
                              create.getBarriers().getType().getNumBarriers());
  });
  int64_t kSteps = size.kSteps > 0 ? size.kSteps : 2 * slots + 1;

  sim::ProtocolModel model;
  model.kernel = func.getName().str();
  model.readFrom = "nvgpu ops";
  model.phasesKnown = false;
  ThreadRunInputs in;
  in.block = block;
  sizeArguments(func, size, kSteps, in, model.assumptions);

  // Classes of threads the protocol cannot tell apart.
  ThreadValues values(block, Value(), Value(), Value());
  SmallVector<const ThreadValues::Lanes *> leaves =
      threadDependentLeaves(func, values);
  std::map<std::vector<uint64_t>, std::vector<unsigned>> bySignature;
  for (unsigned t = 0; t < threads; ++t) {
    std::vector<uint64_t> signature;
    for (const ThreadValues::Lanes *lanes : leaves)
      signature.push_back((*lanes)[t]);
    bySignature[signature].push_back(t);
  }
  if (bySignature.size() > kMaxThreadClasses) {
    why = llvm::formatv("its threads fall into {0} classes that do different "
                        "things to the barriers (klx models at most {1})",
                        bySignature.size(), kMaxThreadClasses)
              .str();
    return failure();
  }
  std::vector<ThreadClass> classes;
  for (auto &[signature, members] : bySignature) {
    unsigned t = members.front();
    in.thread = {t % block[0], (t / block[0]) % block[1],
                 t / (block[0] * block[1])};
    ThreadRun run = runAsThread(func, in);
    if (!run.ok) {
      unsigned line = run.errorAt ? lineOf(run.errorAt) : 0;
      why =
          llvm::formatv("running {0}: {1}{2}", describeThreads({t}), run.error,
                        line ? llvm::formatv(" (IR line {0})", line).str() : "")
              .str();
      return failure();
    }
    // Classes that did the same are one role; who initialised the
    // barriers does not make a role (the inits come before any lane).
    std::vector<TraceEntry> inits;
    llvm::erase_if(run.trace, [&](const TraceEntry &e) {
      if (e.kind != Kind::Init)
        return false;
      inits.push_back(e);
      return true;
    });
    auto same = llvm::find_if(classes, [&](const ThreadClass &c) {
      return c.run.trace == run.trace;
    });
    if (same != classes.end()) {
      llvm::append_range(same->threads, members);
      llvm::sort(same->threads);
      llvm::append_range(same->inits, inits);
    } else {
      classes.push_back({members, std::move(run), std::move(inits)});
    }
  }
  ModelBuilder builder(model, lineOf);
  if (std::optional<std::string> reason = builder.readInits(classes)) {
    why = *reason;
    return failure();
  }
  llvm::erase_if(classes,
                 [](const ThreadClass &c) { return c.run.trace.empty(); });
  llvm::sort(classes, [](const ThreadClass &a, const ThreadClass &b) {
    return a.threads.front() < b.threads.front();
  });
  // Threads that only pass the CTA barriers, as often as anyone does, only
  // make up its count: leave them out of the lanes and the count.
  int64_t mostSyncs = 0;
  for (const ThreadClass &c : classes)
    mostSyncs = std::max(mostSyncs, syncCount(c.run));
  // Threads that do nothing to the barriers (they return early) do not
  // take part in bar.sync either.
  builder.syncThreads = 0;
  for (const ThreadClass &c : classes)
    builder.syncThreads += int(c.threads.size());
  std::vector<unsigned> passive;
  llvm::erase_if(classes, [&](const ThreadClass &c) {
    bool onlySyncs = syncCount(c.run) == int64_t(c.run.trace.size());
    if (onlySyncs && syncCount(c.run) == mostSyncs && classes.size() > 1) {
      builder.syncThreads -= int(c.threads.size());
      llvm::append_range(passive, c.threads);
      return true;
    }
    return false;
  });
  llvm::sort(passive);
  for (const ThreadClass &c : classes)
    model.roles.push_back(builder.role(c));
  if (model.roles.empty()) {
    why = "no thread does anything to its mbarriers";
    return failure();
  }
  model.assumptions =
      llvm::formatv("CTA 0 of a grid of one CTA{0}{1}; one thread of each "
                    "class run through the kernel{2}",
                    model.assumptions.empty() ? "" : ", ", model.assumptions,
                    passive.empty()
                        ? std::string()
                        : "; " + describeThreads(passive) +
                              " only pass the CTA barriers and are left "
                              "out of bar.sync's count")
          .str();
  return model;
}

} // namespace

std::vector<sim::ProtocolModel> klx::buildNvgpuProtocolModels(
    Operation *op, const ModelSize &size, std::vector<std::string> &notModelled,
    const std::function<unsigned(Operation *)> &lineOf) {
  std::vector<sim::ProtocolModel> models;
  op->walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel() || func.isExternal())
      return;
    bool hasBarriers = false;
    func.walk([&](nvgpu::MBarrierCreateOp) { hasBarriers = true; });
    if (!hasBarriers)
      return;
    std::string why;
    FailureOr<sim::ProtocolModel> model = modelKernel(func, size, why, lineOf);
    if (succeeded(model))
      models.push_back(std::move(*model));
    else
      notModelled.push_back(llvm::formatv("@{0}: the barrier protocol is not "
                                          "modelled: {1}",
                                          func.getName(), why)
                                .str());
  });
  return models;
}
