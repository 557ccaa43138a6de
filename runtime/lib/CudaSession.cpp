//===- CudaSession.cpp - One run's hold on a CUDA device ------------------===//

#include "CudaSession.h"

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace klx::rt;

LaunchResult klx::rt::fail(LaunchResult result, RunStatus status,
                           std::string message) {
  result.status = status;
  result.message = std::move(message);
  return result;
}

bool klx::rt::readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return true;
}

int klx::rt::attribute(Session &s, int which) {
  int value = 0;
  s.check("cuDeviceGetAttribute",
          s.cu.deviceGetAttribute(&value, which, s.device));
  return value;
}

std::optional<LaunchResult>
klx::rt::openSession(std::unique_ptr<Session> &session, const Manifest &m,
                     const std::string &binary, LaunchResult &result,
                     int &l2Bytes) {
  std::string error;
  const cu::Driver *driver = cu::loadDriver(error);
  if (!driver)
    return fail(result, RunStatus::NoDevice, error);
  session = std::make_unique<Session>(*driver);
  Session &s = *session;
  const cu::Driver &cu = *driver;
  int count = 0;
  cu::Result init = cu.init(0);
  if (init == cu::kErrorNoDevice ||
      (init == cu::kSuccess && cu.deviceGetCount(&count) == cu::kSuccess &&
       count == 0))
    return fail(result, RunStatus::NoDevice, "no CUDA device");
  if (!s.check("cuInit", init) ||
      !s.check("cuDeviceGet", cu.deviceGet(&s.device, 0)))
    return fail(result, RunStatus::NoDevice, s.error);
  char name[256] = {0};
  s.check("cuDeviceGetName", cu.deviceGetName(name, sizeof name - 1, s.device));
  result.device = name;
  result.pci = cu.pciAddress(s.device);
  result.capability = attribute(s, cu::kComputeCapabilityMajor) * 10 +
                      attribute(s, cu::kComputeCapabilityMinor);
  result.smCount = attribute(s, cu::kMultiprocessorCount);
  result.clockKHz = attribute(s, cu::kClockRate);
  int memoryKHz = attribute(s, cu::kMemoryClockRate);
  int busBits = attribute(s, cu::kGlobalMemoryBusWidth);
  l2Bytes = attribute(s, cu::kL2CacheSize);
  int sharedOptin = attribute(s, cu::kMaxSharedMemoryPerBlockOptin);
  if (!s.error.empty())
    return fail(result, RunStatus::DriverError, s.error);
  result.peakGBs = 2.0 * memoryKHz * 1e3 * (busBits / 8) / 1e9;
  if (result.capability / 10 == 9) {
    // Hopper: 4096 dense f16/bf16 flops per SM per clock.
    result.peakTflops =
        double(result.smCount) * 4096 * result.clockKHz * 1e3 / 1e12;
    result.peakFormula = std::to_string(result.smCount) +
                         " SMs x 4096 flop/clk x " +
                         std::to_string(result.clockKHz / 1000) + " MHz";
  }
  if (result.capability != m.requiredCapability())
    return fail(result, RunStatus::NoDevice,
                "the bundle is for " + m.target + "; " + result.device +
                    " is sm_" + std::to_string(result.capability));
  if (m.dynamicSharedBytes > sharedOptin)
    return fail(result, RunStatus::BundleError,
                "the kernel needs " + std::to_string(m.dynamicSharedBytes) +
                    " bytes of dynamic shared memory; " + result.device +
                    " allows " + std::to_string(sharedOptin) + " per CTA");

  if (!s.check("cuDevicePrimaryCtxRetain",
               cu.primaryCtxRetain(&s.context, s.device)) ||
      !s.check("cuCtxSetCurrent", cu.ctxSetCurrent(s.context)) ||
      !s.check("cuModuleLoadData",
               cu.moduleLoadData(&s.module, binary.data())) ||
      !s.check("cuModuleGetFunction",
               cu.moduleGetFunction(&s.function, s.module, m.entry.c_str())) ||
      !s.check("cuStreamCreate", cu.streamCreate(&s.stream, 0)))
    return fail(result, RunStatus::DriverError, s.error);
  // Above 48 KB a kernel must opt in, once per function.
  if (m.dynamicSharedBytes > 48 * 1024 &&
      !s.check("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
               cu.funcSetAttribute(s.function,
                                   cu::kFuncAttributeMaxDynamicSharedSizeBytes,
                                   int(m.dynamicSharedBytes))))
    return fail(result, RunStatus::DriverError, s.error);
  return std::nullopt;
}

bool klx::rt::timeLaunches(Session &s, const std::vector<Issue> &issues,
                           const std::vector<Timing *> &timings,
                           const RunOptions &options, size_t sets) {
  const cu::Driver &cu = s.cu;
  for (int i = 0; i < options.warmup; ++i)
    for (const Issue &issue : issues)
      if (!issue(size_t(i) % sets))
        return false;
  if (!s.wait(double(options.timeoutMs) * std::max(1, options.warmup) *
              issues.size()))
    return false;
  size_t n = issues.size();
  std::vector<cu::Event> events(2 * n * options.repeat);
  for (cu::Event &event : events) {
    if (!s.check("cuEventCreate", cu.eventCreate(&event, 0)))
      return false;
    s.events.push_back(event);
  }
  for (int i = 0; i < options.repeat; ++i)
    for (size_t j = 0; j < n; ++j) {
      cu::Event *pair = &events[2 * (i * n + j)];
      if (!s.check("cuEventRecord", cu.eventRecord(pair[0], s.stream)) ||
          !issues[j](size_t(i) % sets) ||
          !s.check("cuEventRecord", cu.eventRecord(pair[1], s.stream)))
        return false;
    }
  if (!s.wait(double(options.timeoutMs) * options.repeat * n))
    return false;
  for (size_t j = 0; j < n; ++j) {
    std::vector<double> ms;
    for (int i = 0; i < options.repeat; ++i) {
      cu::Event *pair = &events[2 * (i * n + j)];
      float elapsed = 0;
      if (!s.check("cuEventElapsedTime",
                   cu.eventElapsedTime(&elapsed, pair[0], pair[1])))
        return false;
      ms.push_back(elapsed);
    }
    *timings[j] = summarize(ms);
  }
  return true;
}
