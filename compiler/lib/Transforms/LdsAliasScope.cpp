//===- LdsAliasScope.cpp - One alias scope per named LDS base -------------===//
//
// The AMDGPU backend lays every LDS variable of a kernel into one
// allocation, and its waitcnt insertion tracks outstanding LDS-DMA loads
// by alias scope: an LDS read whose scope says it cannot alias a DMA need
// not wait for it. A kernel that carves one LDS buffer into named bases
// (stage buffers for A and B, say) gets no such scopes from anyone, so
// every read waits for every DMA in flight (`s_waitcnt vmcnt(0)`). The
// bases are declared on the function; this pass finds the base each LDS
// access lies in (checked for constant addresses, promised by the
// declaration for run-time indices from a base's start) and tags it.
//
//===----------------------------------------------------------------------===//

#include "klx/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace klx {
#define GEN_PASS_DEF_KLXLDSALIASSCOPEPASS
#include "klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

constexpr unsigned kLdsAddressSpace = 3;
constexpr int64_t kWaveLanes = 64; // gfx9 waves (gfx942, gfx950)

struct NamedBase {
  std::string name;
  int64_t offset = 0, size = 0;
  LLVM::AliasScopeAttr scope;
};

/// Where an LDS pointer points: the global plus `offset` bytes, and, when
/// `dynamic`, somewhere past that which only the run knows.
struct Derivation {
  int64_t offset = 0;
  bool dynamic = false;
};

bool isLdsPointer(Value v) {
  auto type = dyn_cast<LLVM::LLVMPointerType>(v.getType());
  return type && type.getAddressSpace() == kLdsAddressSpace;
}

class Deriver {
public:
  Deriver(LLVM::GlobalOp root, const DataLayout &layout)
      : root(root), layout(layout) {}

  /// Where `ptr` points, or nullopt where no single chain from the LDS
  /// global leads to it.
  std::optional<Derivation> pointer(Value ptr) {
    if (auto addr = ptr.getDefiningOp<LLVM::AddressOfOp>())
      return addr.getGlobalName() == root.getSymName()
                 ? std::optional<Derivation>(Derivation{})
                 : std::nullopt;
    if (auto gep = ptr.getDefiningOp<LLVM::GEPOp>())
      return throughGep(gep);
    if (auto cast = ptr.getDefiningOp<LLVM::AddrSpaceCastOp>())
      return pointer(cast.getArg());
    if (auto cast = ptr.getDefiningOp<LLVM::IntToPtrOp>())
      return integer(cast.getArg());
    return std::nullopt; // block arguments, selects, loads, calls
  }

  /// True when `v` may hold an address: some chain of integer ops from a
  /// ptrtoint leads to it (through block arguments' incoming values too).
  bool mayCarryAddress(Value v) {
    llvm::SmallPtrSet<void *, 16> seen;
    return mayCarryAddress(v, seen);
  }

private:
  std::optional<Derivation> throughGep(LLVM::GEPOp gep) {
    std::optional<Derivation> base = pointer(gep.getBase());
    if (!base)
      return std::nullopt;
    // Indices that are addresses themselves: an add of two bases.
    for (Value index : gep.getDynamicIndices())
      if (mayCarryAddress(index))
        return std::nullopt;
    std::optional<int64_t> bytes =
        base->dynamic ? std::nullopt : constantOffset(gep);
    if (!bytes)
      return Derivation{base->offset, true};
    return Derivation{base->offset + *bytes, false};
  }

  /// Bytes between consecutive elements of `type` in memory: its size
  /// rounded up to its ABI alignment, as LLVM's GEP counts them.
  int64_t allocSize(Type type) {
    int64_t size = int64_t(layout.getTypeSize(type));
    int64_t align = std::max<int64_t>(1, layout.getTypeABIAlignment(type));
    return (size + align - 1) / align * align;
  }

