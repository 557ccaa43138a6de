//===- HipRunner.cpp - Launching an AMD Bundle through HIP ----------------===//
//
// The CUDA runner's flow for kernels klx-to-amdgpu made: random A and B,
// D poisoned with NaN, one checked launch (every row, or a sample, against
// the CPU in double), then warm-up and timed launches with event pairs.
// A launch that does not complete within the timeout is a hang. There is
// no vendor BLAS baseline here. Nothing of this has run on an AMD GPU
// yet: the error paths are tested against stand-in libraries.
//
//===----------------------------------------------------------------------===//

#include "HipRunner.h"

#include "klx/Runtime/HipRuntime.h"
#include "klx/Runtime/Launch.h"

#include <algorithm>
#include <chrono>
#include <thread>

using namespace klx::rt;

namespace {

LaunchResult fail(LaunchResult result, RunStatus status, std::string message) {
  result.status = status;
  result.message = std::move(message);
  return result;
}

/// One HIP stream and what was allocated on it, released at the end.
struct HipSession {
  explicit HipSession(const hip::Runtime &runtime) : hip(runtime) {}
  ~HipSession() {
    for (hip::Event event : events)
      hip.eventDestroy(event);
    for (void *ptr : allocations)
      hip.free(ptr);
    if (stream)
      hip.streamDestroy(stream);
    if (module)
      hip.moduleUnload(module);
  }

