//===- ThreadPlaces.cpp - Addresses, shared memory and register arrays ----===//
//
// What the one-thread interpreter holds besides plain integers: mbarrier
// and shared-memory addresses (KernelMemory's symbolic ones, through
// pointer casts and getelementptr), where each memref in shared memory
// starts (dynamic shared memory, views, subviews, globals, wgmma
// descriptors) and the thread's register arrays (memref.alloca).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Threads/Interpreter.h"

#include "Analysis/Threads/IntegerFold.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace klx::threads;

namespace {

std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

bool isShared(MemRefType type) {
  return nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(type);
}

} // namespace

/// Shared-memory and mbarrier addresses held as integers or pointers.
bool Interpreter::evalAddress(Operation *op) {
  KernelMemory &memory = kernel.memory;
  auto copyValue = [&](Value from, Value to) {
    if (std::optional<uint64_t> v = get(from))
      values[to] = *v; // pointers keep the full address
    else
      forget(to, explain(from));
    return true;
  };
  if (auto barrier = dyn_cast<nvgpu::MBarrierGetOp>(op)) {
    int group = memory.groupOf(barrier.getBarriers());
    if (std::optional<uint64_t> slot = get(barrier.getMbarId()))
      set(barrier.getResult(),
          memory.address(memory.barrierPlace(group, int64_t(*slot))));
    else
      forget(barrier.getResult(), explain(barrier.getMbarId()));
    return true;
  }
  if (isa<LLVM::IntToPtrOp, LLVM::PtrToIntOp, LLVM::AddrSpaceCastOp,
          LLVM::BitcastOp>(op))
    return copyValue(op->getOperand(0), op->getResult(0));
  if (auto address = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(op)) {
    auto it = places.find(address.getSource());
    if (it == places.end())
      forget(address.getResult(),
             {"it is the address of memory klx does not place", op});
    else
      set(address.getResult(), memory.address(it->second));
    return true;
  }
  if (auto global = dyn_cast<LLVM::AddressOfOp>(op)) {
    values[global.getResult()] = memory.address(
        {memory.namedSpace("@" + global.getGlobalName().str()), 0});
    return true;
  }
  if (auto gep = dyn_cast<LLVM::GEPOp>(op)) {
    auto element = dyn_cast<IntegerType>(gep.getElemType());
    std::optional<uint64_t> base = get(gep.getBase());
    auto indices = gep.getIndices();
    if (!element || !base || indices.size() != 1 ||
        element.getWidth() % 8 != 0) {
      forget(gep.getResult(),
             {"the address arithmetic of 'llvm.getelementptr' is not "
              "followed (klx reads one index over an integer element)",
              op});
      return true;
    }
    std::optional<uint64_t> index;
    if (auto attr = dyn_cast<IntegerAttr>(indices[0]))
      index = uint64_t(attr.getInt());
    else
      index = get(cast<Value>(indices[0]));
    if (!index)
      forget(gep.getResult(), explain(cast<Value>(indices[0])));
    else
      values[gep.getResult()] = *base + *index * (element.getWidth() / 8);
    return true;
  }
  return false;
}

/// Memrefs in shared memory: where each starts.
bool Interpreter::evalPlace(Operation *op) {
  KernelMemory &memory = kernel.memory;
  auto placeFrom = [&](Value from, Value to, int64_t bytes) {
    auto it = places.find(from);
    if (it == places.end())
      forget(to, explain(from));
    else
      places[to] = {it->second.space, it->second.offset + bytes};
    return true;
  };
  if (auto smem = dyn_cast<gpu::DynamicSharedMemoryOp>(op)) {
    places[smem.getResult()] = {memory.dynamicSharedSpace(), 0};
    return true;
  }
  if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
    if (isShared(global.getType()))
      places[global.getResult()] = {
          memory.namedSpace("@" + global.getName().str()), 0};
    return true;
  }
  if (auto view = dyn_cast<memref::ViewOp>(op)) {
    std::optional<uint64_t> shift = get(view.getByteShift());
    if (!shift) {
      forget(view.getResult(), explain(view.getByteShift()));
      return true;
    }
    return placeFrom(view.getSource(), view.getResult(), int64_t(*shift));
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(op)) {
    SmallVector<int64_t> strides;
    int64_t offset;
    MemRefType source = subview.getSourceType();
    if (failed(source.getStridesAndOffset(strides, offset)) ||
        llvm::any_of(strides, ShapedType::isDynamic)) {
      forget(subview.getResult(),
             {"the subview's source has strides klx does not know", op});
      return true;
    }
    int64_t elements = 0;
    for (auto [i, ofr] : llvm::enumerate(subview.getMixedOffsets())) {
      std::optional<uint64_t> at;
      if (auto attr = dyn_cast<Attribute>(ofr))
        at = uint64_t(cast<IntegerAttr>(attr).getInt());
      else
        at = get(cast<Value>(ofr));
      if (!at) {
        forget(subview.getResult(), explain(cast<Value>(ofr)));
        return true;
      }
      elements += int64_t(*at) * strides[i];
    }
    int64_t bits = source.getElementTypeBitWidth();
    return placeFrom(subview.getSource(), subview.getResult(),
                     elements * bits / 8);
  }
  if (isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp>(op))
    return placeFrom(op->getOperand(0), op->getResult(0), 0);
  if (auto descriptor = dyn_cast<nvgpu::WarpgroupGenerateDescriptorOp>(op))
    return placeFrom(descriptor.getTensor(), descriptor.getDescriptor(), 0);
  return false;
}

