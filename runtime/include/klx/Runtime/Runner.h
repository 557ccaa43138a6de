//===- Runner.h - Launch a Bundle, check it, time it ------------*- C++ -*-===//

#ifndef KLX_RUNTIME_RUNNER_H
#define KLX_RUNTIME_RUNNER_H

#include "klx/Runtime/CriticalPath.h"
#include "klx/Runtime/HostMath.h"
#include "klx/Runtime/Manifest.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace klx::rt {

struct RunOptions {
  std::optional<ProblemSize> size; // default: the manifest's
  int timeoutMs = 10000;           // per launch, before it counts as a hang
  int repeat = 20;                 // timed launches
  int warmup = 3;
  bool baseline = true;    // time cuBLAS on the same shape when it loads
  unsigned cpuThreads = 0; // 0: all hardware threads
  /// Also launch the instrumented build and write its timeline here
  /// (Chrome trace JSON).
  std::string tracePath;
  /// Room for this many events per warp in the first recording; 0: sized
  /// from the tiles and k steps each CTA runs.
  int traceEvents = 0;
};

enum class RunStatus {
  Passed,      // exit 0
  WrongResult, // exit 1: the kernel ran and its output is wrong
  BundleError, // exit 1: the bundle or the size is wrong
  NoDevice,    // exit 2: no driver, no GPU, or the wrong GPU
  DriverError, // exit 2: a driver call failed
  KernelFault, // exit 1: the kernel trapped or touched memory it must not
  Hang,        // exit 3: no completion within the timeout
};

struct Timing {
  std::vector<double> ms; // one per timed launch
  double median = 0, min = 0, max = 0;
};

struct LaunchResult {
  RunStatus status = RunStatus::Passed;
  std::string message; // what went wrong, or empty
  /// After a hang or a fault: what klx timeline said of the same kernel.
  std::vector<std::string> simulated;

  // Device
  std::string device;
  std::string pci;    // its PCI address, "0000:19:00"
  int capability = 0; // 90 for sm_90
  int smCount = 0;
  int clockKHz = 0;
  double peakTflops = 0; // dense f16/bf16 tensor cores; 0 if unknown
  std::string peakFormula;
  double peakGBs = 0;

  // Launch
  std::string entry;
  /// A gather's formula ("y[i] = x[idx[i] + 2] + 1"); empty for a gemm.
  std::string gather;
  int64_t gatherBytes = 0; // what one launch of the gather reads and writes
  ProblemSize size;
  DType dtype = DType::F16;
  DType outDtype = DType::F32; // D's element type
  std::array<unsigned, 3> grid{}, block{};
  unsigned clusterSize = 1; // CTAs per cluster
  int maxClusters = 0;      // clusters that fit at once, as the driver said
  unsigned dynamicSharedBytes = 0;
  int inputSets = 1; // rotated so timed launches do not hit in L2

  // Check
  double threshold = 0;
  ErrorStats cpuCheck;
  int64_t cpuRows = 0; // rows of D checked against the CPU
  bool blasChecked = false;
  ErrorStats blasCheck; // every element against cuBLAS
  std::string blasNote; // why cuBLAS is absent
  bool checked() const { return cpuCheck.checked > 0; }
  /// A kernel with an epilogue: the largest error in ulps of D's type
  /// against the CPU, against cuBLAS's A x B with the epilogue applied on
  /// the CPU, and of the timed reference (cuBLASLt with the same
  /// epilogue) against the CPU; -1 where not measured.
  double cpuUlps = -1, blasUlps = -1, referenceUlps = -1;
  double ulpTolerance = 0;
  /// What klx is timed against: "cuBLAS", or "cuBLASLt GELU_BIAS".
  std::string referenceName = "cuBLAS";

  // Time
  Timing kernel;
  bool blasTimed = false;
  Timing blas;
  /// klx again, launch by launch alternating with cuBLAS: the ratio uses
  /// this, so that both saw the same clocks and temperature.
  Timing kernelAlternating;
  double tflops() const;
  double gbs() const;
  double blasTflops() const;
  double alternatingTflops() const;

  // Measured timeline (--trace)
  bool traced = false;
  std::string tracePath;
  int64_t traceEvents = 0, traceDropped = 0;
  int64_t traceWarps = 0, traceCtas = 0, traceSms = 0;
  /// Block ids the bundle lists (--trace-ctas) that this launch's grid
  /// does not have: nothing is recorded for them, and the report says so.
  std::vector<int64_t> traceCtasNotInGrid;
  /// The count the bundle asks for (--trace-ctas=N) when the grid has
  /// fewer CTAs: every one of them is recorded, and the report says so.
  int64_t traceCtasOverGrid = 0;
  /// Events per warp the buffer held; the first estimate, and whether a
  /// warp filled it so the kernel was recorded again with room for all.
  int64_t traceCapacity = 0, traceFirstCapacity = 0;
  bool traceRecordedAgain = false;
  Timing tracedKernel; // the instrumented build, timed like the kernel
  /// Elements of the instrumented build's D found bitwise equal to the
  /// checked launch's (a difference fails the run).
  int64_t traceOutputChecked = 0;
  std::vector<std::pair<std::string, double>> waitingShare; // per role
  CriticalPath criticalPath; // what set the kernel's end, from the trace
};

LaunchResult runBundle(const std::string &dir, const RunOptions &options);

/// The first GPU's name and compute capability ("NVIDIA H100 80GB HBM3
/// (sm_90, 132 SMs)"), or an empty string and the reason (no driver, no
/// device). What `klx-run --device` prints, and how the GUI decides
/// whether its Run pane can run anything.
std::string probeDevice(std::string &error);

int exitCodeFor(const LaunchResult &result);
std::string formatText(const LaunchResult &result);
std::string formatJson(const LaunchResult &result);

Timing summarize(std::vector<double> ms);

} // namespace klx::rt

#endif // KLX_RUNTIME_RUNNER_H
