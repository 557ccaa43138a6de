//===- GemmRun.h - One run of a gemm Bundle, in phases ----------*- C++ -*-===//
//
// Private to runtime/lib: GemmRunner.cpp runs the phases in order (upload,
// checked launch, checks, timing), GemmTrace.cpp records the instrumented
// build. Each phase returns the failure that ends the run, or nothing.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LIB_GEMMRUN_H
#define KLX_RUNTIME_LIB_GEMMRUN_H

#include "CudaSession.h"

#include "klx/Runtime/Cublas.h"
#include "klx/Runtime/CublasLt.h"
#include "klx/Runtime/Epilogue.h"
#include "klx/Runtime/Launch.h"
#include "klx/Runtime/Trace.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace klx::rt::gemm {

constexpr int kMaxInputSets = 16;

using DeviceVectors = std::map<std::string, std::pair<uint64_t, int64_t>>;

struct InputSet {
  cu::DevicePtr a = 0, b = 0, d = 0, maps = 0; // maps: A's, B's, D's
  const DeviceVectors *vectors = nullptr;      // the run's, shared
  DeviceOperands operands(cu::DevicePtr trace = 0) const {
    DeviceOperands o;
    if (vectors)
      o.vectors = *vectors;
    o.tensorMapA = maps;
    o.tensorMapB = maps + sizeof(cu::TensorMap);
    o.tensorMapD = maps + 2 * sizeof(cu::TensorMap);
    o.d = d;
    o.trace = trace;
    return o;
  }
};

/// What D holds before the checked launch: a quiet NaN in every element.
inline unsigned poisonWord(DType out) {
  return out == DType::BF16  ? kPoisonBitsBF16
         : out == DType::F16 ? kPoisonBitsF16
                             : kPoisonBits;
}

using Failed = std::optional<LaunchResult>;

class GemmRun {
public:
  GemmRun(const std::string &dir, const Manifest &m, const RunOptions &options,
          LaunchResult &result, Session &s)
      : dir(dir), m(m), options(options), result(result), s(s), cu(s.cu) {}

  Failed upload(int l2Bytes);
  /// An epilogue's vectors (a bias), random, on the device.
  Failed uploadVectors();
  void configureLaunch();
  Failed checkedLaunch();
  void checkAgainstCpu();
  void checkAgainstCublas();
  /// The like-for-like reference of a kernel with an epilogue: cuBLASLt
  /// with the same one, checked against the CPU's rows once.
  void loadCublasLt();
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
  // A kernel with an epilogue: its vectors, and the CPU's reference rows.
  EpilogueInputs epilogue;
  DeviceVectors deviceVectors;
  cu::DevicePtr bias = 0; // the one cuBLASLt adds
  std::vector<int64_t> cpuRows;
  std::vector<double> cpuReference;
  double ulpFloor = 0; // ulps are of max(|expected|, this)
  std::unique_ptr<CublasLt> lt;
};

} // namespace klx::rt::gemm

#endif // KLX_RUNTIME_LIB_GEMMRUN_H
