//===- GemmRunner.cpp - Launching a gemm Bundle ---------------------------===//
//
// One GemmRun per bundle run, its phases in the order they run; each
// returns the failure that ends the run, or nothing. A launch that does not
// complete within the timeout is a hang: the result says so and the caller
// ends the process (the driver tears the context down).
//
//===----------------------------------------------------------------------===//

#include "GemmRunner.h"

#include "EpilogueCheck.h"
#include "GemmRun.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace klx::rt;
using namespace klx::rt::gemm;

namespace {

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

} // namespace

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
  if (Failed failed = uploadVectors())
    return failed;
  for (InputSet &set : sets)
    set.vectors = &deviceVectors;
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

Failed GemmRun::uploadVectors() {
  if (!m.epilogue)
    return std::nullopt;
  epilogue = epilogueInputs(m, result.size, epilogueVectors(m, result.size));
  for (const auto &[argument, values] : epilogue.vectors) {
    cu::DevicePtr where = 0;
    size_t bytes = values.size() * sizeof(float);
    if (!s.alloc(where, bytes) ||
        !s.check("cuMemcpyHtoD", cu.memcpyHtoD(where, values.data(), bytes)))
      return driverError();
    deviceVectors[m.params[argument].name] = {where, int64_t(values.size())};
    if (!m.epilogue->vectors.at(argument))
      bias = where;
  }
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
  unsigned threads = referenceThreads(options.cpuThreads);
  std::vector<double> reference =
      referenceRows(a, b, m.dtype, size, rows, threads);
  if (m.epilogue) {
    reference = epilogueRows(*m.epilogue, epilogue, reference, rows, threads);
    ulpFloor = rootMeanSquare(reference) / 64;
    result.cpuUlps = maxUlpError(out, reference, size.n, rows, layout.rowStride,
                                 DType::BF16, ulpFloor);
    result.ulpTolerance = kEpilogueUlps;
    cpuRows = rows;
    cpuReference = reference;
  }
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
  // With an epilogue cuBLAS computes A x B in f32, N apart, and the CPU
  // applies the epilogue to every row of it.
  DType blasType = m.epilogue ? DType::F32 : m.outDtype;
  int64_t blasStride = m.epilogue ? size.n : layout.rowStride;
  size_t blasBytes =
      m.epilogue ? size_t(size.m) * size_t(size.n) * sizeof(float) : dBytes;
  cu::DevicePtr blasOut = 0;
  if (!blas || !s.alloc(blasOut, blasBytes))
    return;
  std::string why = blas->gemm(size, m.dtype, blasType, sets[0].a, sets[0].b,
                               blasOut, blasStride);
  std::vector<float> expected;
  if (m.epilogue && why.empty()) {
    expected.resize(blasBytes / sizeof(float));
    if (!s.check("cuMemcpyDtoH",
                 cu.memcpyDtoH(expected.data(), blasOut, blasBytes)))
      why = s.error;
  }
  if (!why.empty() || !s.wait(options.timeoutMs) ||
      (!m.epilogue && !readOutput(blasOut, expected))) {
    result.blasNote = why.empty() ? s.error : why;
    blas.reset();
    return;
  }
  // cuBLAS wrote rows blasStride apart; compare the M x N inside them.
  std::vector<double> ref(size_t(size.m) * size.n);
  std::vector<int64_t> all(size.m);
  for (int64_t r = 0; r < size.m; ++r) {
    all[r] = r;
    for (int64_t c = 0; c < size.n; ++c)
      ref[r * size.n + c] = expected[r * blasStride + c];
  }
  if (m.epilogue) {
    ref = epilogueRows(*m.epilogue, epilogue, ref, all,
                       referenceThreads(options.cpuThreads));
    result.blasUlps = maxUlpError(out, ref, size.n, all, layout.rowStride,
                                  DType::BF16, ulpFloor);
  }
  result.blasCheck = compareRows(out, ref, size.n, all, layout.rowStride);
  result.blasChecked = true;
}

void GemmRun::loadCublasLt() {
  LtEpilogue kind = matchingLtEpilogue(*m.epilogue);
  if (kind == LtEpilogue::None || !bias) {
    result.blasNote = "cuBLASLt has no epilogue that computes what this "
                      "kernel stores; the ratio is against cuBLAS's GEMM "
                      "alone, which does less";
    return;
  }
  lt = CublasLt::load(s.stream, result.size, m.dtype, m.outDtype,
                      layout.rowStride, kind, cu, result.blasNote);
  if (!lt)
    return;
  if (lt->biasType() != DType::F32) {
    // The same values (bf16 numbers, epilogueVectors), in its type.
    const std::vector<float> &values = epilogue.vectors.begin()->second;
    std::vector<uint16_t> words(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      words[i] = lt->biasType() == DType::BF16 ? floatToBF16(values[i])
                                               : floatToHalf(values[i]);
    if (!s.alloc(bias, words.size() * 2) ||
        !s.check("cuMemcpyHtoD",
                 cu.memcpyHtoD(bias, words.data(), words.size() * 2))) {
      result.blasNote = s.error;
      lt.reset();
      return;
    }
  }
  // Once into set 0's D (the kernel's was read), checked against the CPU.
  std::string why = lt->matmul(sets[0].a, sets[0].b, bias, sets[0].d);
  std::vector<float> got;
  if (!why.empty() || !s.wait(options.timeoutMs) ||
      !readOutput(sets[0].d, got)) {
    result.blasNote = why.empty() ? s.error : why;
    lt.reset();
    return;
  }
  result.referenceName = std::string("cuBLASLt ") + ltEpilogueName(kind);
  result.referenceUlps = maxUlpError(got, cpuReference, result.size.n, cpuRows,
                                     layout.rowStride, DType::BF16, ulpFloor);
}

Failed GemmRun::judge() {
  const ErrorStats &worst = result.cpuCheck;
  bool wrong =
      worst.nonFinite > 0 || worst.relative > result.threshold ||
      result.cpuUlps > result.ulpTolerance ||
      result.blasUlps > result.ulpTolerance ||
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
  if (m.epilogue)
    loadCublasLt();
  Issue reference = [&](size_t set) {
    std::string why =
        lt ? lt->matmul(sets[set].a, sets[set].b, bias, sets[set].d)
           : blas->gemm(result.size, m.dtype, m.outDtype, sets[set].a,
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
