//===- CudaSession.h - One run's hold on a CUDA device ----------*- C++ -*-===//
//
// Private to runtime/lib: what the gemm and gather runners share: the
// device, context, module and stream of one run, released on every path
// but a hang; the device facts; and event-pair timing.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LIB_CUDASESSION_H
#define KLX_RUNTIME_LIB_CUDASESSION_H

#include "klx/Runtime/CudaDriver.h"
#include "klx/Runtime/Runner.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace klx::rt {

/// Everything one run holds on the device, released on every path but a
/// hang (then the process ends without touching the context again).
class Session {
public:
  explicit Session(const cu::Driver &driver) : cu(driver) {}
  ~Session() {
    if (hung)
      return;
    for (cu::DevicePtr ptr : allocations)
      cu.memFree(ptr);
    for (cu::Event event : events)
      cu.eventDestroy(event);
    if (stream)
      cu.streamDestroy(stream);
    if (module)
      cu.moduleUnload(module);
    if (traceModule)
      cu.moduleUnload(traceModule);
    if (context)
      cu.primaryCtxRelease(device);
  }

  /// Records the first failure; true when `result` is success.
  bool check(const char *call, cu::Result result) {
    if (result == cu::kSuccess)
      return true;
    if (error.empty())
      error = cu.describe(call, result);
    return false;
  }

  /// Frees one allocation before the session ends (a trace buffer
  /// replaced by a bigger one).
  void release(cu::DevicePtr ptr) {
    for (size_t i = 0; i < allocations.size(); ++i)
      if (allocations[i] == ptr) {
        cu.memFree(ptr);
        allocations.erase(allocations.begin() + long(i));
        return;
      }
  }

  bool alloc(cu::DevicePtr &ptr, size_t bytes) {
    if (!check("cuMemAlloc", cu.memAlloc(&ptr, bytes)))
      return false;
    allocations.push_back(ptr);
    return true;
  }

  /// Waits for the stream; false on a driver error or after `ms`.
  bool wait(double ms) {
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::microseconds(int64_t(ms * 1000));
    while (true) {
      cu::Result r = cu.streamQuery(stream);
      if (r == cu::kSuccess)
        return true;
      if (cu::isKernelFault(r)) {
        faulted = true;
        // Every later call fails the same way: leave the context alone.
        hung = true;
        error = cu.describe("the kernel", r);
        return false;
      }
      if (r != cu::kErrorNotReady)
        return check("cuStreamQuery", r);
      if (std::chrono::steady_clock::now() > deadline) {
        hung = true;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

  const cu::Driver &cu;
  cu::Device device = 0;
  cu::Context context = nullptr;
  cu::Module module = nullptr;
  cu::Module traceModule = nullptr;
  cu::Function function = nullptr;
  cu::Stream stream = nullptr;
  std::vector<cu::DevicePtr> allocations;
  std::vector<cu::Event> events;
  std::string error;
  bool hung = false;
  bool faulted = false;
};

LaunchResult fail(LaunchResult result, RunStatus status, std::string message);

/// The bytes of the file at `path`; false when it cannot be read.
bool readFile(const std::string &path, std::string &out);

int attribute(Session &s, int which);

/// Loads the driver, takes GPU 0, fills the device facts of `result`,
/// checks the bundle's target and shared memory against it, and loads
/// `binary`'s entry with a stream to launch on. The failure, or nullopt
/// with `session` ready; `l2Bytes` is the device's L2 size.
std::optional<LaunchResult> openSession(std::unique_ptr<Session> &session,
                                        const Manifest &m,
                                        const std::string &binary,
                                        LaunchResult &result, int &l2Bytes);

/// One launch of input set `set`; false when the launch failed.
using Issue = std::function<bool(size_t)>;

/// `options.warmup` launches, then `options.repeat` launches of each issue
/// between an event pair, alternating, rotating over `sets` input sets.
bool timeLaunches(Session &s, const std::vector<Issue> &issues,
                  const std::vector<Timing *> &timings,
                  const RunOptions &options, size_t sets);

} // namespace klx::rt

#endif // KLX_RUNTIME_LIB_CUDASESSION_H
