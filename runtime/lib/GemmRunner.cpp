//===- GemmRunner.cpp - Launching a gemm Bundle ---------------------------===//
//
// One GemmRun per bundle run, its phases in the order they run; each
// returns the failure that ends the run, or nothing. A launch that does not
// complete within the timeout is a hang: the result says so and the caller
// ends the process (the driver tears the context down).
//
//===----------------------------------------------------------------------===//

#include "GemmRunner.h"

#include "CudaSession.h"

#include "klx/Runtime/Cublas.h"
#include "klx/Runtime/Launch.h"
#include "klx/Runtime/Trace.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace klx::rt;

namespace {

constexpr int kMaxInputSets = 16;

struct InputSet {
  cu::DevicePtr a = 0, b = 0, d = 0, maps = 0; // maps: A's, B's, D's
  DeviceOperands operands(cu::DevicePtr trace = 0) const {
    DeviceOperands o;
    o.tensorMapA = maps;
    o.tensorMapB = maps + sizeof(cu::TensorMap);
    o.tensorMapD = maps + 2 * sizeof(cu::TensorMap);
    o.d = d;
    o.trace = trace;
    return o;
  }
};

bool encodeMap(Session &s, const Manifest &m, const Param &param,
               const ProblemSize &size, cu::DevicePtr data,
               cu::DevicePtr where) {
  TensorMapRequest r = tensorMapFor(m, param, size);
  cu::TensorMap map;
  std::memset(&map, 0, sizeof map);
  uint64_t strides[1] = {r.rowStrideBytes};
  unsigned elementStrides[2] = {1, 1};
  if (!s.check("cuTensorMapEncodeTiled",
               s.cu.tensorMapEncodeTiled(
                   &map, r.dataType, 2, reinterpret_cast<void *>(data),
                   r.dims.data(), strides, r.box.data(), elementStrides,
                   /*interleave none*/ 0, r.swizzle, /*L2 promotion none*/ 0,
                   /*out of bounds: zeros*/ 0)))
    return false;
  return s.check("cuMemcpyHtoD", s.cu.memcpyHtoD(where, &map, sizeof map));
}

/// What D holds before the checked launch: a quiet NaN in every element.
unsigned poisonWord(DType out) {
  return out == DType::BF16  ? kPoisonBitsBF16
         : out == DType::F16 ? kPoisonBitsF16
                             : kPoisonBits;
}

/// What klx timeline said of the kernel, for a run that hung or faulted.
std::vector<std::string> simulatorSays(const Manifest &m) {
  std::vector<std::string> lines;
  if (!m.simulated) {
    lines.push_back("the bundle has no simulated verdict (klx timeline "
                    "could not model this kernel)");
    return lines;
  }
  lines.push_back(m.simulated->completes
                      ? "the simulated protocol completes: the cause is "
                        "not in the barrier protocol klx models"
                      : "the simulated protocol deadlocks too");
  for (const std::string &b : m.simulated->blocked)
    lines.push_back("blocked: " + b);
  for (const std::string &f : m.simulated->findings)
    lines.push_back("why: " + f);
  return lines;
}

using Failed = std::optional<LaunchResult>;

class GemmRun {
public:
  GemmRun(const std::string &dir, const Manifest &m, const RunOptions &options,
          LaunchResult &result, Session &s)
      : dir(dir), m(m), options(options), result(result), s(s), cu(s.cu) {}