  /// The byte offset of a GEP whose indices are all constants.
  std::optional<int64_t> constantOffset(LLVM::GEPOp gep) {
    Type type = gep.getElemType();
    int64_t bytes = 0;
    bool first = true;
    for (auto index : gep.getIndices()) {
      // Constants, as attributes or as constant SSA values.
      APInt constant;
      int64_t i = 0;
      if (auto attr = llvm::dyn_cast_if_present<IntegerAttr>(index))
        i = attr.getInt();
      else if (auto value = llvm::dyn_cast_if_present<Value>(index);
               value && matchPattern(value, m_ConstantInt(&constant)))
        i = constant.getSExtValue();
      else
        return std::nullopt;
      if (first) {
        bytes += i * allocSize(type);
        first = false;
        continue;
      }
      if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
        type = array.getElementType();
        bytes += i * allocSize(type);
      } else if (auto vector = dyn_cast<VectorType>(type)) {
        type = vector.getElementType();
        bytes += i * int64_t(layout.getTypeSize(type));
      } else if (auto record = dyn_cast<LLVM::LLVMStructType>(type)) {
        // Field offsets follow the ABI alignment of each field.
        ArrayRef<Type> fields = record.getBody();
        if (i < 0 || i >= int64_t(fields.size()))
          return std::nullopt;
        int64_t at = 0;
        for (int64_t f = 0; f <= i; ++f) {
          int64_t align = record.isPacked()
                              ? 1
                              : int64_t(layout.getTypeABIAlignment(fields[f]));
          at = (at + align - 1) / align * align;
          if (f < i)
            at += int64_t(layout.getTypeSize(fields[f]));
        }
        bytes += at;
        type = fields[i];
      } else {
        return std::nullopt;
      }
    }
    return bytes;
  }

  /// An integer that is an LDS address: ptrtoint, plus offsets.
  std::optional<Derivation> integer(Value v) {
    // A narrower integer may wrap where the address would not.
    auto type = dyn_cast<IntegerType>(v.getType());
    if (!type || type.getWidth() < 32)
      return std::nullopt;
    if (auto cast = v.getDefiningOp<LLVM::PtrToIntOp>())
      return pointer(cast.getArg());
    auto add = v.getDefiningOp<LLVM::AddOp>();
    if (!add)
      return std::nullopt; // or, sub, mul, block arguments, ...
    Value lhs = add.getLhs(), rhs = add.getRhs();
    bool lhsAddress = mayCarryAddress(lhs), rhsAddress = mayCarryAddress(rhs);
    if (lhsAddress == rhsAddress)
      return std::nullopt; // two addresses added, or none
    Value address = lhsAddress ? lhs : rhs, offset = lhsAddress ? rhs : lhs;
    std::optional<Derivation> base = integer(address);
    if (!base)
      return std::nullopt;
    APInt constant;
    if (!base->dynamic && matchPattern(offset, m_ConstantInt(&constant)))
      return Derivation{base->offset + constant.getSExtValue(), false};
    return Derivation{base->offset, true};
  }

  bool mayCarryAddress(Value v, llvm::SmallPtrSet<void *, 16> &seen) {
    if (!seen.insert(v.getAsOpaquePointer()).second)
      return false;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Block *block = arg.getOwner();
      for (auto it = block->pred_begin(); it != block->pred_end(); ++it) {
        auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
        if (!branch)
          return true;
        for (unsigned s = 0; s < branch->getNumSuccessors(); ++s) {
          if (branch->getSuccessor(s) != block)
            continue;
          Value incoming = branch.getSuccessorOperands(s)[arg.getArgNumber()];
          if (!incoming || mayCarryAddress(incoming, seen))
            return true;
        }
      }
      return false;
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (isa<LLVM::PtrToIntOp>(def))
      return true;
    // Integers from memory or calls are offsets, not addresses.
    if (isa<LLVM::LoadOp, LLVM::CallOp>(def) || def->getNumRegions() > 0)
      return false;
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return operand.getType().isIntOrIndex() && mayCarryAddress(operand, seen);
    });
  }

  LLVM::GlobalOp root;
  const DataLayout &layout;
};

/// klx.lds_bases, checked: names with [offset, size], no two overlapping.
FailureOr<SmallVector<NamedBase>> readBases(LLVM::LLVMFuncOp func,
                                            DictionaryAttr declared) {
  SmallVector<NamedBase> bases;
  for (NamedAttribute entry : declared) {
    auto pair = dyn_cast<ArrayAttr>(entry.getValue());
    auto offset =
        pair && pair.size() == 2 ? dyn_cast<IntegerAttr>(pair[0]) : nullptr;
    auto size = offset ? dyn_cast<IntegerAttr>(pair[1]) : nullptr;
    if (!size || offset.getInt() < 0 || size.getInt() <= 0)
      return func.emitOpError()
             << kLdsBasesAttrName << ": base '" << entry.getName().getValue()
             << "' must be [offset, size] in bytes, size > 0";
    bases.push_back(
        {entry.getName().str(), offset.getInt(), size.getInt(), {}});
  }
  llvm::sort(bases, [](const NamedBase &a, const NamedBase &b) {
    return a.offset < b.offset;
  });
  for (size_t i = 1; i < bases.size(); ++i)
    if (bases[i - 1].offset + bases[i - 1].size > bases[i].offset)
      return func.emitOpError()
             << kLdsBasesAttrName << ": bases '" << bases[i - 1].name
             << "' and '" << bases[i].name << "' overlap";
  return bases;
}

