//===- NvgpuProtocol.cpp - The mbarrier protocol of an nvgpu kernel -------===//
//
// A kernel written with nvgpu or nvvm mbarriers (by hand, or by
// klx-to-nvgpu; a gpu.func or a gpu.launch body) says its protocol only
// through index arithmetic: which barrier, which parity, who runs it.
// Rather than match patterns, the threads of the block are split into
// classes that the protocol cannot tell apart (the thread-dependent values
// that reach a branch, a loop bound or a barrier operand are equal across
// a class), one thread of each class is run through the kernel
// (ThreadInterpreter), and classes that did the same are merged into one
// role (NvgpuRoles.cpp turns their traces into the simulator's model).
//
//===----------------------------------------------------------------------===//

#include "klx/Analysis/Protocol/BarrierModel.h"

#include "Analysis/Protocol/NvgpuRoles.h"
#include "Analysis/Threads/ThreadInterpreter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace klx;
using namespace klx::protocol;
using namespace klx::threads;
using Kind = TraceEntry::Kind;

namespace {

constexpr size_t kMaxThreadClasses = 64;

/// Operands through which thread-dependent values reach the protocol:
/// branch conditions, loop bounds, and the integer operands of the ops a
/// thread's trace records (barrier indices and addresses, counts,
/// parities, predicates, named barrier ids).
SmallVector<Value> protocolOperands(Region &body) {
  SmallVector<Value> roots;
  body.walk([&](Operation *op) {
    if (auto branch = dyn_cast<scf::IfOp>(op))
      roots.push_back(branch.getCondition());
    else if (auto loop = dyn_cast<scf::ForOp>(op))
      llvm::append_range(roots,
                         ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                                    loop.getStep()});
    else if (touchesProtocol(op) && op->getNumRegions() == 0)
      for (Value operand : op->getOperands()) {
        if (operand.getType().isIntOrIndex() ||
            isa<LLVM::LLVMPointerType, MemRefType,
                nvgpu::WarpgroupMatrixDescriptorType>(operand.getType()))
          roots.push_back(operand);
        // Where a load from shared memory reads (not which element).
        else if (isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp,
                     nvgpu::LdMatrixOp>(op))
          roots.push_back(op->getOperand(0));
      }
  });
  return roots;
}

/// What places a memref in shared memory: the offsets of views and
/// subviews on the way from the allocation, and a descriptor's tensor.
void pushPlaceOperands(Operation *def, function_ref<void(Value)> push) {
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    push(view.getByteShift());
    push(view.getSource());
  } else if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
    for (Value offset : subview.getOffsets())
      push(offset);
    push(subview.getSource());
  } else if (isa<memref::CastOp, memref::CollapseShapeOp,
                 memref::ExpandShapeOp>(def)) {
    push(def->getOperand(0));
  } else if (auto descriptor =
                 dyn_cast<nvgpu::WarpgroupGenerateDescriptorOp>(def)) {
    push(descriptor.getTensor());
  }
}

/// The values that depend on the thread index alone and differ between
/// threads, found by walking back from the protocol's operands through
/// integer arithmetic, loop-carried and branch-yielded values, and the
/// values stored into register arrays that are loaded.
SmallVector<const ThreadValues::Lanes *>
threadDependentLeaves(Region &body, ThreadValues &values) {
  SmallVector<const ThreadValues::Lanes *> leaves;
  llvm::SetVector<Value> seen;
  SmallVector<Value> work = protocolOperands(body);
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
    if (auto load = dyn_cast<memref::LoadOp>(def)) {
      // A register array: what was stored into it, and where. Other
      // memory is unknown to the model whatever the index.
      if (!load.getMemRef().getDefiningOp<memref::AllocaOp>())
        continue;
      for (Operation *user : load.getMemRef().getUsers())
        if (auto store = dyn_cast<memref::StoreOp>(user)) {
          push(store.getValueToStore());
          for (Value index : store.getIndices())
            push(index);
        }
      for (Value index : load.getIndices())
        push(index);
      continue;
    }
    if (!v.getType().isIntOrIndex() &&
        !isa<LLVM::LLVMPointerType>(v.getType())) {
      pushPlaceOperands(def, push);
      continue;
    }
    if (def->getNumRegions() == 0)
      for (Value operand : def->getOperands())
        if (operand.getType().isIntOrIndex() ||
            isa<LLVM::LLVMPointerType>(operand.getType()))
          push(operand);
  }
  return leaves;
}

