//===- Steps.cpp - A kernel body as ordered load/compute/store steps ------===//
//
// One walk in IR order. Every value carries the step it was made in, the
// first step in which it may serve as the address of a global load, and
// whether it derives from memory contents at all. A global load's result
// cannot address another global load of its own step: the step's loads are
// issued together, before any of them returns. A value read back from
// shared memory can: it was there when the step began.
//
//===----------------------------------------------------------------------===//

#include "klx/Analysis/Steps/Steps.h"

#include "klx/Dialect/Klx/IR/KlxOps.h"
#include "klx/Support/MemorySpaces.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace klx;

llvm::StringRef klx::stepRoleName(StepRole role) {
  switch (role) {
  case StepRole::Load:
    return "load";
  case StepRole::BridgeIn:
    return "load (shared)";
  case StepRole::Compute:
    return "compute";
  case StepRole::Store:
    return "store";
  case StepRole::BridgeOut:
    return "store (shared)";
  }
  return "?";
}

bool Step::has(StepRole role) const {
  return llvm::any_of(ops, [&](const StepOp &op) { return op.role == role; });
}

/// Compute that runs on CUDA cores, which a run may gather whatever the
/// op; tensor-core ops stay runs of their own.
static bool isScalarCompute(const StepOp &op) {
  llvm::StringRef name = op.op;
  return op.role == StepRole::Compute && !name.contains("mma") &&
         !name.contains("mfma") && !name.contains("wmma");
}

std::vector<std::pair<size_t, size_t>> Step::runs() const {
  // A span of 8 or more CUDA-core ops is one run; shorter ones read op by
  // op (a gather's index arithmetic), runs of one op each.
  constexpr size_t kMixedRun = 8;
  std::vector<std::pair<size_t, size_t>> result;
  for (size_t i = 0; i < ops.size();) {
    size_t span = i;
    while (span < ops.size() && isScalarCompute(ops[span]))
      ++span;
    if (span - i >= kMixedRun) {
      result.push_back({i, span - i});
      i = span;
      continue;
    }
    size_t end = i + 1;
    while (end < ops.size() && ops[end].role == ops[i].role &&
           ops[end].op == ops[i].op)
      ++end;
    result.push_back({i, end - i});
    i = end;
  }
  return result;
}

std::string Step::runLabel(size_t first, size_t count) const {
  llvm::SmallVector<std::pair<std::string, size_t>> counts;
  for (size_t i = first; i < first + count; ++i) {
    auto it = llvm::find_if(
        counts, [&](const auto &c) { return c.first == ops[i].op; });
    if (it == counts.end())
      counts.push_back({ops[i].op, 1});
    else
      ++it->second;
  }
  if (counts.size() == 1)
    return llvm::formatv("{0} x{1}", counts[0].first, count).str();
  llvm::stable_sort(
      counts, [](const auto &a, const auto &b) { return a.second > b.second; });
  std::string label;
  for (auto [i, c] : llvm::enumerate(counts)) {
    if (i == 4) {
      size_t more = counts.size() - 4;
      label +=
          llvm::formatv(", {0} more kind{1}", more, more == 1 ? "" : "s").str();
      break;
    }
    label +=
        llvm::formatv("{0}{1} {2}", i ? ", " : "", c.second, c.first).str();
  }
  return label;
}

std::string Step::shape() const {
  bool load = has(StepRole::Load) || has(StepRole::BridgeIn);
  bool compute = has(StepRole::Compute);
  bool store = has(StepRole::Store) || has(StepRole::BridgeOut);
  if (load && store && !compute)
    return "transfer only";
  if (compute && !load && !store)
    return "compute only";
  llvm::SmallVector<llvm::StringRef, 3> parts;
  if (load)
    parts.push_back("load");
  if (compute)
    parts.push_back("compute");
  if (store)
    parts.push_back("store");
  return parts.empty() ? "empty" : llvm::join(parts, " -> ");
}

