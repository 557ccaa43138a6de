//===- ThreadProtocolOps.cpp - What a thread does to barriers -------------===//
//
// The ops the one-thread interpreter writes down: nvgpu and nvvm mbarrier
// ops (a group and index, or an address), TMA copies, CTA and named
// barriers, warpgroup MMAs and their waits, and loads from shared memory.
// An op that touches a barrier in a way klx does not model stops the run
// with its name: a model that left it out would give a false verdict.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Threads/Interpreter.h"

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace klx::threads;
using Kind = TraceEntry::Kind;

namespace {

std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

/// Ops (by name) that are part of a barrier protocol or touch one.
bool isProtocolName(llvm::StringRef name) {
  for (llvm::StringRef prefix :
       {"nvgpu.mbarrier.", "nvgpu.tma.async.load", "nvvm.mbarrier.",
        "nvvm.cp.async.bulk.", "nvvm.cp.async.mbarrier", "nvvm.barrier",
        "gpu.barrier"})
    if (name.starts_with(prefix))
      return true;
  return name == "nvgpu.warpgroup.mma" || name == "nvvm.wgmma.mma_async" ||
         name == "klx.wgmma_register_a" ||
         name == "nvvm.wgmma.wait.group.sync.aligned";
}

/// The nvgpu descriptor behind an i64 one (klx-to-nvgpu's cast of it, moved
/// on by llvm.add), or null.
Value describedView(Value descriptor) {
  while (Operation *def = descriptor.getDefiningOp()) {
    if (auto add = dyn_cast<LLVM::AddOp>(def))
      descriptor = add.getLhs();
    else if (auto cast = dyn_cast<UnrealizedConversionCastOp>(def);
             cast && cast->getNumOperands() == 1)
      descriptor = cast->getOperand(0);
    else
      break;
  }
  return isa<nvgpu::WarpgroupMatrixDescriptorType>(descriptor.getType())
             ? descriptor
             : Value();
}

} // namespace

bool klx::threads::touchesProtocol(Operation *op) {
  bool found = false;
  op->walk([&](Operation *nested) {
    if (isProtocolName(nested->getName().getStringRef()))
      found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

void Interpreter::record(TraceEntry entry) {
  entry.iteration = loops.empty() ? -1 : loops.back();
  // Runs of loads from one region (a copy loop) are one read, counted
  // as the first.
  if (entry.kind == Kind::Read && !trace.empty() &&
      trace.back().kind == Kind::Read && trace.back().reads == entry.reads)
    return;
  trace.push_back(std::move(entry));
}

Interpreter::MaybeStop Interpreter::predicate(Operation *op, Value pred,
                                              bool &runs) {
  runs = true;
  if (!pred)
    return std::nullopt;
  uint64_t v;
  if (MaybeStop stop = needs(op, pred, "the predicate", v))
    return stop;
  runs = (v & 1) != 0;
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::groupSlot(Operation *op, Value group,
                                              Value index, TraceEntry &entry) {
  uint64_t slot;
  if (MaybeStop stop = needs(op, index, "the mbarrier index", slot))
    return stop;
  entry.group = kernel.memory.groupOf(group);
  int64_t slots = kernel.memory.groups()[entry.group].slots;
  if (slot >= uint64_t(slots))
    return fail(op, llvm::formatv("mbarrier index {0} is outside the group of "
                                  "{1}",
                                  slot, slots));
  entry.slot = int64_t(slot);
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::barrierAddress(Operation *op, Value address,
                                                   TraceEntry &entry) {
  uint64_t at;
  if (MaybeStop stop = needs(op, address, "the mbarrier address", at))
    return stop;
  std::optional<Place> place = kernel.memory.decode(at);
  std::string why = "the address is not one klx can trace to shared memory";
  std::optional<std::pair<int, int64_t>> barrier =
      place ? kernel.memory.barrierAt(*place, why) : std::nullopt;
  if (!barrier)
    return fail(op, "the mbarrier is not known: " + why);
  entry.group = barrier->first;
  entry.slot = barrier->second;
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::recordProtocolOp(Operation *op,
                                                     bool &handled) {
  for (auto recorder :
       {&Interpreter::recordNvgpuBarrierOp, &Interpreter::recordNvvmBarrierOp,
        &Interpreter::recordSyncOp, &Interpreter::recordMemoryOp}) {
    if (MaybeStop stop = (this->*recorder)(op, handled))
      return stop;
    if (handled)
      return std::nullopt;
  }
  if (isProtocolName(op->getName().getStringRef()))
    return fail(op, opName(op) + " acts on a barrier in a way klx does not "
                                 "model");
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::recordBarrierOp(
    Operation *op, const BarrierOperands &operands,
    llvm::function_ref<MaybeStop(TraceEntry &)> locate) {
  TraceEntry entry;
  entry.op = op;
  entry.kind = operands.kind;
  bool runs = true;
  if (MaybeStop stop = predicate(op, operands.predicate, runs); stop || !runs)
    return stop;
  if (MaybeStop stop = locate(entry))
    return stop;
  uint64_t v = 0;
  if (operands.count) {
    if (MaybeStop stop = needs(op, operands.count,
                               entry.kind == Kind::Init ? "the init count"
                                                        : "the arrival count",
                               v))
      return stop;
    entry.count = int64_t(v);
  }
  if (operands.bytes) {
    if (MaybeStop stop = needs(op, operands.bytes, "the expected bytes", v))
      return stop;
    entry.bytes = int64_t(v);
  }
  if (operands.parity) {
    if (MaybeStop stop = needs(op, operands.parity, "the wait's parity", v))
      return stop;
    entry.parity = int(v & 1);
  }
  record(std::move(entry));
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::recordNvgpuBarrierOp(Operation *op,
                                                         bool &handled) {
  handled = true;
  if (auto create = dyn_cast<nvgpu::MBarrierCreateOp>(op)) {
    (void)kernel.memory.groupOf(create.getBarriers());
    return std::nullopt;
  }
  // nvgpu ops name their barrier by group and index.
  Value group, index;
  BarrierOperands operands;
  if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op)) {
    group = init.getBarriers(), index = init.getMbarId();
    operands = {Kind::Init, init.getPredicate(), init.getCount(), {}, {}};
  } else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveOp>(op)) {
    group = arrive.getBarriers(), index = arrive.getMbarId();
    operands = {Kind::Arrive, {}, {}, {}, {}};
  } else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveNoCompleteOp>(op)) {
    group = arrive.getBarriers(), index = arrive.getMbarId();
    operands = {Kind::Arrive, {}, arrive.getCount(), {}, {}};
  } else if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op)) {
    group = expect.getBarriers(), index = expect.getMbarId();
    operands = {Kind::ArriveExpectTx,
                expect.getPredicate(),
                {},
                expect.getTxcount(),
                {}};
  } else if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op)) {
    group = wait.getBarriers(), index = wait.getMbarId();
    operands = {Kind::Wait, {}, {}, {}, wait.getPhaseParity()};
  } else {
    handled = false;
    return std::nullopt;
  }
  return recordBarrierOp(op, operands, [&](TraceEntry &entry) {
    return groupSlot(op, group, index, entry);
  });
}

