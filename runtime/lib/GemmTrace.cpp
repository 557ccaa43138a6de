//===- GemmTrace.cpp - The instrumented build of a gemm Bundle ------------===//
//
// GemmRun's last phase (GemmRun.h): the instrumented build launched into
// a trace buffer, decoded, its D checked against the kernel's, timed, and
// written out as a Chrome trace with its critical path.
//
//===----------------------------------------------------------------------===//

#include "GemmRun.h"

#include <cstring>
#include <fstream>
#include <sstream>

using namespace klx::rt;
using namespace klx::rt::gemm;

bool GemmRun::loadTraceFunction(const std::string &cubin,
                                cu::Function &function) {
  return s.check("cuModuleLoadData",
                 cu.moduleLoadData(&s.traceModule, cubin.data())) &&
         s.check(
             "cuModuleGetFunction",
             cu.moduleGetFunction(&function, s.traceModule, m.entry.c_str())) &&
         (m.dynamicSharedBytes <= 48 * 1024 ||
          s.check("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                  cu.funcSetAttribute(
                      function, cu::kFuncAttributeMaxDynamicSharedSizeBytes,
                      int(m.dynamicSharedBytes))));
}

Failed GemmRun::recordOnce(cu::Function function, const TraceLayout &layout,
                           cu::DevicePtr &buffer, DecodedTrace &decoded,
                           Issue &issue) {
  const TraceSection &t = *m.trace;
  size_t bytes = size_t(layout.words()) * 8;
  if (buffer)
    s.release(buffer);
  buffer = 0;
  if (!s.alloc(buffer, bytes) ||
      !s.check("cuMemsetD32", cu.memsetD32(buffer, 0, bytes / 4)))
    return driverError();
  auto traceArguments = std::make_shared<std::vector<PackedArguments>>();
  for (const InputSet &set : sets) {
    DeviceOperands operands = set.operands(buffer);
    operands.traceEvents = layout.capacity;
    traceArguments->push_back(
        packArguments(m, t.params, result.size, operands));
  }
  issue = [this, function, traceArguments](size_t set) {
    std::vector<void *> pointers = (*traceArguments)[set].pointers();
    return s.check(
        "cuLaunchKernelEx",
        cu.launchKernelEx(&config, function, pointers.data(), nullptr));
  };
  // Two launches, the second one kept: it runs with the clocks up and the
  // caches as the timed launches see them. The buffer is zeroed between
  // them: a warp's events end at its first zero word, and a wait is
  // recorded only where it blocks, so the second launch may record fewer
  // events than the first, whose tail would read as events of its own.
  // D is poisoned again too, so that checkRecordedOutput sees what the
  // kept launch wrote. (The stream is a blocking one: the memsets, on the
  // default stream, run after the first launch and before the second.)
  if (!issue(0) ||
      !s.check("cuMemsetD32", cu.memsetD32(buffer, 0, bytes / 4)) ||
      !poisonOutput() || !issue(0))
    return driverError();
  if (!s.wait(options.timeoutMs))
    return stopped("instrumented launch");
  std::vector<int64_t> words(size_t(layout.words()));
  if (!s.check("cuMemcpyDtoH", cu.memcpyDtoH(words.data(), buffer, bytes)))
    return driverError();
  decoded = decodeTrace(words, layout, t.warpRoles, result.clockKHz);
  decoded.cluster = {m.cluster[0], m.cluster[1]};
  decoded.gridX = result.grid[0];
  return checkRecordedOutput();
}

