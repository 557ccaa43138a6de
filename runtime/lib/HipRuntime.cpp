//===- HipRuntime.cpp - Opening libamdhip64.so ----------------------------===//

#include "klx/Runtime/HipRuntime.h"

#include "OpenLibrary.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace klx::rt::hip;

std::string Runtime::describe(const char *call, Error error) const {
  const char *name = getErrorName ? getErrorName(error) : nullptr;
  const char *text = getErrorString ? getErrorString(error) : nullptr;
  std::string message = std::string(call) + " failed: ";
  message += name ? name : "HIP error " + std::to_string(error);
  if (text)
    message += std::string(" (") + text + ")";
  return message;
}

namespace {

template <typename Fn>
bool resolve(void *library, Fn &slot, const char *name, std::string &error) {
  if (void *symbol = dlsym(library, name)) {
    slot = reinterpret_cast<Fn>(symbol);
    return true;
  }
  error = std::string("the HIP runtime has no ") + name;
  return false;
}

} // namespace

const Runtime *klx::rt::hip::loadRuntime(std::string &error) {
  // Each call opens afresh: tests point $KLX_LIBHIP at stand-ins in turn.
  static Runtime runtime;
  OpenedLibrary opened = openFirstLibrary("KLX_LIBHIP", {"libamdhip64.so"});
  void *handle = opened.handle;
  if (!handle) {
    error = "no HIP runtime: " + opened.path + " does not load (" + opened.why +
            "); AMD bundles need ROCm";
    return nullptr;
  }
  Runtime r{};
  if (!resolve(handle, r.init, "hipInit", error) ||
      !resolve(handle, r.getDeviceCount, "hipGetDeviceCount", error) ||
      !resolve(handle, r.setDevice, "hipSetDevice", error) ||
      !resolve(handle, r.deviceGetName, "hipDeviceGetName", error) ||
      !resolve(handle, r.moduleLoadData, "hipModuleLoadData", error) ||
      !resolve(handle, r.moduleUnload, "hipModuleUnload", error) ||
      !resolve(handle, r.moduleGetFunction, "hipModuleGetFunction", error) ||
      !resolve(handle, r.malloc, "hipMalloc", error) ||
      !resolve(handle, r.free, "hipFree", error) ||
      !resolve(handle, r.memcpyHtoD, "hipMemcpyHtoD", error) ||
      !resolve(handle, r.memcpyDtoH, "hipMemcpyDtoH", error) ||
      !resolve(handle, r.memsetD32, "hipMemsetD32", error) ||
      !resolve(handle, r.streamCreate, "hipStreamCreate", error) ||
      !resolve(handle, r.streamDestroy, "hipStreamDestroy", error) ||
      !resolve(handle, r.streamQuery, "hipStreamQuery", error) ||
      !resolve(handle, r.eventCreate, "hipEventCreate", error) ||
      !resolve(handle, r.eventDestroy, "hipEventDestroy", error) ||
      !resolve(handle, r.eventRecord, "hipEventRecord", error) ||
      !resolve(handle, r.eventSynchronize, "hipEventSynchronize", error) ||
      !resolve(handle, r.eventElapsedTime, "hipEventElapsedTime", error) ||
      !resolve(handle, r.moduleLaunchKernel, "hipModuleLaunchKernel", error) ||
      !resolve(handle, r.getErrorName, "hipGetErrorName", error) ||
      !resolve(handle, r.getErrorString, "hipGetErrorString", error)) {
    dlclose(handle);
    return nullptr;
  }
  runtime = r;
  return &runtime;
}