Interpreter::MaybeStop Interpreter::recordNvvmBarrierOp(Operation *op,
                                                        bool &handled) {
  handled = true;
  auto clusterScope = [&](NVVM::MemScopeKindAttr scope) -> MaybeStop {
    if (scope && scope.getValue() != NVVM::MemScopeKind::CTA)
      return fail(op, "an mbarrier op at cluster scope (clusters are not "
                      "modelled)");
    return std::nullopt;
  };
  // nvvm ops name their barrier by address.
  Value address;
  BarrierOperands operands;
  if (auto init = dyn_cast<NVVM::MBarrierInitOp>(op)) {
    address = init.getAddr();
    operands = {Kind::Init, init.getPredicate(), init.getCount(), {}, {}};
  } else if (auto arrive = dyn_cast<NVVM::MBarrierArriveOp>(op)) {
    if (MaybeStop stop = clusterScope(arrive.getScopeAttr()))
      return stop;
    address = arrive.getAddr();
    operands = {Kind::Arrive, {}, arrive.getCount(), {}, {}};
  } else if (auto arrive = dyn_cast<NVVM::MBarrierArriveNocompleteOp>(op)) {
    address = arrive.getAddr();
    operands = {Kind::Arrive, {}, arrive.getCount(), {}, {}};
  } else if (auto expect = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op)) {
    if (MaybeStop stop = clusterScope(expect.getScopeAttr()))
      return stop;
    address = expect.getAddr();
    operands = {Kind::ArriveExpectTx,
                expect.getPredicate(),
                {},
                expect.getTxcount(),
                {}};
  } else if (auto expect = dyn_cast<NVVM::MBarrierExpectTxOp>(op)) {
    if (MaybeStop stop = clusterScope(expect.getScopeAttr()))
      return stop;
    address = expect.getAddr();
    operands = {Kind::ExpectTx, {}, {}, expect.getTxcount(), {}};
  } else if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op)) {
    address = wait.getAddr();
    operands = {Kind::Wait, {}, {}, {}, wait.getPhase()};
  } else if (isa<NVVM::MBarrierInvalOp>(op)) {
    return std::nullopt; // the barrier's memory is given back: no protocol
  } else if (isa<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(op)) {
    return fail(op, "the bytes a TMA copy in nvvm form delivers are in its "
                    "tensor map, which the kernel does not show (write it as "
                    "nvgpu.tma.async.load for klx to model it)");
  } else {
    handled = false;
    return std::nullopt;
  }
  return recordBarrierOp(op, operands, [&](TraceEntry &entry) {
    return barrierAddress(op, address, entry);
  });
}

