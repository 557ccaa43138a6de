//===- RunFormat.h - What klx-run --json prints of one run ------*- C++ -*-===//
//
// The one place klx-run's result is spelt: its statuses and member names.
// klx-run writes it (Report.cpp), klx-run --sweep reads each child's
// (SweepPlan.cpp), and the window's Run pane reads it (GpuRunWorker.cpp),
// so the three cannot drift apart. std-only, like BundleFormat.h and
// SweepFormat.h; docs/cli.md lists the members.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_RUNFORMAT_H
#define KLX_RUNTIME_RUNFORMAT_H

namespace klx::rt::runfile {

// The statuses, each with its exit code (sweepExitCode).
inline constexpr char kPassed[] = "passed";
inline constexpr char kWrongResult[] = "wrong_result";
inline constexpr char kBundleError[] = "bundle_error";
inline constexpr char kNoDevice[] = "no_device";
inline constexpr char kDriverError[] = "driver_error";
inline constexpr char kKernelFault[] = "kernel_fault";
inline constexpr char kHang[] = "hang";

// The document.
inline constexpr char kStatus[] = "status";
inline constexpr char kMessage[] = "message";
inline constexpr char kSimulated[] = "simulated"; // the simulator's lines
inline constexpr char kDevice[] = "device";
/// Where the GPU sits on the PCI bus ("0000:19:00"): which of a host's
/// GPUs a run had, whatever CUDA_VISIBLE_DEVICES renumbered.
inline constexpr char kPci[] = "pci";
inline constexpr char kCapability[] = "capability";
inline constexpr char kSmCount[] = "sm_count";
inline constexpr char kEntry[] = "entry";
inline constexpr char kGather[] = "gather";
inline constexpr char kBytes[] = "bytes";
inline constexpr char kSize[] = "size"; // "MxNxK", "N=..."
inline constexpr char kDtype[] = "dtype";
inline constexpr char kOutDtype[] = "out_dtype";
inline constexpr char kGrid[] = "grid"; // [x, y, z]
inline constexpr char kCluster[] = "cluster";
inline constexpr char kClustersAtOnce[] = "clusters_at_once";
inline constexpr char kBlock[] = "block";
inline constexpr char kDynamicSharedMemory[] = "dynamic_shared_memory";
inline constexpr char kThreshold[] = "threshold";
inline constexpr char kCpuRows[] = "cpu_rows";
inline constexpr char kCpuCheck[] = "cpu_check";       // a check
inline constexpr char kCublasCheck[] = "cublas_check"; // a check
inline constexpr char kTime[] = "time";                // a timing
inline constexpr char kTflops[] = "tflops";
inline constexpr char kGbs[] = "gbs";
inline constexpr char kPeakTflops[] = "peak_tflops";
inline constexpr char kPeakFormula[] = "peak_formula";
inline constexpr char kCublasTime[] = "cublas_time"; // a timing
inline constexpr char kCublasTflops[] = "cublas_tflops";
inline constexpr char kAlternatingTime[] = "alternating_time"; // a timing
inline constexpr char kAlternatingTflops[] = "alternating_tflops";
inline constexpr char kVsCublas[] = "vs_cublas";
inline constexpr char kTrace[] = "trace"; // what was recorded
inline constexpr char kCublasNote[] = "cublas_note";
// A kernel with an epilogue: the largest errors in ulps of D's type, the
// tolerance, and what the timed reference is ("cuBLAS", "cuBLASLt
// GELU_BIAS"; cublas_time and vs_cublas are its).
inline constexpr char kEpilogueUlps[] = "epilogue_ulps";
inline constexpr char kReference[] = "reference";

// A check of the output.
inline constexpr char kRelativeError[] = "relative_error"; // null: not finite
inline constexpr char kMaxAbsError[] = "max_abs_error";
inline constexpr char kNonFinite[] = "non_finite";
inline constexpr char kCheckedElements[] = "checked_elements";

// A timing.
inline constexpr char kMedianMs[] = "median_ms";
inline constexpr char kMinMs[] = "min_ms";
inline constexpr char kMaxMs[] = "max_ms";
inline constexpr char kRuns[] = "runs";

} // namespace klx::rt::runfile

#endif // KLX_RUNTIME_RUNFORMAT_H