  Failed upload(int l2Bytes);
  void configureLaunch();
  Failed checkedLaunch();
  void checkAgainstCpu();
  void checkAgainstCublas();
  Failed judge();
  Failed time();
  Failed recordTrace();

private:
  /// The instrumented build's D (the kept launch's, into poison) against
  /// the checked launch's, bit for bit, padding included: recording adds
  /// instructions, never a different sum.
  Failed checkRecordedOutput();
  /// The instrumented build's function, ready to launch.
  bool loadTraceFunction(const std::string &cubin, cu::Function &function);
  /// One instrumented launch into a fresh buffer of `layout` (`buffer`,
  /// freed first if set), decoded, its D checked.
  Failed recordOnce(cu::Function function, const TraceLayout &layout,
                    cu::DevicePtr &buffer, DecodedTrace &decoded, Issue &issue);
  bool launch(size_t set);
  /// Set 0's D filled with a word no kernel writes (NaN), so that an
  /// element a launch leaves unwritten cannot pass a check.
  bool poisonOutput() {
    return s.check("cuMemsetD32",
                   cu.memsetD32(sets[0].d, poisonWord(m.outDtype), dBytes / 4));
  }
  /// D's `dCount` elements at `from`, as floats.
  bool readOutput(cu::DevicePtr from, std::vector<float> &values);
  bool timeIssues(const std::vector<Issue> &issues,
                  const std::vector<Timing *> &timings) {
    return timeLaunches(s, issues, timings, options, sets.size());
  }
  /// The failure after a wait that did not end well, `when` it happened.
  LaunchResult stopped(const char *when);
  LaunchResult driverError() {
    return fail(result, RunStatus::DriverError, s.error);
  }

  const std::string &dir;
  const Manifest &m;
  const RunOptions &options;
  LaunchResult &result;
  Session &s;
  const cu::Driver &cu;