namespace {

enum class Space { Global, Shared, Private };

Space spaceOfMemref(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return Space::Global;
  if (isWorkgroupMemorySpace(type.getMemorySpace()))
    return Space::Shared;
  if (isPrivateMemorySpace(type.getMemorySpace()))
    return Space::Private;
  // Arrays a kernel allocates for itself live in registers (or local
  // memory): neither a load nor a store of a step.
  if (memref.getDefiningOp<memref::AllocaOp>())
    return Space::Private;
  return Space::Global;
}

Space spaceOfPointer(Value ptr) {
  auto type = dyn_cast<LLVM::LLVMPointerType>(ptr.getType());
  if (!type)
    return Space::Global;
  if (type.getAddressSpace() == 3)
    return Space::Shared;
  if (type.getAddressSpace() == 5)
    return Space::Private;
  return Space::Global;
}

/// linalg.copy or memref.copy between two memrefs: source, then target.
bool isMemrefCopy(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  return (name == "linalg.copy" || name == "memref.copy") &&
         op->getNumOperands() == 2 &&
         isa<MemRefType>(op->getOperand(0).getType()) &&
         isa<MemRefType>(op->getOperand(1).getType());
}

/// What a memory op is to a step, if it is one; `memory` is the op's
/// memref or pointer.
std::optional<std::pair<bool, Value>> accessOf(Operation *op) {
  // {isLoad, memory}
  // A copy writes its target (a copy from global into shared memory is
  // the load of its step: isGlobalToShared).
  if (isMemrefCopy(op))
    return std::pair{false, op->getOperand(1)};
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return std::pair{true, load.getMemRef()};
  if (auto store = dyn_cast<StoreOp>(op)) // klx's epilogue
    return std::pair{false, store.getTensor()};
  if (auto load = dyn_cast<LoadVectorOp>(op)) // a bias, a scale
    return std::pair{true, load.getTensor()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return std::pair{false, store.getMemRef()};
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return std::pair{true, load.getAddr()};
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return std::pair{false, store.getAddr()};
  llvm::StringRef name = op->getName().getStringRef();
  if (name == "vector.load" || name == "vector.transfer_read" ||
      name == "vector.maskedload" || name == "vector.gather" ||
      name == "gpu.subgroup_mma_load_matrix" || name == "nvgpu.ldmatrix" ||
      name == "nvvm.ldmatrix")
    return std::pair{true, op->getOperand(0)};
  if (name == "vector.store" || name == "vector.transfer_write" ||
      name == "vector.maskedstore" || name == "vector.scatter" ||
      name == "gpu.subgroup_mma_store_matrix")
    return std::pair{false, op->getOperand(1)};
  // A warp's 8 x 8 matrices into shared memory (a 16-bit epilogue's box).
  if (name == "nvvm.stmatrix")
    return std::pair{false, op->getOperand(0)};
  return std::nullopt;
}

/// Copies from global into shared memory (TMA, cp.async, LDS-DMA, klx's
/// tile loads): the load of a step, with no value in registers.
bool isGlobalToShared(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  // MLIR's GPU tests and transform-dialect schedules stage tiles so.
  if (isMemrefCopy(op))
    return spaceOfMemref(op->getOperand(0)) == Space::Global &&
           spaceOfMemref(op->getOperand(1)) == Space::Shared;
  return isa<LoadOp>(op) || name == "nvgpu.tma.async.load" ||
         name == "nvgpu.device_async_copy" || name == "amdgpu.gather_to_lds" ||
         name == "rocdl.global.load.lds" || name == "rocdl.load.to.lds" ||
         name.starts_with("nvvm.cp.async.bulk.tensor.shared") ||
         name == "nvvm.cp.async.shared.global";
}

/// Copies from shared into global memory (TMA stores): the store of a
/// step, of data a bridge put in shared memory.
bool isSharedToGlobal(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  return name == "nvgpu.tma.async.store" ||
         name.starts_with("nvvm.cp.async.bulk.tensor.global.shared");
}

/// Ops that move data without computing on it (struct and vector
/// plumbing, views, casts between type systems): not listed as compute.
bool isPlumbing(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  return llvm::is_contained(
             {"llvm.extractvalue", "llvm.insertvalue", "llvm.getelementptr",
              "llvm.bitcast", "llvm.extractelement", "llvm.insertelement",
              "builtin.unrealized_conversion_cast", "vector.extract",
              "vector.insert", "vector.broadcast", "memref.subview",
              "memref.cast", "memref.view", "memref.reinterpret_cast"},
             name) ||
         name.starts_with("nvvm.mbarrier") ||
         name.starts_with("nvgpu.mbarrier") ||
         isa<AsOperandOp>(op); // the accumulators stay where they are
}

bool isTensorCoreOp(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  return isa<MmaOp, WgmmaRegisterAOp>(op) || name == "nvgpu.warpgroup.mma" ||
         name == "gpu.subgroup_mma_compute" || name == "nvgpu.mma.sync" ||
         name == "amdgpu.mfma" || name == "amdgpu.wmma" ||
         name == "nvvm.wgmma.mma_async";
}

bool isBarrier(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  return name == "gpu.barrier" || name == "nvvm.barrier0" ||
         name == "nvvm.barrier" || name == "rocdl.s.barrier" ||
         name == "rocdl.barrier";
}

struct ValueInfo {
  int placed = 0;
  int addrReady = 0; // first step it may address a global load in
  bool data = false;
  Operation *source = nullptr; // the load that sets addrReady
};

class Placer {
public:
  Placer(StepPlacement &out, llvm::function_ref<unsigned(Operation *)> lineOf)
      : out(out), lineOf(lineOf) {}

  void visitBlock(Block &block) {
    for (Operation &op : block)
      visit(&op);
  }

private:
  ValueInfo info(Value v) const {
    auto it = values.find(v);
    return it == values.end() ? ValueInfo{} : it->second;
  }

  unsigned line(Operation *op) const { return lineOf ? lineOf(op) : 0; }

  void place(Operation *op, int step, std::optional<StepRole> role,
             const std::string &why) {
    out.stepOf[op] = step;
    if (role) {
      out.roleOf[op] = *role;
      listedSinceFloor = true;
    }
    if (step > maxPlaced) {
      maxPlaced = step;
      out.why[op] = why;
    }
    out.stepCount = std::max(out.stepCount, step + 1);
  }

  void setResults(Operation *op, ValueInfo result) {
    for (Value v : op->getResults()) {
      values[v] = result;
      out.isData[v] = result.data;
    }
  }

  /// The latest addrReady over `operands` and the load behind it.
  std::pair<int, Operation *> addressNeed(ValueRange operands) const {
    int need = 0;
    Operation *source = nullptr;
    for (Value v : operands) {
      ValueInfo i = info(v);
      if (i.addrReady > need) {
        need = i.addrReady;
        source = i.source;
      }
    }
    return {need, source};
  }

  std::string addressWhy(Operation *op, Operation *source, int step) const {
    return llvm::formatv("{0} at line {1} takes its address from data that "
                         "{2} at line {3} loads in step {4}",
                         op->getName().getStringRef(), line(op),
                         source ? source->getName().getStringRef() : "a load",
                         source ? line(source) : 0, step)
        .str();
  }

  void visit(Operation *op) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    if (isBarrier(op)) {
      out.stepOf[op] = floor;
      if (listedSinceFloor) {
        listedSinceFloor = false;
        floor = maxPlaced + 1;
        barrierWhy = llvm::formatv("{0} at line {1} ends the step before",
                                   op->getName().getStringRef(), line(op));
      }
      return;
    }
    // linalg.copy's region only yields its element: the op is the copy.
    // klx.map's body is one element's arithmetic: the op is the compute.
    if (op->getNumRegions() > 0 && !isMemrefCopy(op) && !isa<MapOp>(op)) {
      visitRegionOp(op);
      return;
    }
    std::optional<std::pair<bool, Value>> access = accessOf(op);
    Space space = Space::Global;
    if (access)
      space = isa<MemRefType>(access->second.getType())
                  ? spaceOfMemref(access->second)
                  : spaceOfPointer(access->second);
    bool anyData =
        llvm::any_of(op->getOperands(), [&](Value v) { return info(v).data; });
    int operandsPlaced = 0;
    for (Value v : op->getOperands())
      operandsPlaced = std::max(operandsPlaced, info(v).placed);

    if (isSharedToGlobal(op)) {
      access = std::pair{false, Value()};
      space = Space::Global;
    }
    if ((access && space != Space::Private) || isGlobalToShared(op)) {
      bool load = isGlobalToShared(op) || (access && access->first);
      // A store's first operand is what it stores, not where; stmatrix's
      // is where, the rest what.
      ValueRange address = op->getOperands();
      if (op->getName().getStringRef() == "nvvm.stmatrix")
        address = address.take_front(1);
      else if (!load && !address.empty())
        address = address.drop_front();
      auto [need, source] = addressNeed(address);
      int step = std::max(floor, need);
      if (!load)
        step = std::max(step, operandsPlaced);
      std::string why =
          need > floor ? addressWhy(op, source, need) : barrierWhy;
      StepRole role = load ? (space == Space::Shared && !isGlobalToShared(op)
                                  ? StepRole::BridgeIn
                                  : StepRole::Load)
                           : (space == Space::Shared ? StepRole::BridgeOut
                                                     : StepRole::Store);
      place(op, step, role, why);
      if (role == StepRole::Load)
        setResults(op, {step, step + 1, true, op});
      else if (role == StepRole::BridgeIn)
        setResults(op, {step, step, true, nullptr});
      return;
    }
    // Arithmetic: on data it is the compute of a step; on ids and
    // constants it only builds addresses.
    int step = std::max(floor, operandsPlaced);
    bool compute = isTensorCoreOp(op) ||
                   (anyData && op->getNumResults() > 0 && !isPlumbing(op));
    auto [need, source] = addressNeed(op->getOperands());
    place(op, step, compute ? std::optional(StepRole::Compute) : std::nullopt,
          barrierWhy);
    setResults(op, {step, need, anyData || isTensorCoreOp(op), source});
  }

  void visitRegionOp(Operation *op) {
    // Loop-carried values start as their initial values.
    if (auto loop = dyn_cast<scf::ForOp>(op))
      for (auto [arg, init] :
           llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs())) {
        values[arg] = info(init);
        out.isData[arg] = info(init).data;
      }
    int before = maxPlaced;
    int start = floor;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        visitBlock(block);
    out.stepOf[op] = start;
    // Each result as the values the regions yield in its place.
    int placed = std::max(start, maxPlaced > before ? maxPlaced : start);
    for (auto [index, value] : llvm::enumerate(op->getResults())) {
      ValueInfo result{placed, 0, false, nullptr};
      for (Region &region : op->getRegions())
        for (Block &block : region) {
          if (block.empty() ||
              !block.back().hasTrait<OpTrait::IsTerminator>() ||
              block.back().getNumOperands() != op->getNumResults())
            continue;
          ValueInfo i = info(block.back().getOperand(index));
          result.data |= i.data;
          if (i.addrReady > result.addrReady) {
            result.addrReady = i.addrReady;
            result.source = i.source;
          }
        }
      values[value] = result;
      out.isData[value] = result.data;
    }
  }

