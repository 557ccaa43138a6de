//===- GatherRunner.cpp - Launching a gather Bundle -----------------------===//
//
// One thread per element: y[i] = x[idx[i] + offset] + add (or x[i + ...]).
// idx is random over [0, N), so x is read out of order, as a gather in a
// model reads an embedding table; the check is exact, since the kernel
// does one f32 add the CPU does the same way.
//
//===----------------------------------------------------------------------===//

#include "GatherRunner.h"

#include "CudaSession.h"

#include "klx/Runtime/Launch.h"

#include <cstring>

using namespace klx::rt;

LaunchResult klx::rt::runGatherBundle(const Manifest &m,
                                      const std::string &cubin,
                                      const RunOptions &options,
                                      LaunchResult result) {
  const GatherProblem &gather = *m.gather;
  result.gather = gather.formula();
  result.threshold = 0;
  std::unique_ptr<Session> session;
  int l2Bytes = 0;
  if (std::optional<LaunchResult> failed =
          openSession(session, m, cubin, result, l2Bytes))
    return *failed;
  Session &s = *session;
  const cu::Driver &cu = s.cu;

  int64_t n = result.size.m;
  std::vector<int32_t> idx;
  std::vector<float> x;
  randomGatherInputs(gather, n, idx, x);
  cu::DevicePtr idxData = 0, xData = 0, yData = 0;
  size_t yBytes = size_t(n) * 4, xBytes = x.size() * 4,
         idxBytes = idx.size() * 4;
  if ((gather.indirect &&
       (!s.alloc(idxData, idxBytes) ||
        !s.check("cuMemcpyHtoD",
                 cu.memcpyHtoD(idxData, idx.data(), idxBytes)))) ||
      !s.alloc(xData, xBytes) || !s.alloc(yData, yBytes) ||
      !s.check("cuMemcpyHtoD", cu.memcpyHtoD(xData, x.data(), xBytes)))
    return fail(result, RunStatus::DriverError, s.error);
  DeviceOperands operands;
  operands.idx = idxData;
  operands.x = xData;
  operands.y = yData;
  // Each launch reads idx and one x per element and writes y.
  result.gatherBytes = int64_t(idxBytes + yBytes * 2);
  PackedArguments arguments = packArguments(m, result.size, operands);

  result.grid = gridFor(m, result.size, result.smCount);
  result.block = {unsigned(m.block[0]), 1, 1};
  result.dynamicSharedBytes = unsigned(m.dynamicSharedBytes);
  cu::LaunchConfig config = {result.grid[0],
                             1,
                             1,
                             result.block[0],
                             1,
                             1,
                             result.dynamicSharedBytes,
                             s.stream,
                             nullptr,
                             0u};
  Issue launch = [&](size_t) {
    std::vector<void *> pointers = arguments.pointers();
    return s.check(
        "cuLaunchKernelEx",
        cu.launchKernelEx(&config, s.function, pointers.data(), nullptr));
  };
  auto hang = [&](const char *when) {
    if (s.faulted)
      return fail(result, RunStatus::KernelFault,
                  s.error + " (" + when + "): a trap or an illegal address");
    return fail(result, RunStatus::Hang,
                std::string("no completion after ") +
                    std::to_string(options.timeoutMs) + " ms (" + when + ")");
  };

  if (!s.check("cuMemsetD32", cu.memsetD32(yData, kPoisonBits, n)) ||
      !launch(0))
    return fail(result, RunStatus::DriverError, s.error);
  if (!s.wait(options.timeoutMs))
    return s.hung ? hang("checked launch")
                  : fail(result, RunStatus::DriverError, s.error);
  std::vector<float> y(static_cast<size_t>(n));
  if (!s.check("cuMemcpyDtoH", cu.memcpyDtoH(y.data(), yData, yBytes)))
    return fail(result, RunStatus::DriverError, s.error);
  std::vector<float> expected = gatherReference(gather, idx, x, n);
  std::vector<double> reference(expected.begin(), expected.end());
  result.cpuCheck = compareRows(y, reference, n, std::vector<int64_t>{0});
  result.cpuRows = 1;
  if (result.cpuCheck.nonFinite > 0 || result.cpuCheck.maxAbsolute != 0)
    return fail(result, RunStatus::WrongResult,
                "wrong result: y differs from the CPU's " + result.gather);

  if (!timeLaunches(s, {launch}, {&result.kernel}, options, 1))
    return s.hung ? hang("timed launches")
                  : fail(result, RunStatus::DriverError, s.error);
  return result;
}
