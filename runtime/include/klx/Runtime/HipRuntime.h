//===- HipRuntime.h - The HIP runtime, loaded at run time -------*- C++ -*-===//
//
// The AMD counterpart of CudaDriver.h: klx-run does not link the HIP
// runtime; it opens libamdhip64.so when an AMD bundle asks for it, so one
// binary says "no HIP runtime" where ROCm is not installed. The types are
// the subset of hip_runtime_api.h's ABI that klx-run uses.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_HIPRUNTIME_H
#define KLX_RUNTIME_HIPRUNTIME_H

#include <cstddef>
#include <string>

namespace klx::rt::hip {

using Error = int;
using Device = int;
using DevicePtr = void *;
struct ModuleSt;
struct FunctionSt;
struct StreamSt;
struct EventSt;
using Module = ModuleSt *;
using Function = FunctionSt *;
using Stream = StreamSt *;
using Event = EventSt *;

inline constexpr Error kSuccess = 0;
inline constexpr Error kErrorNoDevice = 100;
inline constexpr Error kErrorNotReady = 600;

/// The runtime entry points klx-run calls, resolved by name.
struct Runtime {
  Error (*init)(unsigned);
  Error (*getDeviceCount)(int *);
  Error (*setDevice)(int);
  Error (*deviceGetName)(char *, int, Device);
  Error (*moduleLoadData)(Module *, const void *);
  Error (*moduleUnload)(Module);
  Error (*moduleGetFunction)(Function *, Module, const char *);
  Error (*malloc)(void **, size_t);
  Error (*free)(void *);
  Error (*memcpyHtoD)(DevicePtr, void *, size_t);
  Error (*memcpyDtoH)(void *, DevicePtr, size_t);
  Error (*memsetD32)(DevicePtr, int, size_t);
  Error (*streamCreate)(Stream *);
  Error (*streamDestroy)(Stream);
  Error (*streamQuery)(Stream);
  Error (*eventCreate)(Event *);
  Error (*eventDestroy)(Event);
  Error (*eventRecord)(Event, Stream);
  Error (*eventSynchronize)(Event);
  Error (*eventElapsedTime)(float *, Event, Event);
  Error (*moduleLaunchKernel)(Function, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, unsigned, Stream, void **,
                              void **);
  const char *(*getErrorName)(Error);
  const char *(*getErrorString)(Error);

  /// "hipModuleLoadData failed: hipErrorInvalidImage (invalid image)"
  std::string describe(const char *call, Error error) const;
};

/// Opens libamdhip64.so (or $KLX_LIBHIP) and resolves every entry point.
/// Returns null and says why when the library or a symbol is missing.
const Runtime *loadRuntime(std::string &error);

} // namespace klx::rt::hip

#endif // KLX_RUNTIME_HIPRUNTIME_H