  bool check(const char *call, hip::Error error) {
    if (error == hip::kSuccess)
      return true;
    if (this->error.empty())
      this->error = hip.describe(call, error);
    return false;
  }
  bool alloc(void *&ptr, size_t bytes) {
    if (!check("hipMalloc", hip.malloc(&ptr, bytes)))
      return false;
    allocations.push_back(ptr);
    return true;
  }
  /// Polls the stream until it is idle, `ms` pass (a hang) or it fails.
  bool wait(double ms) {
    auto start = std::chrono::steady_clock::now();
    while (true) {
      hip::Error e = hip.streamQuery(stream);
      if (e == hip::kSuccess)
        return true;
      if (e != hip::kErrorNotReady)
        return check("hipStreamQuery", e);
      double waited = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      if (waited > ms) {
        hung = true;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }

  const hip::Runtime &hip;
  hip::Module module = nullptr;
  hip::Function function = nullptr;
  hip::Stream stream = nullptr;
  std::vector<void *> allocations;
  std::vector<hip::Event> events;
  std::string error;
  bool hung = false;
};

uint64_t address(void *ptr) {
  return uint64_t(reinterpret_cast<uintptr_t>(ptr));
}

} // namespace

LaunchResult klx::rt::runHipBundle(const Manifest &m,
                                   const std::string &codeObject,
                                   const RunOptions &options,
                                   LaunchResult result) {
  if (!options.tracePath.empty())
    return fail(result, RunStatus::BundleError,
                "--trace: AMD bundles have no instrumented build");
  std::string error;
  const hip::Runtime *runtime = hip::loadRuntime(error);
  if (!runtime)
    return fail(result, RunStatus::NoDevice, error);
  const hip::Runtime &hip = *runtime;
  HipSession s(hip);
  int count = 0;
  hip::Error init = hip.init(0);
  if (init == hip::kErrorNoDevice ||
      (init == hip::kSuccess && hip.getDeviceCount(&count) == hip::kSuccess &&
       count == 0))
    return fail(result, RunStatus::NoDevice,
                "no AMD GPU: the HIP runtime loads but sees no device");
  if (!s.check("hipInit", init) || !s.check("hipSetDevice", hip.setDevice(0)))
    return fail(result, RunStatus::NoDevice, s.error);
  char name[256] = {0};
  s.check("hipDeviceGetName", hip.deviceGetName(name, sizeof name - 1, 0));
  result.device = name;
  // A code object for another chip fails here, with the runtime's words.
  if (!s.check("hipModuleLoadData",
               hip.moduleLoadData(&s.module, codeObject.data())) ||
      !s.check("hipModuleGetFunction",
               hip.moduleGetFunction(&s.function, s.module, m.entry.c_str())) ||
      !s.check("hipStreamCreate", hip.streamCreate(&s.stream)))
    return fail(result, RunStatus::DriverError, s.error);

  const ProblemSize &size = result.size;
  size_t aCount = size.m * size.k, bCount = size.k * size.n;
  size_t dCount = size_t(size.m) * size.n;
  std::vector<uint16_t> a = randomMatrix(aCount, m.dtype, 1);
  std::vector<uint16_t> b = randomMatrix(bCount, m.dtype, 2);
  void *da = nullptr, *db = nullptr, *dd = nullptr;
  if (!s.alloc(da, aCount * 2) || !s.alloc(db, bCount * 2) ||
      !s.alloc(dd, dCount * 4) ||
      !s.check("hipMemcpyHtoD", hip.memcpyHtoD(da, a.data(), aCount * 2)) ||
      !s.check("hipMemcpyHtoD", hip.memcpyHtoD(db, b.data(), bCount * 2)))
    return fail(result, RunStatus::DriverError, s.error);
  DeviceOperands operands;
  operands.a = address(da);
  operands.b = address(db);
  operands.d = address(dd);
  PackedArguments arguments = packArguments(m, size, operands);
  result.grid = gridFor(m, size, /*smCount=*/0);
  result.block = {unsigned(m.block[0]), unsigned(m.block[1]),
                  unsigned(m.block[2])};
  auto launch = [&] {
    std::vector<void *> pointers = arguments.pointers();
    return s.check(
        "hipModuleLaunchKernel",
        hip.moduleLaunchKernel(s.function, result.grid[0], result.grid[1],
                               result.grid[2], result.block[0], result.block[1],
                               result.block[2], unsigned(m.dynamicSharedBytes),
                               s.stream, pointers.data(), nullptr));
  };
  auto hang = [&](const char *when) {
    return fail(result, RunStatus::Hang,
                "no completion after " + std::to_string(options.timeoutMs) +
                    " ms (" + when + ")");
  };

  // The checked launch.
  if (!s.check("hipMemsetD32", hip.memsetD32(dd, int(kPoisonBits), dCount)) ||
      !launch())
    return fail(result, RunStatus::DriverError, s.error);
  if (!s.wait(options.timeoutMs))
    return s.hung ? hang("checked launch")
                  : fail(result, RunStatus::DriverError, s.error);
  std::vector<float> out(dCount);
  if (!s.check("hipMemcpyDtoH", hip.memcpyDtoH(out.data(), dd, dCount * 4)))
    return fail(result, RunStatus::DriverError, s.error);
  std::vector<int64_t> rows = rowsToCheck(size);
  std::vector<double> reference = referenceRows(
      a, b, m.dtype, size, rows, referenceThreads(options.cpuThreads));
  result.cpuCheck = compareRows(out, reference, size.n, rows, size.n);
  result.cpuRows = int64_t(rows.size());
  result.blasNote = "no vendor BLAS baseline on AMD yet";
  const ErrorStats &worst = result.cpuCheck;
  if (worst.nonFinite > 0 || worst.relative > result.threshold)
    return fail(result, RunStatus::WrongResult,
                "wrong result: see the check above (threshold " +
                    std::to_string(result.threshold) + ")");

  // Warm-up, then one event pair per timed launch.
  for (int i = 0; i < options.warmup; ++i)
    if (!launch())
      return fail(result, RunStatus::DriverError, s.error);
  if (!s.wait(double(options.timeoutMs) * std::max(1, options.warmup)))
    return s.hung ? hang("warm-up")
                  : fail(result, RunStatus::DriverError, s.error);
  std::vector<hip::Event> events(2 * size_t(options.repeat));
  for (hip::Event &event : events) {
    if (!s.check("hipEventCreate", hip.eventCreate(&event)))
      return fail(result, RunStatus::DriverError, s.error);
    s.events.push_back(event);
  }
  for (int i = 0; i < options.repeat; ++i)
    if (!s.check("hipEventRecord", hip.eventRecord(events[2 * i], s.stream)) ||
        !launch() ||
        !s.check("hipEventRecord",
                 hip.eventRecord(events[2 * i + 1], s.stream)))
      return fail(result, RunStatus::DriverError, s.error);
  if (!s.wait(double(options.timeoutMs) * options.repeat))
    return s.hung ? hang("timed launches")
                  : fail(result, RunStatus::DriverError, s.error);
  std::vector<double> ms;
  for (int i = 0; i < options.repeat; ++i) {
    float elapsed = 0;
    if (!s.check(
            "hipEventElapsedTime",
            hip.eventElapsedTime(&elapsed, events[2 * i], events[2 * i + 1])))
      return fail(result, RunStatus::DriverError, s.error);
    ms.push_back(elapsed);
  }
  result.kernel = summarize(ms);
  return result;
}
