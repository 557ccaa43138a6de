//===- Lint.cpp - Kernels that lower silently into something else ---------===//
//
// MLIR lowers some kernels without a word into programs that do something
// other than what they say: a workgroup memref.alloc becomes a device
// malloc, a barrier under a thread-dependent branch is reached by some
// threads only, a constant mbarrier parity in a loop stops waiting after
// the first round, an mma.sync fragment indexed by the thread index x in
// a block wider than a warp belongs to no lane. The lint says so at the op's
// line, before any pass has run; where it cannot decide (a condition read from
// memory) it is quiet.
//
//===----------------------------------------------------------------------===//

#include "klx/Transforms/Passes.h"

#include "Analysis/Threads/Divergence.h"
#include "klx/Support/MemorySpaces.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

namespace klx {
#define GEN_PASS_DEF_KLXLINTPASS
#include "klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

/// Device code: a gpu.func (kernel or not) or the body of a gpu.launch.
Operation *enclosingKernel(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<gpu::GPUFuncOp, gpu::LaunchOp>(parent))
      return parent;
  return nullptr;
}

std::string quoted(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

// [SECTION] Values that depend on the thread --------------------------------

/// One step back over a block argument, for the walks below that look for
/// the thread index: the gpu.launch when `arg` is its thread index (x
/// alone when `xOnly`), else null with what the argument comes from pushed
/// on `work`: a loop counter's bounds and step, and when `carried` a
/// loop-carried value's init and yield.
Operation *traceBlockArgument(BlockArgument arg, bool xOnly, bool carried,
                              SmallVectorImpl<Value> &work) {
  Operation *parent = arg.getOwner()->getParentOp();
  if (auto launch = dyn_cast<gpu::LaunchOp>(parent)) {
    gpu::KernelDim3 ids = launch.getThreadIds();
    if (arg == ids.x || (!xOnly && (arg == ids.y || arg == ids.z)))
      return launch;
  } else if (auto loop = dyn_cast<scf::ForOp>(parent)) {
    if (arg == loop.getInductionVar()) {
      work.append({loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
    } else if (OpOperand *init = loop.getTiedLoopInit(arg); init && carried) {
      work.push_back(init->get());
      work.push_back(loop.getTiedLoopYieldedValue(arg)->get());
    }
  }
  return nullptr;
}

/// The op that makes `value` differ between the threads of a block (a
/// thread id, lane id or elect.sync op, or the gpu.launch whose thread id
/// it is), following pure ops, loop counters and loop-carried values;
/// null when it does not depend on one, or only through memory, which the
/// lint does not read.
Operation *threadSourceOf(Value value) {
  SmallVector<Value> work{value};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!v || !seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (Operation *launch = traceBlockArgument(arg, /*xOnly=*/false,
                                                 /*carried=*/true, work))
        return launch;
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (threads::isThreadSource(op))
      return op;
    if (op->getNumRegions() > 0 || !isMemoryEffectFree(op))
      continue;
    work.append(op->operand_begin(), op->operand_end());
  }
  return nullptr;
}

/// Where `source` reads the thread, for a note.
std::string describeSource(Operation *source) {
  if (isa<gpu::LaunchOp>(source))
    return "the gpu.launch's thread index";
  return quoted(source);
}

// [SECTION] Workgroup memory from memref.alloc -------------------------------

unsigned lintWorkgroupAlloc(Operation *op) {
  auto type = op->getNumResults() == 1
                  ? dyn_cast<MemRefType>(op->getResult(0).getType())
                  : MemRefType();
  if (!isa<memref::AllocOp, memref::AllocaOp>(op) || !type ||
      !isWorkgroupMemorySpace(type.getMemorySpace()))
    return 0;
  Operation *kernel = enclosingKernel(op);
  if (!kernel)
    return 0;
  InFlightDiagnostic warning = op->emitWarning()
                               << quoted(op)
                               << " of workgroup memory inside a kernel does "
                                  "not make shared memory: ";
  if (isa<memref::AllocOp>(op))
    warning << "it lowers to a call of the device malloc in each thread, "
               "global memory no other thread sees, so what one thread "
               "stores another never reads (LLVM may then drop those reads "
               "and what depends on them)";
  else
    warning << "it lowers to a stack alloca in the workgroup address space, "
               "one per thread";
  warning << "; declare the buffer as a workgroup(...) attribution of the "
          << (isa<gpu::LaunchOp>(kernel) ? "gpu.launch" : "gpu.func")
          << ", or as a memref.global in address space 3 read with "
             "memref.get_global";
  warning.attachNote(kernel->getLoc()) << "the kernel";
  return 1;
}

// [SECTION] Barriers under thread-dependent control flow ---------------------

bool isBlockBarrier(Operation *op) {
  if (isa<gpu::BarrierOp, NVVM::Barrier0Op>(op))
    return true;
  auto barrier = dyn_cast<NVVM::BarrierOp>(op);
  return barrier && !barrier.getBarrierId() && !barrier.getNumberOfThreads();
}

/// The values that decide whether `parent` runs the region holding the
/// op: a branch's condition, a loop's bounds or its continue condition.
SmallVector<Value> controlValues(Operation *parent) {
  if (auto branch = dyn_cast<scf::IfOp>(parent))
    return {branch.getCondition()};
  if (auto loop = dyn_cast<scf::ForOp>(parent))
    return {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
  if (auto loop = dyn_cast<scf::WhileOp>(parent))
    return {loop.getConditionOp().getCondition()};
  return {};
}

unsigned lintDivergentBarrier(Operation *op) {
  if (!isBlockBarrier(op))
    return 0;
  for (Operation *parent = op->getParentOp();
       parent && !isa<gpu::GPUFuncOp, gpu::LaunchOp>(parent);
       parent = parent->getParentOp()) {
    for (Value control : controlValues(parent)) {
      Operation *source = threadSourceOf(control);
      if (!source)
        continue;
      InFlightDiagnostic warning =
          op->emitWarning()
          << quoted(op) << " waits for every thread of the block, but it is "
          << (isa<scf::IfOp>(parent) ? "under a condition" : "in a loop")
          << " that depends on the thread: threads that go the other way "
             "never arrive, and the kernel hangs or reads what was not yet "
             "written; move the barrier out of the "
          << (isa<scf::IfOp>(parent) ? "branch" : "loop")
          << ", or use a named barrier (nvvm.barrier id, count) for the "
             "threads that take it";
      warning.attachNote(parent->getLoc())
          << "this " << quoted(parent) << " depends on "
          << describeSource(source);
      warning.attachNote(source->getLoc()) << "the thread is read here";
      return 1;
    }
  }
  return 0;
}

// [SECTION] Constant mbarrier parity in a loop -------------------------------

struct ParityWait {
  Value barrier; // the barrier group (nvgpu) or address (nvvm)
  Value parity;
  Value index; // nvgpu: which barrier of the group
};

std::optional<ParityWait> readParityWait(Operation *op) {
  if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op))
    return ParityWait{wait.getBarriers(), wait.getPhaseParity(),
                      wait.getMbarId()};
  if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op))
    return ParityWait{wait.getAddr(), wait.getPhase(), Value()};
  return std::nullopt;
}

