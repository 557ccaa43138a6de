//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// klx-run does not link libcuda: it opens libcuda.so.1 when it starts, so
// one binary runs (and says "no CUDA device") on machines without a GPU.
// The types below are the subset of cuda.h's ABI that klx-run uses; a unit
// test checks them against cuda.h wherever that header is installed.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CUDADRIVER_H
#define KLX_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace klx::rt::cu {

using Result = int;
using Device = int;
using DevicePtr = unsigned long long;
struct ContextSt;
struct ModuleSt;
struct FunctionSt;
struct StreamSt;
struct EventSt;
using Context = ContextSt *;
using Module = ModuleSt *;
using Function = FunctionSt *;
using Stream = StreamSt *;
using Event = EventSt *;

inline constexpr Result kSuccess = 0;
inline constexpr Result kErrorNoDevice = 100;
inline constexpr Result kErrorNotReady = 600;
/// 700-719: errors of a running kernel (illegal address, trap, launch
/// failure, ...); the context is unusable afterwards.
inline bool isKernelFault(Result r) { return r >= 700 && r <= 719; }

enum DeviceAttribute : int {
  kClockRate = 13, // kHz
  kPciBusId = 33,
  kPciDeviceId = 34,
  kMultiprocessorCount = 16,
  kMemoryClockRate = 36,      // kHz
  kGlobalMemoryBusWidth = 37, // bits
  kL2CacheSize = 38,          // bytes
  kPciDomainId = 50,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerBlockOptin = 97,
};

inline constexpr int kFuncAttributeMaxDynamicSharedSizeBytes = 8;

enum TensorMapDataType : int {
  kTensorFloat16 = 6,
  kTensorFloat32 = 7,
  kTensorBFloat16 = 9
};
enum TensorMapSwizzle : int {
  kSwizzleNone = 0,
  kSwizzle32B = 1,
  kSwizzle64B = 2,
  kSwizzle128B = 3
};

struct alignas(128) TensorMap { // CUDA 13 aligns it to 128 (12: 64)
  uint64_t opaque[16];
};

inline constexpr int kLaunchAttributeClusterDimension = 4;

union LaunchAttributeValue {
  char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
};

struct LaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  LaunchAttributeValue value;
};

struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  Stream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

/// The driver entry points klx-run calls, resolved by name.
struct Driver {
  Result (*init)(unsigned);
  Result (*driverGetVersion)(int *);
  Result (*deviceGetCount)(int *);
  Result (*deviceGet)(Device *, int);
  Result (*deviceGetName)(char *, int, Device);
  Result (*deviceGetAttribute)(int *, int, Device);
  Result (*deviceTotalMem)(size_t *, Device);
  Result (*primaryCtxRetain)(Context *, Device);
  Result (*primaryCtxRelease)(Device);
  Result (*ctxSetCurrent)(Context);
  Result (*moduleLoadData)(Module *, const void *);
  Result (*moduleUnload)(Module);
  Result (*moduleGetFunction)(Function *, Module, const char *);
  Result (*funcSetAttribute)(Function, int, int);
  Result (*memAlloc)(DevicePtr *, size_t);
  Result (*memFree)(DevicePtr);
  Result (*memcpyHtoD)(DevicePtr, const void *, size_t);
  Result (*memcpyDtoH)(void *, DevicePtr, size_t);
  Result (*memsetD32)(DevicePtr, unsigned, size_t);
  Result (*streamCreate)(Stream *, unsigned);
  Result (*streamDestroy)(Stream);
  Result (*streamQuery)(Stream);
  Result (*streamSynchronize)(Stream);
  Result (*eventCreate)(Event *, unsigned);
  Result (*eventDestroy)(Event);
  Result (*eventRecord)(Event, Stream);
  Result (*eventSynchronize)(Event);
  Result (*eventElapsedTime)(float *, Event, Event);
  Result (*launchKernelEx)(const LaunchConfig *, Function, void **, void **);
  /// Null where the driver lacks it (before CUDA 12).
  Result (*occupancyMaxActiveClusters)(int *, Function, const LaunchConfig *);
  Result (*tensorMapEncodeTiled)(TensorMap *, int, unsigned, void *,
                                 const uint64_t *, const uint64_t *,
                                 const unsigned *, const unsigned *, int, int,
                                 int, int);
  Result (*getErrorName)(Result, const char **);
  Result (*getErrorString)(Result, const char **);

  /// "cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE (invalid argument)"
  std::string describe(const char *call, Result result) const;
  /// Where `device` sits on the PCI bus, "0000:19:00" (domain, bus,
  /// device), or "" where the driver does not say.
  std::string pciAddress(Device device) const;
};

/// Opens libcuda.so.1 (or $KLX_LIBCUDA) and resolves every entry point.
/// Returns null and says why when the library or a symbol is missing.
const Driver *loadDriver(std::string &error);

} // namespace klx::rt::cu

#endif // KLX_RUNTIME_CUDADRIVER_H
