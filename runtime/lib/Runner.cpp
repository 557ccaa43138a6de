//===- Runner.cpp - Launch a Bundle, check it, time it --------------------===//
//
// One stream, every driver call checked and reported by name. A launch
// that does not complete within the timeout is a hang: the result says so
// and the caller ends the process (the driver tears the context down).
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/Runner.h"

#include "CudaSession.h"
#include "GatherRunner.h"
#include "HipRunner.h"

#include "klx/Runtime/Cublas.h"
#include "klx/Runtime/CudaDriver.h"
#include "klx/Runtime/Launch.h"
#include "klx/Runtime/Trace.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

using namespace klx::rt;

namespace {

constexpr int kMaxInputSets = 16;

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  out = buffer.str();
  return true;
}

/// Why `elf` is not a whole ELF file, or "": a 64-bit object must hold
/// its section header table (a copy cut short loses it first).
std::string elfProblem(const std::string &elf) {
  if (elf.size() < 52 || elf.compare(0, 4,
                                     "\x7f"
                                     "ELF") != 0)
    return "no ELF header";
  if (elf[4] != 2) // ELFCLASS64: what ptxas and ld.lld write
    return "";
  if (elf.size() < 64)
    return "truncated: " + std::to_string(elf.size()) +
           " bytes, shorter than an ELF64 header";
  auto read = [&](size_t at, size_t bytes) {
    uint64_t value = 0;
    for (size_t i = 0; i < bytes; ++i)
      value |= uint64_t(uint8_t(elf[at + i])) << (8 * i);
    return value;
  };
  uint64_t sectionHeaders = read(0x28, 8);
  uint64_t end = sectionHeaders + read(0x3A, 2) * read(0x3C, 2);
  if (end > elf.size())
    return "truncated: its section headers end at byte " + std::to_string(end) +
           ", the file has " + std::to_string(elf.size());
  return "";
}

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

} // namespace

std::string klx::rt::probeDevice(std::string &error) {
  const cu::Driver *driver = cu::loadDriver(error);
  if (!driver)
    return "";
  int count = 0;
  cu::Result init = driver->init(0);
  if (init == cu::kErrorNoDevice ||
      (init == cu::kSuccess && driver->deviceGetCount(&count) == cu::kSuccess &&
       count == 0)) {
    error = "no CUDA device";
    return "";
  }
  if (init != cu::kSuccess) {
    error = "no CUDA device: " + driver->describe("cuInit", init);
    return "";
  }
  cu::Device device = 0;
  char name[256] = {0};
  int major = 0, minor = 0, sms = 0;
  if (driver->deviceGet(&device, 0) != cu::kSuccess ||
      driver->deviceGetName(name, sizeof name - 1, device) != cu::kSuccess) {
    error = "no CUDA device: cuDeviceGet failed";
    return "";
  }
  driver->deviceGetAttribute(&major, cu::kComputeCapabilityMajor, device);
  driver->deviceGetAttribute(&minor, cu::kComputeCapabilityMinor, device);
  driver->deviceGetAttribute(&sms, cu::kMultiprocessorCount, device);
  return std::string(name) + " (sm_" + std::to_string(major * 10 + minor) +
         ", " + std::to_string(sms) + " SMs)";
}

Timing klx::rt::summarize(std::vector<double> ms) {
  Timing t;
  t.ms = ms;
  if (ms.empty())
    return t;
  std::sort(ms.begin(), ms.end());
  t.min = ms.front();
  t.max = ms.back();
  size_t mid = ms.size() / 2;
  t.median = ms.size() % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
  return t;
}

