//===- CudaDriver.cpp - Opening libcuda.so.1 ------------------------------===//

#include "klx/Runtime/CudaDriver.h"

#include "OpenLibrary.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

using namespace klx::rt::cu;

std::string Driver::describe(const char *call, Result result) const {
  const char *name = nullptr, *text = nullptr;
  if (getErrorName)
    getErrorName(result, &name);
  if (getErrorString)
    getErrorString(result, &text);
  std::string message = std::string(call) + " failed: ";
  message += name ? name : "CUDA error " + std::to_string(result);
  if (text)
    message += std::string(" (") + text + ")";
  return message;
}

std::string Driver::pciAddress(Device device) const {
  int domain = 0, bus = 0, slot = 0;
  if (deviceGetAttribute(&domain, kPciDomainId, device) != kSuccess ||
      deviceGetAttribute(&bus, kPciBusId, device) != kSuccess ||
      deviceGetAttribute(&slot, kPciDeviceId, device) != kSuccess)
    return "";
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x", domain, bus, slot);
  return text;
}

namespace {

/// Resolves `names` in order (versioned names first) into `slot`.
template <typename Fn>
bool resolve(void *library, Fn &slot, std::initializer_list<const char *> names,
             std::string &error) {
  for (const char *name : names)
    if (void *symbol = dlsym(library, name)) {
      slot = reinterpret_cast<Fn>(symbol);
      return true;
    }
  error = std::string("the CUDA driver has no ") + *names.begin() +
          " (a driver older than CUDA 12?)";
  return false;
}

/// Opens the driver into `driver`; "" or why not.
std::string openDriver(Driver &driver) {
  std::string loadError;
  klx::rt::OpenedLibrary opened =
      klx::rt::openFirstLibrary("KLX_LIBCUDA", {"libcuda.so.1"});
  void *library = opened.handle;
  if (!library)
    return "no CUDA device: the driver does not load: " + opened.path + " (" +
           opened.why + ")";
  bool ok =
      resolve(library, driver.init, {"cuInit"}, loadError) &&
      resolve(library, driver.driverGetVersion, {"cuDriverGetVersion"},
              loadError) &&
      resolve(library, driver.deviceGetCount, {"cuDeviceGetCount"},
              loadError) &&
      resolve(library, driver.deviceGet, {"cuDeviceGet"}, loadError) &&
      resolve(library, driver.deviceGetName, {"cuDeviceGetName"}, loadError) &&
      resolve(library, driver.deviceGetAttribute, {"cuDeviceGetAttribute"},
              loadError) &&
      resolve(library, driver.deviceTotalMem, {"cuDeviceTotalMem_v2"},
              loadError) &&
      resolve(library, driver.primaryCtxRetain, {"cuDevicePrimaryCtxRetain"},
              loadError) &&
      resolve(library, driver.primaryCtxRelease,
              {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
              loadError) &&
      resolve(library, driver.ctxSetCurrent, {"cuCtxSetCurrent"}, loadError) &&
      resolve(library, driver.moduleLoadData, {"cuModuleLoadData"},
              loadError) &&
      resolve(library, driver.moduleUnload, {"cuModuleUnload"}, loadError) &&
      resolve(library, driver.moduleGetFunction, {"cuModuleGetFunction"},
              loadError) &&
      resolve(library, driver.funcSetAttribute, {"cuFuncSetAttribute"},
              loadError) &&
      resolve(library, driver.memAlloc, {"cuMemAlloc_v2"}, loadError) &&
      resolve(library, driver.memFree, {"cuMemFree_v2"}, loadError) &&
      resolve(library, driver.memcpyHtoD, {"cuMemcpyHtoD_v2"}, loadError) &&
      resolve(library, driver.memcpyDtoH, {"cuMemcpyDtoH_v2"}, loadError) &&
      resolve(library, driver.memsetD32, {"cuMemsetD32_v2"}, loadError) &&
      resolve(library, driver.streamCreate, {"cuStreamCreate"}, loadError) &&
      resolve(library, driver.streamDestroy, {"cuStreamDestroy_v2"},
              loadError) &&
      resolve(library, driver.streamQuery, {"cuStreamQuery"}, loadError) &&
      resolve(library, driver.streamSynchronize, {"cuStreamSynchronize"},
              loadError) &&
      resolve(library, driver.eventCreate, {"cuEventCreate"}, loadError) &&
      resolve(library, driver.eventDestroy, {"cuEventDestroy_v2"}, loadError) &&
      resolve(library, driver.eventRecord, {"cuEventRecord"}, loadError) &&
      resolve(library, driver.eventSynchronize, {"cuEventSynchronize"},
              loadError) &&
      resolve(library, driver.eventElapsedTime,
              {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, loadError) &&
      resolve(library, driver.launchKernelEx, {"cuLaunchKernelEx"},
              loadError) &&
      resolve(library, driver.tensorMapEncodeTiled, {"cuTensorMapEncodeTiled"},
              loadError) &&
      resolve(library, driver.getErrorName, {"cuGetErrorName"}, loadError) &&
      resolve(library, driver.getErrorString, {"cuGetErrorString"}, loadError);
  if (!ok)
    return loadError;
  std::string optionalError;
  if (!resolve(library, driver.occupancyMaxActiveClusters,
               {"cuOccupancyMaxActiveClusters"}, optionalError))
    driver.occupancyMaxActiveClusters = nullptr;
  return "";
}

struct LoadedDriver {
  Driver driver{};
  std::string error;
  LoadedDriver() { error = openDriver(driver); }
};

} // namespace

const Driver *klx::rt::cu::loadDriver(std::string &error) {
  // Opened once, by whichever thread asks first: a sweep's worker threads
  // ask at once, and none may see a half-resolved table.
  static const LoadedDriver loaded;
  error = loaded.error;
  return loaded.error.empty() ? &loaded.driver : nullptr;
}
