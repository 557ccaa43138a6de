//===- MemorySpaces.h - Which memory a memref's space names -----*- C++ -*-===//
//
// Kernels name shared memory two ways: `#gpu.address_space<workgroup>`,
// and the bare integer 3 that MLIR's own GPU tests use (shared memory on
// NVIDIA, LDS on AMD); private memory is `#gpu.address_space<private>` or
// 5. Upstream's GPUDialect helpers know only the attribute, so analyses
// ask here.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_MEMORYSPACES_H
#define KLX_SUPPORT_MEMORYSPACES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace klx {

inline bool isWorkgroupMemorySpace(mlir::Attribute space) {
  if (auto number = llvm::dyn_cast_or_null<mlir::IntegerAttr>(space))
    return number.getInt() == 3;
  return space && mlir::gpu::GPUDialect::isWorkgroupMemoryAddressSpace(space);
}

inline bool isPrivateMemorySpace(mlir::Attribute space) {
  if (auto number = llvm::dyn_cast_or_null<mlir::IntegerAttr>(space))
    return number.getInt() == 5;
  auto gpuSpace = llvm::dyn_cast_or_null<mlir::gpu::AddressSpaceAttr>(space);
  return gpuSpace && gpuSpace.getValue() == mlir::gpu::AddressSpace::Private;
}

} // namespace klx

#endif // KLX_SUPPORT_MEMORYSPACES_H
