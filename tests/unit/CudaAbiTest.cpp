//===- CudaAbiTest.cpp - klx-run's driver declarations match cuda.h -------===//
//
// Built only where cuda.h is installed: klx-run declares the subset of the
// driver API it calls instead of needing the toolkit to build.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/CudaDriver.h"

#include <cuda.h>

#include <catch2/catch.hpp>

#include <cstddef>

namespace cu = klx::rt::cu;

static_assert(sizeof(cu::TensorMap) == sizeof(CUtensorMap));
static_assert(alignof(cu::TensorMap) == alignof(CUtensorMap));
static_assert(sizeof(cu::LaunchAttribute) == sizeof(CUlaunchAttribute));
static_assert(offsetof(cu::LaunchAttribute, value) ==
              offsetof(CUlaunchAttribute, value));
static_assert(sizeof(cu::LaunchConfig) == sizeof(CUlaunchConfig));
static_assert(offsetof(cu::LaunchConfig, hStream) ==
              offsetof(CUlaunchConfig, hStream));
static_assert(offsetof(cu::LaunchConfig, attrs) ==
              offsetof(CUlaunchConfig, attrs));
static_assert(offsetof(cu::LaunchConfig, numAttrs) ==
              offsetof(CUlaunchConfig, numAttrs));
static_assert(sizeof(cu::DevicePtr) == sizeof(CUdeviceptr));

TEST_CASE("the driver's enum values klx-run uses", "[runtime]") {
  CHECK(int(cu::kErrorNoDevice) == int(CUDA_ERROR_NO_DEVICE));
  CHECK(int(cu::kErrorNotReady) == int(CUDA_ERROR_NOT_READY));
  CHECK(cu::isKernelFault(CUDA_ERROR_LAUNCH_FAILED));
  CHECK(cu::isKernelFault(CUDA_ERROR_ILLEGAL_ADDRESS));
  CHECK(int(cu::kClockRate) == int(CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
  CHECK(int(cu::kMultiprocessorCount) ==
        int(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  CHECK(int(cu::kMemoryClockRate) ==
        int(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE));
  CHECK(int(cu::kGlobalMemoryBusWidth) ==
        int(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH));
  CHECK(int(cu::kL2CacheSize) == int(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  CHECK(int(cu::kComputeCapabilityMajor) ==
        int(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
  CHECK(int(cu::kComputeCapabilityMinor) ==
        int(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
  CHECK(int(cu::kMaxSharedMemoryPerBlockOptin) ==
        int(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  CHECK(int(cu::kFuncAttributeMaxDynamicSharedSizeBytes) ==
        int(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
  CHECK(int(cu::kTensorFloat16) == int(CU_TENSOR_MAP_DATA_TYPE_FLOAT16));
  CHECK(int(cu::kTensorBFloat16) == int(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16));
  CHECK(int(cu::kSwizzle128B) == int(CU_TENSOR_MAP_SWIZZLE_128B));
  CHECK(int(cu::kLaunchAttributeClusterDimension) ==
        int(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION));
}