/// Sizes the kernel's integer arguments from its klx.launch description,
/// when it has one: M and N for `tiles` output tiles, K or k_tiles for
/// `kSteps` k steps. Returns the bound that makes, in words ("" when the
/// kernel is not sized: its own constants bound it).
std::string sizeArguments(Operation *kernel, const ModelSize &size,
                          int64_t kSteps, ThreadRunInputs &in,
                          std::string &assumptions, sim::ProtocolModel &model) {
  auto func = dyn_cast<gpu::GPUFuncOp>(kernel);
  auto launch =
      func ? func->getAttrOfType<DictionaryAttr>("klx.launch") : nullptr;
  auto params = launch ? launch.getAs<ArrayAttr>("params") : nullptr;
  if (!params || params.size() != func.getNumArguments())
    return "";
  bool tiles = false, steps = false;
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
    (name.getValue() == "M" || name.getValue() == "N" ? tiles : steps) = true;
    in.arguments[unsigned(i)] = uint64_t(value);
    assumptions +=
        llvm::formatv("{0}{1} = {2}", assumptions.empty() ? "" : ", ",
                      name.getValue(), value);
  }
  std::string bound;
  if (tiles)
    bound = llvm::formatv("{0} tile{1}", tilesM * tilesN,
                          tilesM * tilesN == 1 ? "" : "s");
  model.tiles = tiles ? tilesM * tilesN : 0;
  model.tileElements = tiles ? tile[0] * tile[1] : 0;
  model.kSteps = steps ? kSteps : 0;
  if (steps)
    bound += llvm::formatv("{0}{1} k steps", bound.empty() ? "" : " x ", kSteps)
                 .str();
  return bound;
}

int64_t syncCount(const ThreadRun &run) {
  return llvm::count_if(run.trace, [](const TraceEntry &e) {
    return e.kind == Kind::Sync && e.syncId == 0 && e.count == 0;
  });
}