/// Whether `loop` (re)initialises `barrier` itself each round.
bool initialisesInLoop(Operation *loop, Value barrier) {
  return loop
      ->walk([&](Operation *op) {
        bool init = (isa<nvgpu::MBarrierInitOp, NVVM::MBarrierInitOp>(op)) &&
                    op->getNumOperands() > 0 && op->getOperand(0) == barrier;
        return init ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether each round of `loop` (`trips` rounds, when known) waits on a
/// barrier of its own: the index changes with the loop and there are no
/// more rounds than barriers.
bool oneRoundPerBarrier(scf::ForOp loop, const std::optional<APInt> &trips,
                        const ParityWait &wait) {
  if (!wait.index || loop.isDefinedOutsideOfLoop(wait.index))
    return false;
  auto group = dyn_cast<nvgpu::MBarrierGroupType>(wait.barrier.getType());
  return trips && group && trips->getZExtValue() <= group.getNumBarriers();
}

unsigned lintConstantParity(Operation *op) {
  std::optional<ParityWait> wait = readParityWait(op);
  if (!wait || !enclosingKernel(op))
    return 0;
  APInt parity;
  if (!matchPattern(wait->parity, m_ConstantInt(&parity)))
    return 0;
  Operation *loop = op->getParentOp();
  while (loop &&
         !isa<scf::ForOp, scf::WhileOp, gpu::GPUFuncOp, gpu::LaunchOp>(loop))
    loop = loop->getParentOp();
  if (!loop || isa<gpu::GPUFuncOp, gpu::LaunchOp>(loop))
    return 0;
  if (auto forLoop = dyn_cast<scf::ForOp>(loop)) {
    std::optional<APInt> trips = forLoop.getStaticTripCount();
    if ((trips && trips->getZExtValue() <= 1) ||
        oneRoundPerBarrier(forLoop, trips, *wait))
      return 0;
  }
  if (initialisesInLoop(loop, wait->barrier))
    return 0;
  InFlightDiagnostic warning =
      op->emitWarning()
      << quoted(op) << " waits for the constant parity "
      << parity.getZExtValue()
      << " in every round of a loop: an mbarrier's phase flips each time "
         "it completes, so from the second round on the wait passes at "
         "once, before the data is there, or waits for a phase that is "
         "gone; carry the parity in the loop and flip it (arith.xori) each "
         "time the stage index wraps";
  warning.attachNote(loop->getLoc()) << "the loop";
  return 1;
}

// [SECTION] mma.sync lanes from the thread index ----------------------------

/// The kernel's threads in x when the IR states it: a gpu.launch's constant
/// block size, or a gpu.func's known_block_size.
std::optional<int64_t> threadsInX(Operation *kernel) {
  if (auto launch = dyn_cast<gpu::LaunchOp>(kernel)) {
    APInt size;
    if (matchPattern(launch.getBlockSizeX(), m_ConstantInt(&size)))
      return size.getSExtValue();
  } else if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel)) {
    if (std::optional<llvm::ArrayRef<int32_t>> known = func.getKnownBlockSize())
      return (*known)[0];
  }
  return std::nullopt;
}

/// Whether `op` keeps its result within a warp's lanes whatever it is given:
/// a remainder (arith.rem*, or an affine map with `mod`).
bool reducesToLane(Operation *op) {
  if (isa<arith::RemUIOp, arith::RemSIOp>(op))
    return true;
  auto apply = dyn_cast<affine::AffineApplyOp>(op);
  if (!apply)
    return false;
  bool hasMod = false;
  apply.getAffineMap().walkExprs([&](AffineExpr expr) {
    hasMod |= expr.getKind() == AffineExprKind::Mod;
  });
  return hasMod;
}

/// The op that reads the thread index x into `value`, looking through the
/// indices of loads (a fragment is loaded at the lane's place), pure ops and
/// loop counters, but not through a remainder or gpu.lane_id, which keep it
/// within a warp; null when there is none.
Operation *threadIdXSourceOf(Value value) {
  SmallVector<Value> work{value};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!v || !seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (Operation *launch = traceBlockArgument(arg, /*xOnly=*/true,
                                                 /*carried=*/false, work))
        return launch;
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      if (id.getDimension() == gpu::Dimension::x)
        return op;
      continue;
    }
    if (isa<NVVM::ThreadIdXOp>(op))
      return op;
    if (reducesToLane(op) || op->getNumRegions() > 0)
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      work.append(load.getIndices().begin(), load.getIndices().end());
      continue;
    }
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      work.append(load.getIndices().begin(), load.getIndices().end());
      continue;
    }
    if (!isMemoryEffectFree(op))
      continue;
    work.append(op->operand_begin(), op->operand_end());
  }
  return nullptr;
}