// The instrumented build: a launch whose events are written out (again,
// with room for every event, when a warp filled its buffer), then timed
// like the kernel to state what recording costs.
Failed GemmRun::recordTrace() {
  const TraceSection &t = *m.trace; // checked before the driver
  std::string cubin;
  if (!readFile(dir + "/" + t.binary, cubin) || cubin.empty())
    return fail(result, RunStatus::BundleError,
                dir + "/" + t.binary + ": missing or empty");
  cu::Function function = nullptr;
  if (!loadTraceFunction(cubin, function))
    return driverError();
  TraceLayout layout = traceLayoutFor(m, t, result.size, result.grid);
  for (int64_t id : t.ctaList)
    if (id >= ctasIn(result.grid))
      result.traceCtasNotInGrid.push_back(id);
  if (t.ctaList.empty() && t.ctas > ctasIn(result.grid))
    result.traceCtasOverGrid = t.ctas;
  if (options.traceEvents > 0)
    layout.capacity = options.traceEvents;
  if (layout.words() * 8 > kMaxTraceBytes)
    return fail(result, RunStatus::BundleError,
                "the trace of " + std::to_string(layout.slots) +
                    " CTAs needs " + std::to_string(layout.words() * 8 >> 20) +
                    " MiB, over klx-run's " +
                    std::to_string(kMaxTraceBytes >> 20) + " MiB: " +
                    (options.traceEvents > 0
                         ? "give --trace-events less room per warp, or "
                         : "") +
                    "export with --trace-ctas=N to record fewer");
  result.traceFirstCapacity = layout.capacity;
  DecodedTrace decoded;
  Issue traced;
  cu::DevicePtr buffer = 0;
  if (Failed failed = recordOnce(function, layout, buffer, decoded, traced))
    return failed;
  // A warp filled its buffer: once more with room for the most any warp
  // recorded (the same launch records the same events), if that fits.
  TraceLayout roomier = layout;
  roomier.capacity = decoded.mostRecorded;
  if (decoded.dropped() > 0 && roomier.words() * 8 <= kMaxTraceBytes) {
    result.traceRecordedAgain = true;
    layout = roomier;
    if (Failed failed = recordOnce(function, layout, buffer, decoded, traced))
      return failed;
  }
  TraceSummary summary = summarizeTrace(decoded.warps);
  if (!timeIssues({traced}, {&result.tracedKernel}))
    return stopped("instrumented timed launches");
  std::string note = "instrumented median " +
                     std::to_string(result.tracedKernel.median) + " ms vs " +
                     std::to_string(result.kernel.median) + " ms without";
  std::ofstream file(options.tracePath, std::ios::binary);
  result.criticalPath = analyzeCriticalPath(decoded, kStepsFor(m, result.size));
  file << chromeTraceJson(decoded, result.clockKHz, m.entry, note,
                          result.device + " (" +
                              std::to_string(result.smCount) + " SMs)",
                          &result.criticalPath, &m);
  if (!file)
    return fail(result, RunStatus::BundleError,
                options.tracePath + ": cannot write the trace");
  result.traced = true;
  result.tracePath = options.tracePath;
  result.traceEvents = summary.events;
  result.traceDropped = summary.dropped;
  result.traceCtas = int64_t(decoded.ctas.size());
  result.traceSms = countSms(decoded);
  result.traceCapacity = layout.capacity;
  result.traceWarps = int64_t(decoded.warps.size());
  result.waitingShare = result.criticalPath.waitingByRole;
  return std::nullopt;
}

Failed GemmRun::checkRecordedOutput() {
  std::vector<float> recorded;
  if (!readOutput(sets[0].d, recorded))
    return driverError();
  int64_t differ = 0, first = -1;
  for (size_t i = 0; i < out.size(); ++i)
    if (std::memcmp(&recorded[i], &out[i], sizeof(float)) != 0 && differ++ == 0)
      first = int64_t(i);
  result.traceOutputChecked = int64_t(out.size());
  if (differ == 0)
    return std::nullopt;
  int64_t stride = layout.rowStride > 0 ? layout.rowStride : result.size.n;
  std::ostringstream why;
  why << "the instrumented build wrote a different D: " << differ << " of "
      << out.size() << " elements differ, the first at row " << first / stride
      << ", column " << first % stride << " (" << recorded[first]
      << " against the kernel's " << out[first] << ")";
  return fail(result, RunStatus::WrongResult, why.str());
}