LaunchResult klx::rt::runBundle(const std::string &dir,
                                const RunOptions &options) {
  LaunchResult result;
  // The bundle first: a wrong bundle is reported the same with or
  // without a GPU.
  std::string text, error;
  if (!readFile(dir + "/manifest.json", text))
    return fail(result, RunStatus::BundleError,
                dir + "/manifest.json: cannot read it (is " + dir +
                    " a bundle written by klx export?)");
  std::optional<Manifest> manifest = parseManifest(text, error);
  if (!manifest)
    return fail(result, RunStatus::BundleError, dir + "/" + error);
  const Manifest &m = *manifest;
  std::string cubin;
  if (!readFile(dir + "/" + m.binary, cubin) || cubin.empty())
    return fail(result, RunStatus::BundleError,
                dir + "/" + m.binary + ": missing or empty");
  if (std::string why = elfProblem(cubin); !why.empty())
    return fail(result, RunStatus::BundleError,
                dir + "/" + m.binary + ": not a whole " +
                    (m.amd() ? "code object" : "cubin") + " (" + why + ")");
  if (!options.tracePath.empty() && !m.trace)
    return fail(result, RunStatus::BundleError,
                "--trace: the bundle has no instrumented build (export it "
                "with `klx export --trace`)");
  result.entry = m.entry;
  result.size = options.size.value_or(m.problem);
  result.dtype = m.dtype;
  result.threshold = errorThreshold(m.dtype);
  if (std::string why = checkProblemSize(m, result.size); !why.empty())
    return fail(result, RunStatus::BundleError, "--size=" + why);
  if (m.amd())
    return runHipBundle(m, cubin, options, std::move(result));
  if (m.gather)
    return runGatherBundle(m, cubin, options, std::move(result));

  std::unique_ptr<Session> session;
  int l2Bytes = 0;
  if (std::optional<LaunchResult> failed =
          openSession(session, m, cubin, result, l2Bytes))
    return *failed;
  Session &s = *session;
  const cu::Driver &cu = s.cu;

  // Inputs: random, the same in every set; sets rotate so that timed
  // launches read from DRAM, as a kernel in a model would.
  const ProblemSize &size = result.size;
  size_t aCount = size.m * size.k, bCount = size.k * size.n;
  OutputLayout layout = outputLayout(m, size);
  size_t dCount = size_t(layout.elements());
  size_t setBytes = (aCount + bCount) * 2 + dCount * 4;
  result.inputSets = int(std::clamp<int64_t>(
      (2 * int64_t(l2Bytes) + setBytes - 1) / setBytes, 1, kMaxInputSets));
  std::vector<uint16_t> a = randomMatrix(aCount, m.dtype, 1);
  std::vector<uint16_t> b = randomMatrix(bCount, m.dtype, 2);
  std::vector<InputSet> sets(result.inputSets);
  const Param *paramA = nullptr, *paramB = nullptr, *paramD = nullptr;
  for (const Param &p : m.params)
    if (p.kind == Param::Kind::TensorMap)
      (p.name == "A" ? paramA : p.name == "B" ? paramB : paramD) = &p;
  for (InputSet &set : sets) {
    if (!s.alloc(set.a, aCount * 2) || !s.alloc(set.b, bCount * 2) ||
        !s.alloc(set.d, dCount * 4) ||
        !s.alloc(set.maps, 3 * sizeof(cu::TensorMap)) ||
        !s.check("cuMemcpyHtoD", cu.memcpyHtoD(set.a, a.data(), aCount * 2)) ||
        !s.check("cuMemcpyHtoD", cu.memcpyHtoD(set.b, b.data(), bCount * 2)) ||
        !encodeMap(s, m, *paramA, size, set.a, set.operands().tensorMapA) ||
        !encodeMap(s, m, *paramB, size, set.b, set.operands().tensorMapB) ||
        (paramD &&
         !encodeMap(s, m, *paramD, size, set.d, set.operands().tensorMapD)))
      return fail(result, RunStatus::DriverError, s.error);
  }
  std::vector<PackedArguments> arguments;
  for (const InputSet &set : sets)
    arguments.push_back(packArguments(m, size, set.operands()));

  result.grid = gridFor(m, size, result.smCount);
  result.block = {unsigned(m.block[0]), unsigned(m.block[1]),
                  unsigned(m.block[2])};
  result.dynamicSharedBytes = unsigned(m.dynamicSharedBytes);
  cu::LaunchAttribute cluster;
  std::memset(&cluster, 0, sizeof cluster);
  cluster.id = cu::kLaunchAttributeClusterDimension;
  cluster.value.clusterDim = {unsigned(m.cluster[0]), unsigned(m.cluster[1]),
                              unsigned(m.cluster[2])};
  bool clustered = m.cluster[0] * m.cluster[1] * m.cluster[2] > 1;
  cu::LaunchConfig config = {result.grid[0],
                             result.grid[1],
                             result.grid[2],
                             result.block[0],
                             result.block[1],
                             result.block[2],
                             result.dynamicSharedBytes,
                             s.stream,
                             clustered ? &cluster : nullptr,
                             clustered ? 1u : 0u};
  auto launch = [&](size_t set) {
    std::vector<void *> pointers = arguments[set].pointers();
    return s.check(
        "cuLaunchKernelEx",
        cu.launchKernelEx(&config, s.function, pointers.data(), nullptr));
  };
  auto simulatorSays = [&]() {
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
  };
  auto hang = [&](const char *when) {
    result.simulated = simulatorSays();
    if (s.faulted)
      return fail(result, RunStatus::KernelFault,
                  s.error + " (" + when +
                      "): a trap, an illegal address, or an mbarrier driven "
                      "out of protocol");
    return fail(result, RunStatus::Hang,
                std::string("no completion after ") +
                    std::to_string(options.timeoutMs) + " ms (" + when + ")");
  };

  // The checked launch: poisoned output, every row (or a sample) against
  // the CPU in double, every element against cuBLAS when it is there.
  if (!s.check("cuMemsetD32", cu.memsetD32(sets[0].d, kPoisonBits, dCount)) ||
      !launch(0))
    return fail(result, RunStatus::DriverError, s.error);
  if (!s.wait(options.timeoutMs))
    return s.hung ? hang("checked launch")
                  : fail(result, RunStatus::DriverError, s.error);
  std::vector<float> out(dCount);
  if (!s.check("cuMemcpyDtoH",
               cu.memcpyDtoH(out.data(), sets[0].d, dCount * 4)))
    return fail(result, RunStatus::DriverError, s.error);
  std::vector<int64_t> rows = rowsToCheck(size);
  std::vector<double> reference = referenceRows(
      a, b, m.dtype, size, rows, referenceThreads(options.cpuThreads));
  result.cpuCheck = compareRows(out, reference, size.n, rows, layout.rowStride);
  result.cpuRows = int64_t(rows.size());

  std::unique_ptr<Cublas> blas =
      options.baseline || rows.size() < size_t(size.m)
          ? Cublas::load(s.stream, result.blasNote)
          : nullptr;
  cu::DevicePtr blasOut = 0;
  if (blas && s.alloc(blasOut, dCount * 4)) {
    std::string why = blas->gemm(size, m.dtype, sets[0].a, sets[0].b, blasOut,
                                 layout.rowStride);
    std::vector<float> expected(dCount);
    if (why.empty() && s.wait(options.timeoutMs) &&
        s.check("cuMemcpyDtoH",
                cu.memcpyDtoH(expected.data(), blasOut, dCount * 4))) {
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
    } else {
      result.blasNote = why.empty() ? s.error : why;
      blas.reset();
    }
  }
  const ErrorStats &worst = result.cpuCheck;
  bool wrong =
      worst.nonFinite > 0 || worst.relative > result.threshold ||
      (result.blasChecked && (result.blasCheck.nonFinite > 0 ||
                              result.blasCheck.relative > result.threshold));
  if (wrong)
    return fail(result, RunStatus::WrongResult,
                "wrong result: see the check above (threshold " +
                    std::to_string(result.threshold) + ")");

  // Timing: warm-up, then one event pair per launch. With a baseline the
  // two alternate launch by launch, so that clocks and temperature are the
  // same for both.
  auto time = [&](const std::vector<Issue> &issues,
                  const std::vector<Timing *> &timings) {
    return timeLaunches(s, issues, timings, options, sets.size());
  };
  // klx alone first: a kernel that hangs only when timed is caught before
  // cuBLAS shares the stream.
  if (!time({launch}, {&result.kernel}))
    return s.hung ? hang("timed launches")
                  : fail(result, RunStatus::DriverError, s.error);
  if (blas && options.baseline) {
    Issue issue = [&](size_t set) {
      std::string why = blas->gemm(size, m.dtype, sets[set].a, sets[set].b,
                                   sets[set].d, layout.rowStride);
      if (!why.empty() && s.error.empty())
        s.error = why;
      return why.empty();
    };
    result.blasTimed =
        time({launch, issue}, {&result.kernelAlternating, &result.blas});
    if (!result.blasTimed) {
      if (s.hung)
        return hang("timed launches, alternating with cuBLAS");
      result.blasNote = s.error;
    }
  }
  if (!options.tracePath.empty()) {
    // The instrumented build: one launch whose events are written out,
    // then timed like the kernel to state what recording costs.
    const TraceSection &t = *m.trace; // checked before the driver
    std::string traceCubin;
    if (!readFile(dir + "/" + t.binary, traceCubin) || traceCubin.empty())
      return fail(result, RunStatus::BundleError,
                  dir + "/" + t.binary + ": missing or empty");
    cu::Function traceFunction = nullptr;
    TraceLayout layout{t.ctas, t.warps, t.events};
    cu::DevicePtr buffer = 0;
    size_t bytes = size_t(layout.words()) * 8;
    if (!s.check("cuModuleLoadData",
                 cu.moduleLoadData(&s.traceModule, traceCubin.data())) ||
        !s.check("cuModuleGetFunction",
                 cu.moduleGetFunction(&traceFunction, s.traceModule,
                                      m.entry.c_str())) ||
        (m.dynamicSharedBytes > 48 * 1024 &&
         !s.check(
             "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
             cu.funcSetAttribute(traceFunction,
                                 cu::kFuncAttributeMaxDynamicSharedSizeBytes,
                                 int(m.dynamicSharedBytes)))) ||
        !s.alloc(buffer, bytes) ||
        !s.check("cuMemsetD32", cu.memsetD32(buffer, 0, bytes / 4)))
      return fail(result, RunStatus::DriverError, s.error);
    std::vector<PackedArguments> traceArguments;
    for (const InputSet &set : sets)
      traceArguments.push_back(
          packArguments(m, t.params, size, set.operands(buffer)));
    Issue traced = [&](size_t set) {
      std::vector<void *> pointers = traceArguments[set].pointers();
      return s.check(
          "cuLaunchKernelEx",
          cu.launchKernelEx(&config, traceFunction, pointers.data(), nullptr));
    };
    if (!traced(0))
      return fail(result, RunStatus::DriverError, s.error);
    if (!s.wait(options.timeoutMs))
      return s.hung ? hang("instrumented launch")
                    : fail(result, RunStatus::DriverError, s.error);
    std::vector<int64_t> words(size_t(layout.words()));
    if (!s.check("cuMemcpyDtoH", cu.memcpyDtoH(words.data(), buffer, bytes)))
      return fail(result, RunStatus::DriverError, s.error);
    int64_t unknown = 0;
    std::vector<WarpTrace> warps =
        decodeTrace(words, layout, t.warpRoles, unknown);
    TraceSummary summary = summarizeTrace(warps);
    if (!time({traced}, {&result.tracedKernel}))
      return s.hung ? hang("instrumented timed launches")
                    : fail(result, RunStatus::DriverError, s.error);
    std::string note = "instrumented median " +
                       std::to_string(result.tracedKernel.median) + " ms vs " +
                       std::to_string(result.kernel.median) + " ms without";
    std::ofstream file(options.tracePath, std::ios::binary);
    file << chromeTraceJson(warps, result.clockKHz, m.entry, note);
    if (!file)
      return fail(result, RunStatus::BundleError,
                  options.tracePath + ": cannot write the trace");
    result.traced = true;
    result.tracePath = options.tracePath;
    result.traceEvents = summary.events;
    result.traceDropped = summary.dropped;
    result.traceCtas = t.ctas;
    result.traceWarps = int64_t(warps.size());
    result.waitingShare = summary.waitingShare;
  }
  return result;
}