/// nvgpu.mma.sync wants each lane's own fragment. Taking the lane from the
/// thread index x (as transform.nvgpu.rewrite_matmul_as_mma_sync does) is
/// right only when a block has 32 threads in x; with more, the second warp
/// loads and stores fragments of lanes 32 and up: outside its tile.
unsigned lintMmaLaneFromThreadId(Operation *op) {
  auto mma = dyn_cast<nvgpu::MmaSyncOp>(op);
  Operation *kernel = mma ? enclosingKernel(op) : nullptr;
  std::optional<int64_t> threads =
      kernel ? threadsInX(kernel) : std::optional<int64_t>();
  if (!threads || *threads <= 32)
    return 0;
  for (Value operand : mma->getOperands()) {
    Operation *source = threadIdXSourceOf(operand);
    if (!source)
      continue;
    InFlightDiagnostic warning =
        op->emitWarning()
        << quoted(op)
        << " takes each lane's fragment at the thread index x, but the "
           "block has "
        << *threads
        << " threads in x: threads 32 and up are the lanes of another warp "
           "yet load and store the fragments of lanes 32 and up, outside "
           "their warp's tile; give the block 32 threads in x and put the "
           "warps in y and z (mapping "
           "#gpu.warp<y>, #gpu.warp<z>), or index the fragment by "
           "gpu.lane_id";
    warning.attachNote(kernel->getLoc()) << "the kernel";
    warning.attachNote(source->getLoc()) << "the thread index x is read here";
    return 1;
  }
  return 0;
}

// [SECTION] Ops the chip cannot run ------------------------------------------