  StepPlacement &out;
  llvm::function_ref<unsigned(Operation *)> lineOf;
  llvm::DenseMap<Value, ValueInfo> values;
  int floor = 0;
  int maxPlaced = 0;
  bool listedSinceFloor = false; // a barrier after none ends no step
  std::string barrierWhy;
};

} // namespace

StepPlacement
klx::placeSteps(Region &body,
                llvm::function_ref<unsigned(Operation *)> lineOf) {
  StepPlacement out;
  Placer placer(out, lineOf);
  for (Block &block : body)
    placer.visitBlock(block);
  out.stepCount = std::max(out.stepCount, 1);
  return out;
}

static KernelSteps stepsOf(Operation *kernel, llvm::StringRef name,
                           Region &body,
                           llvm::function_ref<unsigned(Operation *)> lineOf) {
  KernelSteps result;
  result.kernel = name.str();
  result.line = lineOf ? lineOf(kernel) : 0;
  StepPlacement placement = placeSteps(body, lineOf);
  result.steps.resize(placement.stepCount);
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto role = placement.roleOf.find(op);
    if (role == placement.roleOf.end())
      return;
    int step = placement.stepOf.lookup(op);
    result.steps[step].ops.push_back({role->second,
                                      op->getName().getStringRef().str(),
                                      lineOf ? lineOf(op) : 0});
  });
  // One reason per step: the op that first reached it said why.
  for (auto &[op, why] : placement.why)
    result.steps[placement.stepOf.lookup(op)].why = why;
  // Data made in one step and used in a later one, in registers.
  body.walk([&](Operation *op) {
    auto from = placement.stepOf.find(op);
    if (from == placement.stepOf.end())
      return;
    llvm::SmallSetVector<int, 2> later;
    for (Value v : op->getResults()) {
      if (!placement.isData.lookup(v))
        continue;
      for (Operation *user : v.getUsers()) {
        auto to = placement.stepOf.find(user);
        if (to != placement.stepOf.end() && to->second > from->second)
          later.insert(to->second);
      }
    }
    for (int to : later)
      result.crossings.push_back({op->getName().getStringRef().str(),
                                  lineOf ? lineOf(op) : 0, from->second, to});
  });
  return result;
}

std::vector<KernelSteps>
klx::analyzeSteps(Operation *root,
                  llvm::function_ref<unsigned(Operation *)> lineOf) {
  std::vector<KernelSteps> kernels;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      kernels.push_back(
          stepsOf(op, kernel.getSymName(), kernel->getRegion(0), lineOf));
      return WalkResult::skip();
    }
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (func.isKernel())
        kernels.push_back(stepsOf(op, func.getName(), func.getBody(), lineOf));
      return WalkResult::skip();
    }
    if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
      auto parent = op->getParentOfType<FunctionOpInterface>();
      std::string name =
          (parent ? parent.getName().str() : std::string("kernel")) +
          " (gpu.launch)";
      kernels.push_back(stepsOf(op, name, launch.getBody(), lineOf));
      return WalkResult::skip();
    }
    if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
      if (!func.isExternal() &&
          (func->hasAttr("nvvm.kernel") || func->hasAttr("rocdl.kernel")))
        kernels.push_back(stepsOf(op, func.getName(), func.getBody(), lineOf));
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return kernels;
}