/// The one LDS global `func` takes addresses of, or an error.
FailureOr<LLVM::GlobalOp> ldsRoot(LLVM::LLVMFuncOp func) {
  llvm::SetVector<LLVM::GlobalOp> globals;
  SymbolTableCollection symbols;
  func.walk([&](LLVM::AddressOfOp addr) {
    if (auto global = addr.getGlobal(symbols))
      if (global.getAddrSpace() == kLdsAddressSpace)
        globals.insert(global);
  });
  if (globals.size() != 1)
    return func.emitOpError()
           << kLdsBasesAttrName << " describes one LDS allocation, but the "
           << "function takes the address of " << globals.size()
           << " LDS globals";
  return globals.front();
}

} // namespace

LogicalResult klx::tagLdsAliasScopes(LLVM::LLVMFuncOp func) {
  Attribute attr = func->getAttr(kLdsBasesAttrName);
  if (!attr)
    return success();
  auto declared = dyn_cast<DictionaryAttr>(attr);
  if (!declared)
    return func.emitOpError()
           << kLdsBasesAttrName << " must be a dictionary of [offset, size]";
  FailureOr<SmallVector<NamedBase>> bases = readBases(func, declared);
  if (failed(bases))
    return failure();
  if (bases->size() < 2)
    return success(); // one base aliases nothing else
  FailureOr<LLVM::GlobalOp> root = ldsRoot(func);
  if (failed(root))
    return failure();
  DataLayout layout = DataLayout::closest(func);
  int64_t globalBytes = int64_t(layout.getTypeSize(root->getType()));
  const NamedBase &last = bases->back();
  if (last.offset + last.size > globalBytes)
    return func.emitOpError()
           << kLdsBasesAttrName << ": base '" << last.name << "' ends at byte "
           << last.offset + last.size << ", past the " << globalBytes
           << " bytes of @" << root->getSymName();

  MLIRContext *ctx = func.getContext();
  auto domain = LLVM::AliasScopeDomainAttr::get(
      ctx, StringAttr::get(ctx, "klx.lds_bases of " + func.getSymName()));
  for (NamedBase &base : *bases)
    base.scope =
        LLVM::AliasScopeAttr::get(domain, StringAttr::get(ctx, base.name));

  Deriver deriver(*root, layout);
  // The base an access of `bytes` bytes at `ptr` + `extra` lies in: a
  // constant address whose bytes are all inside one base, or a run-time
  // index from a base's own start (its view), which declaring the bases
  // promises stays inside it.
  auto baseOf = [&](Value ptr, int64_t bytes,
                    int64_t extra) -> const NamedBase * {
    std::optional<Derivation> d = deriver.pointer(ptr);
    if (!d)
      return nullptr;
    for (const NamedBase &base : *bases) {
      int64_t end = base.offset + base.size;
      if (d->dynamic
              ? d->offset == base.offset && extra >= 0 && extra < base.size
              : d->offset + extra >= base.offset && bytes > 0 &&
                    d->offset + extra + bytes <= end)
        return &base;
    }
    return nullptr;
  };
  func.walk([&](LLVM::AliasAnalysisOpInterface access) {
    int64_t bytes = 0, extra = 0;
    if (auto load = dyn_cast<LLVM::LoadOp>(access.getOperation()))
      bytes = int64_t(layout.getTypeSize(load.getType()));
    else if (auto store = dyn_cast<LLVM::StoreOp>(access.getOperation()))
      bytes = int64_t(layout.getTypeSize(store.getValue().getType()));
    else if (auto size = access->getAttrOfType<IntegerAttr>("size")) {
      // LDS-DMA: each lane brings `size` bytes and the wave writes them
      // one after another from lane 0's address, plus the op's offset.
      bytes = size.getInt() * kWaveLanes;
      if (auto offset = access->getAttrOfType<IntegerAttr>("offset"))
        extra = offset.getInt();
    }
    const NamedBase *only = nullptr;
    bool lds = false;
    for (Value operand : access.getAccessedOperands()) {
      if (!isLdsPointer(operand))
        continue;
      const NamedBase *base = baseOf(operand, bytes, extra);
      if (!base || (lds && base != only))
        return; // ambiguous, or two bases
      lds = true;
      only = base;
    }
    if (!only)
      return;
    SmallVector<Attribute> scopes, others;
    if (ArrayAttr existing = access.getAliasScopesOrNull())
      llvm::append_range(scopes, existing);
    if (ArrayAttr existing = access.getNoAliasScopesOrNull())
      llvm::append_range(others, existing);
    scopes.push_back(only->scope);
    for (const NamedBase &base : *bases)
      if (&base != only)
        others.push_back(base.scope);
    access.setAliasScopes(ArrayAttr::get(ctx, scopes));
    access.setNoAliasScopes(ArrayAttr::get(ctx, others));
  });
  return success();
}

namespace {

struct KlxLdsAliasScopePass
    : klx::impl::KlxLdsAliasScopePassBase<KlxLdsAliasScopePass> {
  void runOnOperation() override {
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      if (failed(tagLdsAliasScopes(func)))
        signalPassFailure();
    });
  }
};

} // namespace