/// Runs one thread of each class; classes that did the same merge.
FailureOr<std::vector<ThreadClass>>
runClasses(KernelContext &kernel, ThreadRunInputs in, std::string &why) {
  const KernelShape &shape = kernel.shape;
  SmallVector<const ThreadValues::Lanes *> leaves =
      threadDependentLeaves(*shape.body, kernel.values);
  std::map<std::vector<uint64_t>, std::vector<unsigned>> bySignature;
  for (unsigned t = 0; t < shape.threads(); ++t) {
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
    in.thread = shape.coordinates(t);
    ThreadRun run = runAsThread(kernel, in);
    if (!run.ok) {
      unsigned line =
          run.errorAt && kernel.lineOf ? kernel.lineOf(run.errorAt) : 0;
      why = llvm::formatv("running {0}: {1}{2}", describeThreads({t}),
                          line ? llvm::formatv("at IR line {0}, ", line).str()
                               : "",
                          run.error)
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
  return classes;
}

/// The model of one kernel, or a reason it has none; its roles named as
/// `tree` (the kernel's role tree, when it has one) names them.
FailureOr<sim::ProtocolModel> modelKernel(KernelContext &kernel,
                                          const ModelSize &size,
                                          const RoleTree *tree,
                                          std::string &why) {
  const KernelShape &shape = kernel.shape;
  int64_t slots = 1;
  shape.body->walk([&](nvgpu::MBarrierCreateOp create) {
    slots = std::max<int64_t>(slots,
                              create.getBarriers().getType().getNumBarriers());
  });
  int64_t kSteps = size.kSteps > 0 ? size.kSteps : 2 * slots + 1;

  sim::ProtocolModel model;
  model.kernel = shape.name;
  model.readFrom = "nvgpu ops";
  model.phasesKnown = false;
  ThreadRunInputs in;
  model.bound =
      sizeArguments(shape.kernel, size, kSteps, in, model.assumptions, model);
  if (model.bound.empty())
    model.bound = "the kernel's own loop bounds";
  FailureOr<std::vector<ThreadClass>> ran = runClasses(kernel, in, why);
  if (failed(ran))
    return failure();
  std::vector<ThreadClass> &classes = *ran;
  RoleBuilder builder(model, kernel);
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
  std::vector<std::string> names = roleNames(classes, tree);
  for (size_t r = 0; r < names.size(); ++r)
    model.roles[r].name = names[r];
  builder.addBuffers();
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

bool createsBarriers(Operation *kernel) {
  bool found = false;
  kernel->walk([&](Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    if (name == "nvgpu.mbarrier.create" || name.starts_with("nvvm.mbarrier."))
      found = true;
  });
  return found;
}

} // namespace

std::vector<sim::ProtocolModel> klx::buildNvgpuProtocolModels(
    Operation *op, const ModelSize &size, std::vector<std::string> &notModelled,
    const std::function<unsigned(Operation *)> &lineOf,
    const SourceNames *names) {
  std::vector<sim::ProtocolModel> models;
  op->walk<WalkOrder::PreOrder>([&](Operation *kernelOp) {
    auto func = dyn_cast<gpu::GPUFuncOp>(kernelOp);
    bool isKernel = (func && func.isKernel() && !func.isExternal()) ||
                    isa<gpu::LaunchOp>(kernelOp);
    if (!isKernel)
      return WalkResult::advance();
    if (!createsBarriers(kernelOp))
      return WalkResult::skip();
    std::string why;
    std::string label = func ? "@" + func.getName().str() : "gpu.launch";
    // One CTA's threads cannot say what a cluster's arrive on another
    // CTA's barrier, or a copy multicast into it, does there.
    if (auto cluster = func ? func->getAttrOfType<DenseI32ArrayAttr>(
                                  NVVM::NVVMDialect::getClusterDimAttrName())
                            : nullptr) {
      int64_t ctas = 1;
      for (int32_t extent : cluster.asArrayRef())
        ctas *= std::max(extent, 1);
      if (ctas > 1) {
        unsigned line = lineOf ? lineOf(func) : 0;
        notModelled.push_back(
            llvm::formatv(
                "{0}: the barrier protocol is unknown, because the "
                "kernel runs in clusters of {1} CTAs (nvvm.cluster_dim"
                "{2}) and klx reads one CTA's threads from nvgpu "
                "ops; a klx kernel's cluster is modelled from its "
                "pipelines (after klx-circular-buffer)",
                label, ctas,
                line ? llvm::formatv(", at line {0}", line).str()
                     : std::string())
                .str());
        return WalkResult::skip();
      }
    }
    if (std::optional<KernelShape> shape = readKernelShape(kernelOp, why)) {
      label = func ? label : shape->name;
      // The roles as the Warp roles pane names them ("producer_a"), not
      // by thread numbers.
      std::vector<RoleTree> trees = analyzeRoles(
          kernelOp, [&](Operation *o) { return lineOf ? lineOf(o) : 0u; },
          names);
      KernelContext kernel(std::move(*shape), lineOf, names);
      FailureOr<sim::ProtocolModel> model = modelKernel(
          kernel, size, trees.empty() ? nullptr : &trees.front(), why);
      if (succeeded(model)) {
        models.push_back(std::move(*model));
        return WalkResult::skip();
      }
    }
    notModelled.push_back(llvm::formatv("{0}: the barrier protocol is "
                                        "unknown: {1}",
                                        label, why)
                              .str());
    return WalkResult::skip();
  });
  return models;
}
