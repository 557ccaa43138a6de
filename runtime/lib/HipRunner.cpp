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

/// One run of a bundle's kernel on an open HIP session, phase by phase, in
/// the order runHipBundle calls them. A phase that fails sets the result's
/// status and message and returns false; the later phases need what the
/// earlier ones left on the device.
class HipGemmRun {
public:
  HipGemmRun(HipSession &s, const Manifest &m, const RunOptions &options,
             LaunchResult &result)
      : s(s), hip(s.hip), m(m), options(options), result(result) {}

  /// Device 0, its name into the result.
  bool openDevice() {
    int count = 0;
    hip::Error init = hip.init(0);
    if (init == hip::kErrorNoDevice ||
        (init == hip::kSuccess && hip.getDeviceCount(&count) == hip::kSuccess &&
         count == 0))
      return stop(RunStatus::NoDevice,
                  "no AMD GPU: the HIP runtime loads but sees no device");
    if (!s.check("hipInit", init) || !s.check("hipSetDevice", hip.setDevice(0)))
      return stop(RunStatus::NoDevice, s.error);
    char name[256] = {0};
    s.check("hipDeviceGetName", hip.deviceGetName(name, sizeof name - 1, 0));
    result.device = name;
    return true;
  }

  /// The code object's entry, and a stream to launch it on.
  bool loadKernel(const std::string &codeObject) {
    // A code object for another chip fails here, with the runtime's words.
    if (!s.check("hipModuleLoadData",
                 hip.moduleLoadData(&s.module, codeObject.data())) ||
        !s.check(
            "hipModuleGetFunction",
            hip.moduleGetFunction(&s.function, s.module, m.entry.c_str())) ||
        !s.check("hipStreamCreate", hip.streamCreate(&s.stream)))
      return driverError();
    return true;
  }

  /// Random A and B copied to the device, room for D, and the kernel's
  /// arguments, grid and block.
  bool upload() {
    const ProblemSize &size = result.size;
    size_t aCount = size.m * size.k, bCount = size.k * size.n;
    dCount = size_t(size.m) * size.n;
    a = randomMatrix(aCount, m.dtype, 1);
    b = randomMatrix(bCount, m.dtype, 2);
    void *da = nullptr, *db = nullptr;
    if (!s.alloc(da, aCount * 2) || !s.alloc(db, bCount * 2) ||
        !s.alloc(dd, dCount * 4) ||
        !s.check("hipMemcpyHtoD", hip.memcpyHtoD(da, a.data(), aCount * 2)) ||
        !s.check("hipMemcpyHtoD", hip.memcpyHtoD(db, b.data(), bCount * 2)))
      return driverError();
    DeviceOperands operands;
    operands.a = address(da);
    operands.b = address(db);
    operands.d = address(dd);
    arguments = packArguments(m, size, operands);
    result.grid = gridFor(m, size, /*smCount=*/0);
    result.block = {unsigned(m.block[0]), unsigned(m.block[1]),
                    unsigned(m.block[2])};
    return true;
  }

  /// One launch into a D poisoned with NaN, its rows checked against the
  /// CPU in double.
  bool checkedLaunch() {
    if (!s.check("hipMemsetD32", hip.memsetD32(dd, int(kPoisonBits), dCount)) ||
        !launch())
      return driverError();
    if (!waitFor(options.timeoutMs, "checked launch"))
      return false;
    std::vector<float> out(dCount);
    if (!s.check("hipMemcpyDtoH", hip.memcpyDtoH(out.data(), dd, dCount * 4)))
      return driverError();
    const ProblemSize &size = result.size;
    std::vector<int64_t> rows = rowsToCheck(size);
    std::vector<double> reference = referenceRows(
        a, b, m.dtype, size, rows, referenceThreads(options.cpuThreads));
    result.cpuCheck = compareRows(out, reference, size.n, rows, size.n);
    result.cpuRows = int64_t(rows.size());
    result.blasNote = "no vendor BLAS baseline on AMD yet";
    const ErrorStats &worst = result.cpuCheck;
    if (worst.nonFinite > 0 || worst.relative > result.threshold)
      return stop(RunStatus::WrongResult,
                  "wrong result: see the check above (threshold " +
                      std::to_string(result.threshold) + ")");
    return true;
  }

  /// The warm-up launches, waited for together.
  bool warmUp() {
    for (int i = 0; i < options.warmup; ++i)
      if (!launch())
        return driverError();
    return waitFor(double(options.timeoutMs) * std::max(1, options.warmup),
                   "warm-up");
  }

  /// One event pair per timed launch; their times summarized into the
  /// result.
  bool timedLaunches() {
    std::vector<hip::Event> events(2 * size_t(options.repeat));
    for (hip::Event &event : events) {
      if (!s.check("hipEventCreate", hip.eventCreate(&event)))
        return driverError();
      s.events.push_back(event);
    }
    for (int i = 0; i < options.repeat; ++i)
      if (!s.check("hipEventRecord",
                   hip.eventRecord(events[2 * i], s.stream)) ||
          !launch() ||
          !s.check("hipEventRecord",
                   hip.eventRecord(events[2 * i + 1], s.stream)))
        return driverError();
    if (!waitFor(double(options.timeoutMs) * options.repeat, "timed launches"))
      return false;
    std::vector<double> ms;
    for (int i = 0; i < options.repeat; ++i) {
      float elapsed = 0;
      if (!s.check(
              "hipEventElapsedTime",
              hip.eventElapsedTime(&elapsed, events[2 * i], events[2 * i + 1])))
        return driverError();
      ms.push_back(elapsed);
    }
    result.kernel = summarize(ms);
    return true;
  }

private:
  bool stop(RunStatus status, std::string message) {
    result = fail(result, status, std::move(message));
    return false;
  }
  bool driverError() { return stop(RunStatus::DriverError, s.error); }

  /// Waits `ms` for the stream to be idle. A hang's message names the
  /// per-launch timeout (--timeout-ms), not `ms`.
  bool waitFor(double ms, const char *when) {
    if (s.wait(ms))
      return true;
    if (!s.hung)
      return driverError();
    return stop(RunStatus::Hang, "no completion after " +
                                     std::to_string(options.timeoutMs) +
                                     " ms (" + when + ")");
  }

  bool launch() {
    std::vector<void *> pointers = arguments.pointers();
    return s.check(
        "hipModuleLaunchKernel",
        hip.moduleLaunchKernel(s.function, result.grid[0], result.grid[1],
                               result.grid[2], result.block[0], result.block[1],
                               result.block[2], unsigned(m.dynamicSharedBytes),
                               s.stream, pointers.data(), nullptr));
  }

  HipSession &s;
  const hip::Runtime &hip;
  const Manifest &m;
  const RunOptions &options;
  LaunchResult &result;
  std::vector<uint16_t> a, b; // kept for the CPU's check
  void *dd = nullptr;
  size_t dCount = 0;
  PackedArguments arguments;
};

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
  HipSession s(*runtime);
  HipGemmRun run(s, m, options, result);
  // Each phase stops at its first failure, which it wrote into the result.
  if (run.openDevice() && run.loadKernel(codeObject) && run.upload() &&
      run.checkedLaunch() && run.warmUp())
    run.timedLaunches();
  return result;
}
