//===- KernelShape.cpp - A kernel body and its block, in any form ---------===//

#include "Analysis/Threads/KernelShape.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace klx::threads;

bool KernelShape::isCaptured(Value value) const {
  Region *region = value.getParentRegion();
  return !region || !body->isAncestor(region);
}

static bool validBlock(const std::array<unsigned, 3> &block) {
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  return threads >= 1 && threads <= 1024;
}

std::optional<KernelShape> klx::threads::readKernelShape(Operation *kernel,
                                                         std::string &whyNot) {
  KernelShape shape;
  shape.kernel = kernel;
  if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel)) {
    std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
    if (!known || known->size() != 3 ||
        llvm::any_of(*known, [](int32_t n) { return n < 1 || n > 1024; })) {
      whyNot = "its block size is not known (give the gpu.func "
               "known_block_size)";
      return std::nullopt;
    }
    shape.block = {unsigned((*known)[0]), unsigned((*known)[1]),
                   unsigned((*known)[2])};
    shape.body = &func.getBody();
    shape.name = func.getName().str();
  } else if (auto launch = dyn_cast<gpu::LaunchOp>(kernel)) {
    Value sizes[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                      launch.getBlockSizeZ()};
    for (unsigned i = 0; i < 3; ++i) {
      std::optional<int64_t> size = getConstantIntValue(sizes[i]);
      if (!size || *size < 1 || *size > 1024) {
        whyNot = "its block size is not a constant of the gpu.launch";
        return std::nullopt;
      }
      shape.block[i] = unsigned(*size);
    }
    Value grid[3] = {launch.getGridSizeX(), launch.getGridSizeY(),
                     launch.getGridSizeZ()};
    std::array<unsigned, 3> gridSizes;
    bool constantGrid = true;
    for (unsigned i = 0; i < 3; ++i) {
      std::optional<int64_t> size = getConstantIntValue(grid[i]);
      constantGrid &= size && *size >= 1 && *size <= (1ll << 31);
      gridSizes[i] = constantGrid ? unsigned(*size) : 0;
    }
    if (constantGrid)
      shape.grid = gridSizes;
    gpu::KernelDim3 tids = launch.getThreadIds(),
                    sizesArgs = launch.getBlockSize(),
                    bids = launch.getBlockIds(),
                    gridArgs = launch.getGridSize();
    shape.threadIds = {tids.x, tids.y, tids.z};
    shape.blockSizes = {sizesArgs.x, sizesArgs.y, sizesArgs.z};
    shape.blockIds = {bids.x, bids.y, bids.z};
    shape.gridSizes = {gridArgs.x, gridArgs.y, gridArgs.z};
    shape.body = &launch.getBody();
    shape.name = "gpu.launch";
    if (auto func = launch->getParentOfType<FunctionOpInterface>())
      shape.name += " in @" + func.getName().str();
  } else {
    whyNot = "it is neither a gpu.func kernel nor a gpu.launch";
    return std::nullopt;
  }
  if (!validBlock(shape.block)) {
    whyNot = "its block has more than 1024 threads";
    return std::nullopt;
  }
  return shape;
}