bool isNvidiaChip(llvm::StringRef chip) { return chip.starts_with("sm_"); }
bool isAmdChip(llvm::StringRef chip) { return chip.starts_with("gfx"); }
/// gfx10xx, gfx11xx, gfx12xx: RDNA; gfx9xx: GCN and CDNA.
bool isRdnaChip(llvm::StringRef chip) {
  return chip.starts_with("gfx1") && chip.size() >= 7;
}

bool isRdnaOnly(llvm::StringRef name) {
  return name == "amdgpu.wmma" || name.starts_with("rocdl.wmma.");
}
bool isCdnaOnly(llvm::StringRef name) {
  return name == "amdgpu.mfma" || name == "amdgpu.scaled_mfma" ||
         name == "amdgpu.sparse_mfma" || name.starts_with("rocdl.mfma.") ||
         name.starts_with("rocdl.smfmac.");
}

/// Why `chip` cannot run an op named `name`; empty when it can.
std::string chipMismatch(llvm::StringRef name, llvm::StringRef chip) {
  llvm::StringRef dialect = name.split('.').first;
  if (isAmdChip(chip) && (dialect == "nvgpu" || dialect == "nvvm"))
    return llvm::formatv("is an NVIDIA op, and {0} is an AMD chip", chip);
  if (isNvidiaChip(chip) && (dialect == "amdgpu" || dialect == "rocdl"))
    return llvm::formatv("is an AMD op, and {0} is an NVIDIA chip", chip);
  if (isAmdChip(chip) && !isRdnaChip(chip) && isRdnaOnly(name))
    return llvm::formatv("is an RDNA instruction (gfx11, gfx12), and {0} is "
                         "a CDNA chip, which has none (use amdgpu.mfma)",
                         chip);
  if (isAmdChip(chip) && !isRdnaChip(chip) &&
      name.starts_with("gpu.subgroup_mma_"))
    return llvm::formatv("lowers on AMD only to RDNA's WMMA (gfx11, gfx12), "
                         "and {0} is a CDNA chip, which has none (write "
                         "amdgpu.mfma, or vector.contract for the AMD "
                         "lowering to choose)",
                         chip);
  if (isAmdChip(chip) && name == "cf.assert")
    return llvm::formatv("in a kernel lowers only for NVIDIA chips (to "
                         "__assertfail), and {0} is an AMD chip: MLIR 22's "
                         "convert-gpu-to-rocdl leaves it to a failed "
                         "llvm.mlir.addressof",
                         chip);
  if (isRdnaChip(chip) && isCdnaOnly(name))
    return llvm::formatv("is a CDNA instruction (gfx908 to gfx950), and {0} "
                         "is an RDNA chip, which has none (use amdgpu.wmma)",
                         chip);
  return "";
}

/// One warning per op name, at its first use, with how many more there are.
unsigned lintChipOps(Operation *root, llvm::StringRef chip) {
  llvm::StringMap<std::pair<Operation *, unsigned>> found;
  std::vector<std::string> order;
  root->walk([&](Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    if (chipMismatch(name, chip).empty())
      return;
    if (name == "cf.assert" && !enclosingKernel(op))
      return; // the host's asserts lower for every chip
    auto [it, inserted] = found.try_emplace(name, op, 0);
    ++it->second.second;
    if (inserted)
      order.push_back(name.str());
  });
  for (const std::string &name : order) {
    auto [op, count] = found[name];
    InFlightDiagnostic warning =
        op->emitWarning() << "'" << name << "' " << chipMismatch(name, chip)
                          << "; upstream's lowering of it fails or "
                             "makes code the chip cannot run";
    if (count > 1)
      warning << " (" << count - 1 << " more use" << (count > 2 ? "s" : "")
              << " below)";
  }
  return unsigned(order.size());
}

struct KlxLintPass : klx::impl::KlxLintPassBase<KlxLintPass> {
  using KlxLintPassBase::KlxLintPassBase;
  void runOnOperation() override {
    lintKernels(getOperation(), chip);
    markAllAnalysesPreserved();
  }
};

} // namespace

unsigned klx::lintKernels(Operation *root, llvm::StringRef chip) {
  unsigned warnings = 0;
  root->walk([&](Operation *op) {
    warnings += lintWorkgroupAlloc(op);
    warnings += lintDivergentBarrier(op);
    warnings += lintConstantParity(op);
    warnings += lintMmaLaneFromThreadId(op);
  });
  if (!chip.empty())
    warnings += lintChipOps(root, chip);
  return warnings;
}
