//===- KernelMemory.cpp - Barriers and shared memory a kernel names -------===//

#include "Analysis/Threads/KernelMemory.h"

#include "klx/Dialect/Klx/IR/KlxDialect.h"
#include "klx/Support/Diagnostics.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace klx;
using namespace klx::threads;

namespace {
/// Each space's symbolic base is a multiple of this: 16 MB apart, far
/// more than a CTA's shared memory, and 255 of them fit in 32 bits.
constexpr uint64_t kSpaceStride = uint64_t(1) << 24;
constexpr uint64_t kBarrierBytes = 8;
} // namespace

KernelMemory::KernelMemory(std::function<unsigned(Operation *)> lineOf,
                           const SourceNames *names)
    : lineOf(std::move(lineOf)), names(names) {}

std::string KernelMemory::uniqueName(std::string name) {
  // The checks match barriers by name: two groups never share one.
  if (unsigned uses = ++nameUses[name]; uses > 1)
    name += "#" + std::to_string(uses);
  return name;
}

int KernelMemory::namedSpace(const std::string &name) {
  auto [it, inserted] = spaceByName.try_emplace(name, int(spaces.size()));
  if (inserted)
    spaces.push_back({name, -1});
  return it->second;
}

int KernelMemory::dynamicSharedSpace() { return namedSpace("dynamic smem"); }

int KernelMemory::groupOf(Value group) {
  auto [it, inserted] = groupByValue.try_emplace(group, 0);
  if (!inserted)
    return it->second;
  Operation *create = group.getDefiningOp();
  std::string name = "mbarrier";
  std::string written = names && create ? names->resultName(create) : "";
  if (auto attr = create
                      ? create->getAttrOfType<StringAttr>(kBarrierNameAttrName)
                      : nullptr)
    name = attr.getValue().str();
  else if (!written.empty())
    name = written;
  else if (SourceLoc loc = create ? toSourceLoc(create->getLoc()) : SourceLoc();
           loc.isKnown())
    name = llvm::formatv("mbarrier@{0}", loc.line).str();
  auto type = cast<nvgpu::MBarrierGroupType>(group.getType());
  it->second = int(groupInfo.size());
  groupInfo.push_back(
      {uniqueName(name), int64_t(type.getNumBarriers()), create});
  spaces.push_back({groupInfo.back().name, it->second});
  groupSpace.push_back(int(spaces.size()) - 1);
  return it->second;
}

Place KernelMemory::barrierPlace(int group, int64_t slot) const {
  return {groupSpace[group], slot * int64_t(kBarrierBytes)};
}

uint64_t KernelMemory::address(Place place) const {
  return (uint64_t(place.space) + 1) * kSpaceStride + uint64_t(place.offset);
}

std::optional<Place> KernelMemory::decode(uint64_t address) const {
  uint64_t space = address / kSpaceStride;
  if (space == 0 || space > spaces.size())
    return std::nullopt;
  return Place{int(space - 1), int64_t(address % kSpaceStride)};
}

std::optional<std::pair<int, int64_t>>
KernelMemory::barrierAt(Place place, std::string &why) {
  if (place.space < 0 || place.space >= int(spaces.size())) {
    why = "the address is not one klx can trace to shared memory";
    return std::nullopt;
  }
  if (place.offset % kBarrierBytes != 0) {
    why = llvm::formatv("the mbarrier address {0}+{1} is not 8-byte aligned",
                        spaces[place.space].name, place.offset);
    return std::nullopt;
  }
  if (int group = spaces[place.space].group; group >= 0) {
    int64_t slot = place.offset / kBarrierBytes;
    if (slot >= groupInfo[group].slots) {
      why = llvm::formatv("the address is past the {0} barriers of {1}",
                          groupInfo[group].slots, groupInfo[group].name);
      return std::nullopt;
    }
    return std::make_pair(group, slot);
  }
  auto [it, inserted] =
      groupByPlace.try_emplace({place.space, place.offset}, 0);
  if (inserted) {
    it->second = int(groupInfo.size());
    groupInfo.push_back(
        {uniqueName(
             llvm::formatv("{0}+{1}", spaces[place.space].name, place.offset)),
         1, nullptr});
    groupSpace.push_back(-1);
  }
  return std::make_pair(it->second, int64_t(0));
}

int KernelMemory::regionOf(MemoryRegion region) {
  auto key = std::make_tuple(region.space, region.offset, region.bytes);
  auto [it, inserted] = regionIndex.try_emplace(key, int(regionList.size()));
  if (inserted)
    regionList.push_back(region);
  return it->second;
}

std::string KernelMemory::regionName(int region) const {
  const MemoryRegion &r = regionList[region];
  return llvm::formatv("{0} [{1}, {2})", spaces[r.space].name, r.offset,
                       r.offset + r.bytes);
}

void KernelMemory::noteUnplaced(const std::string &why, Operation *at) {
  if (!unplaced.empty())
    return;
  unplaced = why;
  unplacedOp = at;
  if (unsigned line = at && lineOf ? lineOf(at) : 0)
    unplaced += llvm::formatv(" (IR line {0})", line).str();
}
