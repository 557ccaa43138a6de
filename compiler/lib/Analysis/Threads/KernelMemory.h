//===- KernelMemory.h - A kernel's barriers and smem ------------*- C++ -*-===//
//
// Private to lib/Analysis: what the runs of a kernel's threads share, so
// that every thread class names the same barrier and the same bytes of
// shared memory alike. A barrier is an nvgpu mbarrier group (its slots), or
// an mbarrier at a shared-memory address that nvvm ops use: addresses are
// symbolic, each space (dynamic shared memory, a workgroup global, a
// workgroup attribution, each nvgpu group) gets a base of its own, so the
// index arithmetic real kernels do on them (`bars[s] = base + 8 s`, a
// pointer in a register array) is evaluated like any integer and decoded
// back when an op uses it.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_KERNELMEMORY_H
#define KLX_LIB_ANALYSIS_THREADS_KERNELMEMORY_H

#include "klx/Support/SourceNames.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace klx::threads {

/// An mbarrier group: nvgpu's, or one barrier at a shared address.
struct BarrierGroupInfo {
  std::string name; // "full", "mbarrier@72", "dynamic smem+16"
  int64_t slots = 1;
  mlir::Operation *createdAt = nullptr;
};

/// Bytes of one space of shared memory.
struct MemoryRegion {
  int space = 0;
  int64_t offset = 0, bytes = 0;
};

/// A place in shared memory (or an nvgpu group) as the interpreter holds
/// it: the space and the byte offset in it.
struct Place {
  int space = -1;
  int64_t offset = 0;
};

class KernelMemory {
public:
  /// Barriers created without a klx.barrier name are named as `names`
  /// says the input text names them, else by `lineOf` ("mbarrier@72").
  KernelMemory(std::function<unsigned(mlir::Operation *)> lineOf,
               const SourceNames *names = nullptr);

  /// The space of dynamic shared memory, of a workgroup global (by symbol
  /// name) or of a workgroup attribution (by value).
  int dynamicSharedSpace();
  int namedSpace(const std::string &name);
  /// The group of an nvgpu.mbarrier.create result.
  int groupOf(mlir::Value group);
  /// Where barrier `slot` of an nvgpu group lies (its own space).
  Place barrierPlace(int group, int64_t slot) const;
  /// Symbolic address of `place`, and back (nullopt: not an address klx
  /// made).
  uint64_t address(Place place) const;
  std::optional<Place> decode(uint64_t address) const;
  /// The barrier at `place`: a slot of an nvgpu group, or a barrier of its
  /// own at a shared address (made on first use). Nullopt with a reason
  /// when the address is not 8-byte aligned or past a group's slots.
  std::optional<std::pair<int, int64_t>> barrierAt(Place place,
                                                   std::string &why);
  /// The index of a region, made on first use.
  int regionOf(MemoryRegion region);

  const std::vector<BarrierGroupInfo> &groups() const { return groupInfo; }
  const std::vector<MemoryRegion> &regions() const { return regionList; }
  const std::string &spaceName(int space) const { return spaces[space].name; }
  /// "dynamic smem [1024, 17408)": the space and the bytes in it.
  std::string regionName(int region) const;

  /// Why some reads or writes could not be placed, with the op: the stage
  /// race checks are then incomplete. The first reason is kept.
  void noteUnplaced(const std::string &why, mlir::Operation *at);
  const std::string &unplacedWhy() const { return unplaced; }
  mlir::Operation *unplacedAt() const { return unplacedOp; }

private:
  struct Space {
    std::string name;
    int group = -1; // an nvgpu group's space: its index
  };
  std::function<unsigned(mlir::Operation *)> lineOf;
  const SourceNames *names;
  std::vector<Space> spaces;
  std::map<std::string, int> spaceByName;
  llvm::DenseMap<mlir::Value, int> groupByValue;
  std::map<std::pair<int, int64_t>, int> groupByPlace;
  std::vector<BarrierGroupInfo> groupInfo;
  std::vector<int> groupSpace; // an nvgpu group's space; -1 for the rest
  std::map<std::tuple<int, int64_t, int64_t>, int> regionIndex;
  std::vector<MemoryRegion> regionList;
  std::map<std::string, unsigned> nameUses;
  std::string unplaced;
  mlir::Operation *unplacedOp = nullptr;

  std::string uniqueName(std::string name);
};

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_KERNELMEMORY_H