Interpreter::MaybeStop Interpreter::recordSyncOp(Operation *op, bool &handled) {
  handled = true;
  TraceEntry entry;
  entry.op = op;
  uint64_t v = 0;
  auto readId = [&](Value id, Value threads) -> MaybeStop {
    entry.syncId = 0;
    entry.count = 0;
    if (id) {
      if (MaybeStop stop = needs(op, id, "the named barrier's id", v))
        return stop;
      entry.syncId = int64_t(v);
    }
    if (threads) {
      if (MaybeStop stop = needs(op, threads,
                                 "the named barrier's thread "
                                 "count",
                                 v))
        return stop;
      entry.count = int64_t(v);
    }
    return std::nullopt;
  };
  if (isa<gpu::BarrierOp, NVVM::Barrier0Op>(op)) {
    entry.kind = Kind::Sync;
    entry.count = 0;
  } else if (auto bar = dyn_cast<NVVM::BarrierOp>(op)) {
    if (MaybeStop stop = readId(bar.getBarrierId(), bar.getNumberOfThreads()))
      return stop;
    entry.kind = Kind::Sync;
  } else if (auto bar = dyn_cast<NVVM::BarrierArriveOp>(op)) {
    if (MaybeStop stop = readId(bar.getBarrierId(), bar.getNumberOfThreads()))
      return stop;
    entry.kind = Kind::SyncArrive;
  } else {
    handled = false;
    return std::nullopt;
  }
  record(std::move(entry));
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::recordMemoryOp(Operation *op,
                                                   bool &handled) {
  handled = true;
  TraceEntry entry;
  entry.op = op;
  if (auto copy = dyn_cast<nvgpu::TmaAsyncLoadOp>(op)) {
    bool runs = true;
    if (MaybeStop stop = predicate(op, copy.getPredicate(), runs);
        stop || !runs)
      return stop;
    if (copy.getMulticastMask())
      return fail(op, "a TMA copy multicast to a cluster (clusters are not "
                      "modelled)");
    if (MaybeStop stop =
            groupSlot(op, copy.getBarriers(), copy.getMbarId(), entry))
      return stop;
    auto type = cast<MemRefType>(copy.getDst().getType());
    if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
      return fail(op, "the copy's destination has no static size");
    entry.kind = Kind::Copy;
    entry.bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
    entry.region = regionOfMemref(copy.getDst(), op);
  } else if (auto mma = dyn_cast<nvgpu::WarpgroupMmaOp>(op)) {
    entry.kind = Kind::Compute;
    for (Value descriptor : {mma.getDescriptorA(), mma.getDescriptorB()})
      if (int region = regionOfMemref(descriptor, op); region >= 0)
        entry.reads.push_back(region);
    entry.waitGroup = int64_t(mma.getWaitGroup());
    for (Value result : op->getResults())
      forget(result, {"it is an MMA's result", op});
  } else if (isa<nvgpu::MmaSyncOp>(op)) {
    entry.kind = Kind::Compute; // registers in, registers out
  } else if (isa<NVVM::WgmmaMmaAsyncOp>(op)) {
    // Its operands are descriptors held as integers: where they point is
    // not followed, and it stays in flight until a wait_group.
    entry.kind = Kind::Compute;
    entry.waitGroup = std::numeric_limits<int64_t>::max();
    kernel.memory.noteUnplaced("the shared memory 'nvvm.wgmma.mma_async' "
                               "reads is given by a descriptor klx does not "
                               "decode",
                               op);
  } else if (auto mma = dyn_cast<klx::WgmmaRegisterAOp>(op)) {
    // A is in registers; B's descriptor is klx-to-nvgpu's, advanced 16
    // rows at a time: the stage it reads is the one it was generated for.
    // In flight until a wait_group.
    entry.kind = Kind::Compute;
    entry.waitGroup = std::numeric_limits<int64_t>::max();
    if (Value view = describedView(mma.getDescriptorB()))
      if (int region = regionOfMemref(view, op); region >= 0)
        entry.reads.push_back(region);
  } else if (auto wait = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op)) {
    entry.kind = Kind::MmaWait;
    entry.waitGroup = wait.getGroupAttr().getInt();
  } else if (isa<nvgpu::TmaAsyncStoreOp, NVVM::CpAsyncBulkCommitGroupOp,
                 NVVM::CpAsyncBulkWaitGroupOp>(op)) {
    // A TMA store and the bulk-group waits of the thread that issued it:
    // they wait on that thread's own stores, never on another thread, so
    // they cannot block the protocol (verify says it leaves them out).
    return std::nullopt;
  } else if (isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp,
                 nvgpu::LdMatrixOp>(op)) {
    Value memref = op->getOperand(0);
    for (Value result : op->getResults())
      forget(result, {"it is loaded from memory", op});
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || !nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(type))
      return std::nullopt;
    entry.kind = Kind::Read;
    if (int region = regionOfMemref(memref, op); region >= 0)
      entry.reads.push_back(region);
    else
      return std::nullopt;
  } else {
    handled = false;
    return std::nullopt;
  }
  record(std::move(entry));
  return std::nullopt;
}