  std::vector<uint16_t> a, b; // the inputs, the same in every set
  OutputLayout layout;
  size_t dCount = 0; // D's elements, its padding included
  size_t dBytes = 0; // whole 32-bit words, for the poison
  std::vector<InputSet> sets;
  std::vector<PackedArguments> arguments;
  cu::LaunchAttribute cluster;
  cu::LaunchConfig config;
  std::vector<float> out; // the checked launch's D
  std::unique_ptr<Cublas> blas;
};

// Inputs: random, the same in every set; sets rotate so that timed
// launches read from DRAM, as a kernel in a model would.
Failed GemmRun::upload(int l2Bytes) {
  const ProblemSize &size = result.size;
  size_t aCount = size.m * size.k, bCount = size.k * size.n;
  layout = outputLayout(m, size);
  dCount = size_t(layout.elements());
  dBytes = (dCount * dtypeBytes(m.outDtype) + 3) / 4 * 4;
  size_t setBytes = (aCount + bCount) * 2 + dBytes;
  result.inputSets = int(std::clamp<int64_t>(
      (2 * int64_t(l2Bytes) + setBytes - 1) / setBytes, 1, kMaxInputSets));
  a = randomMatrix(aCount, m.dtype, 1);
  b = randomMatrix(bCount, m.dtype, 2);
  sets.resize(result.inputSets);
  const Param *paramA = nullptr, *paramB = nullptr, *paramD = nullptr;
  for (const Param &p : m.params)
    if (p.kind == Param::Kind::TensorMap)
      (p.name == "A" ? paramA : p.name == "B" ? paramB : paramD) = &p;
  for (InputSet &set : sets) {
    if (!s.alloc(set.a, aCount * 2) || !s.alloc(set.b, bCount * 2) ||
        !s.alloc(set.d, dBytes) ||
        !s.alloc(set.maps, 3 * sizeof(cu::TensorMap)) ||
        !s.check("cuMemcpyHtoD", cu.memcpyHtoD(set.a, a.data(), aCount * 2)) ||
        !s.check("cuMemcpyHtoD", cu.memcpyHtoD(set.b, b.data(), bCount * 2)) ||
        !encodeMap(s, m, *paramA, size, set.a, set.operands().tensorMapA) ||
        !encodeMap(s, m, *paramB, size, set.b, set.operands().tensorMapB) ||
        (paramD &&
         !encodeMap(s, m, *paramD, size, set.d, set.operands().tensorMapD)))
      return driverError();
  }
  for (const InputSet &set : sets)
    arguments.push_back(packArguments(m, size, set.operands()));
  return std::nullopt;
}

void GemmRun::configureLaunch() {
  result.block = {unsigned(m.block[0]), unsigned(m.block[1]),
                  unsigned(m.block[2])};
  result.dynamicSharedBytes = unsigned(m.dynamicSharedBytes);
  std::memset(&cluster, 0, sizeof cluster);
  cluster.id = cu::kLaunchAttributeClusterDimension;
  cluster.value.clusterDim = {unsigned(m.cluster[0]), unsigned(m.cluster[1]),
                              unsigned(m.cluster[2])};
  bool clustered = m.cluster[0] * m.cluster[1] * m.cluster[2] > 1;
  config = {result.grid[0],
            result.grid[1],
            result.grid[2],
            result.block[0],
            result.block[1],
            result.block[2],
            result.dynamicSharedBytes,
            s.stream,
            clustered ? &cluster : nullptr,
            clustered ? 1u : 0u};
  // How many clusters fit on the GPU at once: a persistent grid larger
  // than that would run its last clusters in a second wave.
  int maxClusters = 0;
  if (clustered && cu.occupancyMaxActiveClusters) {
    // One cluster's worth of grid (the grid is not known yet).
    config.gridDimX = unsigned(m.cluster[0]);
    config.gridDimY = unsigned(m.cluster[1]);
    config.gridDimZ = unsigned(m.cluster[2]);
    if (cu.occupancyMaxActiveClusters(&maxClusters, s.function, &config) != 0)
      maxClusters = 0;
  }
  result.clusterSize = unsigned(m.cluster[0] * m.cluster[1] * m.cluster[2]);
  result.maxClusters = maxClusters;
  result.grid = gridFor(m, result.size, result.smCount, maxClusters);
  config.gridDimX = result.grid[0];
  config.gridDimY = result.grid[1];
  config.gridDimZ = result.grid[2];
}

bool GemmRun::launch(size_t set) {
  std::vector<void *> pointers = arguments[set].pointers();
  return s.check(
      "cuLaunchKernelEx",
      cu.launchKernelEx(&config, s.function, pointers.data(), nullptr));
}

LaunchResult GemmRun::stopped(const char *when) {
  if (!s.hung)
    return driverError();
  result.simulated = simulatorSays(m);
  if (s.faulted)
    return fail(result, RunStatus::KernelFault,
                s.error + " (" + when +
                    "): a trap, an illegal address, or an mbarrier driven "
                    "out of protocol");
  return fail(result, RunStatus::Hang,
              std::string("no completion after ") +
                  std::to_string(options.timeoutMs) + " ms (" + when + ")");
}

// The checked launch: into poisoned output, so that an element the kernel
// never writes cannot pass.
Failed GemmRun::checkedLaunch() {
  if (!poisonOutput() || !launch(0))
    return driverError();
  if (!s.wait(options.timeoutMs))
    return stopped("checked launch");
  if (!readOutput(sets[0].d, out))
    return driverError();
  return std::nullopt;
}

bool GemmRun::readOutput(cu::DevicePtr from, std::vector<float> &values) {
  std::vector<uint8_t> bytes(dBytes);
  if (!s.check("cuMemcpyDtoH", cu.memcpyDtoH(bytes.data(), from, dBytes)))
    return false;
  toFloats(bytes, m.outDtype, values);
  values.resize(dCount);
  return true;
}

// Every row (or a sample of them) against the CPU in double.
void GemmRun::checkAgainstCpu() {
  const ProblemSize &size = result.size;
  std::vector<int64_t> rows = rowsToCheck(size);
  std::vector<double> reference = referenceRows(
      a, b, m.dtype, size, rows, referenceThreads(options.cpuThreads));
  result.cpuCheck = compareRows(out, reference, size.n, rows, layout.rowStride);
  result.cpuRows = int64_t(rows.size());
}

// Every element against cuBLAS, when it loads: needed when the CPU saw a
// sample of the rows, or to time it beside the kernel.
void GemmRun::checkAgainstCublas() {
  const ProblemSize &size = result.size;
  if (!options.baseline && result.cpuRows >= size.m)
    return;
  blas = Cublas::load(s.stream, result.blasNote);
  cu::DevicePtr blasOut = 0;
  if (!blas || !s.alloc(blasOut, dBytes))
    return;
  std::string why = blas->gemm(size, m.dtype, m.outDtype, sets[0].a, sets[0].b,
                               blasOut, layout.rowStride);
  std::vector<float> expected;
  if (!why.empty() || !s.wait(options.timeoutMs) ||
      !readOutput(blasOut, expected)) {
    result.blasNote = why.empty() ? s.error : why;
    blas.reset();
    return;
  }
  // cuBLAS wrote the same layout; compare the M x N inside it.
  std::vector<double> ref(size_t(size.m) * size.n);
  std::vector<int64_t> all(size.m);
  for (int64_t r = 0; r < size.m; ++r) {
    all[r] = r;
    for (int64_t c = 0; c < size.n; ++c)
      ref[r * size.n + c] = expected[r * layout.rowStride + c];
  }
  result.blasCheck = compareRows(out, ref, size.n, all, layout.rowStride);
  result.blasChecked = true;
}

Failed GemmRun::judge() {
  const ErrorStats &worst = result.cpuCheck;
  bool wrong =
      worst.nonFinite > 0 || worst.relative > result.threshold ||
      (result.blasChecked && (result.blasCheck.nonFinite > 0 ||
                              result.blasCheck.relative > result.threshold));
  if (!wrong)
    return std::nullopt;
  return fail(result, RunStatus::WrongResult,
              "wrong result: see the check above (threshold " +
                  std::to_string(result.threshold) + ")");
}

// Timing: warm-up, then one event pair per launch. klx alone first, so that
// a kernel that hangs only when timed is caught before cuBLAS shares the
// stream; then, with a baseline, the two alternate launch by launch, so
// that clocks and temperature are the same for both.
Failed GemmRun::time() {
  Issue kernel = [&](size_t set) { return launch(set); };
  if (!timeIssues({kernel}, {&result.kernel}))
    return stopped("timed launches");
  if (!blas || !options.baseline)
    return std::nullopt;
  Issue reference = [&](size_t set) {
    std::string why = blas->gemm(result.size, m.dtype, m.outDtype, sets[set].a,
                                 sets[set].b, sets[set].d, layout.rowStride);
    if (!why.empty() && s.error.empty())
      s.error = why;
    return why.empty();
  };
  result.blasTimed = timeIssues({kernel, reference},
                                {&result.kernelAlternating, &result.blas});
  if (!result.blasTimed) {
    if (s.hung)
      return stopped("timed launches, alternating with cuBLAS");
    result.blasNote = s.error;
  }
  return std::nullopt;
}

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

} // namespace

LaunchResult klx::rt::runGemmBundle(const std::string &dir, const Manifest &m,
                                    const std::string &cubin,
                                    const RunOptions &options,
                                    LaunchResult result) {
  std::unique_ptr<Session> session;
  int l2Bytes = 0;
  if (Failed failed = openSession(session, m, cubin, result, l2Bytes))
    return *failed;
  GemmRun run(dir, m, options, result, *session);
  if (Failed failed = run.upload(l2Bytes))
    return *failed;
  run.configureLaunch();
  if (Failed failed = run.checkedLaunch())
    return *failed;
  run.checkAgainstCpu();
  run.checkAgainstCublas();
  if (Failed failed = run.judge())
    return *failed;
  if (Failed failed = run.time())
    return *failed;
  if (!options.tracePath.empty())
    if (Failed failed = run.recordTrace())
      return *failed;
  return result;
}