int Interpreter::regionOfMemref(Value memref, Operation *user) {
  auto it = places.find(memref);
  MemRefType type;
  if (auto descriptor =
          dyn_cast<nvgpu::WarpgroupMatrixDescriptorType>(memref.getType()))
    type = descriptor.getTensor();
  else
    type = dyn_cast<MemRefType>(memref.getType());
  if (it == places.end() || !type) {
    kernel.memory.noteUnplaced("klx cannot tell which shared memory " +
                                   opName(user) +
                                   " uses: " + explain(memref).why,
                               user);
    return -1;
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic) ||
      !type.getElementType().isIntOrIndexOrFloat()) {
    kernel.memory.noteUnplaced(
        "the shared memory " + opName(user) + " uses has no static size", user);
    return -1;
  }
  int64_t span = 1;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides))
    span += (size - 1) * stride;
  int64_t bytes = span * int64_t(type.getElementTypeBitWidth()) / 8;
  return kernel.memory.regionOf({it->second.space, it->second.offset, bytes});
}

/// A thread's register arrays: memref.alloca written and read at indices
/// the thread computes.
bool Interpreter::evalPrivateArray(Operation *op) {
  auto linearIndex = [&](Value memref, ValueRange indices,
                         std::optional<int64_t> &out) -> Reason {
    auto type = cast<MemRefType>(memref.getType());
    int64_t index = 0;
    for (auto [i, value] : llvm::enumerate(indices)) {
      std::optional<uint64_t> v = get(value);
      if (!v)
        return explain(value);
      if (int64_t(*v) < 0 || int64_t(*v) >= type.getDimSize(i))
        return {llvm::formatv("index {0} is outside the array", *v).str(), op};
      index = index * type.getDimSize(i) + int64_t(*v);
    }
    out = index;
    return {};
  };
  if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
    MemRefType type = alloca.getType();
    if (type.hasStaticShape() && type.getLayout().isIdentity() &&
        type.getElementType().isIntOrIndex() && type.getNumElements() <= 4096)
      arrays[alloca.getResult()] = {
          std::vector<std::optional<uint64_t>>(type.getNumElements()), {}};
    return true;
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    auto it = arrays.find(store.getMemRef());
    if (it == arrays.end())
      return false;
    std::optional<int64_t> index;
    Reason why = linearIndex(store.getMemRef(), store.getIndices(), index);
    if (!index) {
      it->second.lost = {
          "it was written at an index klx does not know (" + why.why + ")", op};
      return true;
    }
    it->second.elements[*index] = get(store.getValueToStore());
    return true;
  }
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    auto it = arrays.find(load.getMemRef());
    if (it == arrays.end())
      return false;
    if (!it->second.lost.why.empty()) {
      forget(load.getResult(), it->second.lost);
      return true;
    }
    std::optional<int64_t> index;
    Reason why = linearIndex(load.getMemRef(), load.getIndices(), index);
    if (!index)
      forget(load.getResult(), why);
    else if (std::optional<uint64_t> v = it->second.elements[*index])
      set(load.getResult(), *v);
    else
      forget(load.getResult(),
             {llvm::formatv("element {0} of the register array holds no "
                            "value klx knows",
                            *index)
                  .str(),
              op});
    return true;
  }
  return false;
}
