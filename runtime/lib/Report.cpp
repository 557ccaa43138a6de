//===- Report.cpp - What klx-run prints -----------------------------------===//

#include "klx/Runtime/Json.h"
#include "klx/Runtime/Runner.h"

#include <cstdio>

using namespace klx::rt;

namespace {

double flops(const ProblemSize &s) { return 2.0 * s.m * s.n * s.k; }

double bytes(const LaunchResult &r) {
  if (!r.gather.empty())
    return double(r.gatherBytes);
  const ProblemSize &s = r.size;
  return double(s.m * s.k + s.k * s.n) * dtypeBytes(r.dtype) +
         double(s.m * s.n) * dtypeBytes(r.outDtype);
}

std::string format(const char *fmt, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, fmt, value);
  return buffer;
}

const char *statusName(RunStatus status) {
  switch (status) {
  case RunStatus::Passed:
    return "passed";
  case RunStatus::WrongResult:
    return "wrong_result";
  case RunStatus::BundleError:
    return "bundle_error";
  case RunStatus::NoDevice:
    return "no_device";
  case RunStatus::DriverError:
    return "driver_error";
  case RunStatus::KernelFault:
    return "kernel_fault";
  case RunStatus::Hang:
    return "hang";
  }
  return "?";
}

std::string shape(const ProblemSize &s) {
  if (s.n == 0 && s.k == 0)
    return "N=" + std::to_string(s.m);
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

void writeStats(JsonWriter &w, const ErrorStats &e) {
  w.beginObject();
  w.key("relative_error");
  w.value(e.relative);
  w.key("max_abs_error");
  w.value(e.maxAbsolute);
  w.key("non_finite");
  w.value(e.nonFinite);
  w.key("checked_elements");
  w.value(e.checked);
  w.endObject();
}

void writeTiming(JsonWriter &w, const Timing &t) {
  w.beginObject();
  w.key("median_ms");
  w.value(t.median);
  w.key("min_ms");
  w.value(t.min);
  w.key("max_ms");
  w.value(t.max);
  w.key("runs");
  w.value(int64_t(t.ms.size()));
  w.endObject();
}

/// ", clusters of 2 (66 fit at once)" after the grid, or nothing.
std::string clusterWords(const LaunchResult &r) {
  if (r.clusterSize <= 1)
    return "";
  std::string words = ", clusters of " + std::to_string(r.clusterSize);
  if (r.maxClusters > 0)
    words += " (" + std::to_string(r.maxClusters) + " fit at once)";
  return words;
}

std::string checkLine(const char *what, const ErrorStats &e) {
  return std::string(what) + format("rel. error %.2e", e.relative) +
         format(", max abs %.2e", e.maxAbsolute) + ", " +
         std::to_string(e.nonFinite) + " non-finite of " +
         std::to_string(e.checked) + "\n";
}

} // namespace

double LaunchResult::tflops() const {
  return kernel.median > 0 ? flops(size) / (kernel.median * 1e-3) / 1e12 : 0;
}
double LaunchResult::gbs() const {
  return kernel.median > 0 ? bytes(*this) / (kernel.median * 1e-3) / 1e9 : 0;
}
double LaunchResult::alternatingTflops() const {
  return kernelAlternating.median > 0
             ? flops(size) / (kernelAlternating.median * 1e-3) / 1e12
             : 0;
}
double LaunchResult::blasTflops() const {
  return blasTimed && blas.median > 0
             ? flops(size) / (blas.median * 1e-3) / 1e12
             : 0;
}

int klx::rt::exitCodeFor(const LaunchResult &r) {
  switch (r.status) {
  case RunStatus::Passed:
    return 0;
  case RunStatus::WrongResult:
  case RunStatus::BundleError:
  case RunStatus::KernelFault:
    return 1;
  case RunStatus::NoDevice:
  case RunStatus::DriverError:
    return 2;
  case RunStatus::Hang:
    return 3;
  }
  return 2;
}

std::string klx::rt::formatText(const LaunchResult &r) {
  std::string out;
  if (!r.device.empty())
    out += "device: " + r.device + " (sm_" + std::to_string(r.capability) +
           ", " + std::to_string(r.smCount) + " SMs, " +
           std::to_string(r.clockKHz / 1000) + " MHz)\n";
  if (r.grid[0])
    out += "launch: " + r.entry + " " + shape(r.size) + " " +
           dtypeName(r.dtype) +
           (r.outDtype == DType::F32
                ? std::string()
                : std::string(" -> ") + dtypeName(r.outDtype)) +
           ", grid (" + std::to_string(r.grid[0]) + "," +
           std::to_string(r.grid[1]) + "," + std::to_string(r.grid[2]) + ")" +
           clusterWords(r) + ", block " + std::to_string(r.block[0]) + ", " +
           std::to_string(r.dynamicSharedBytes) +
           " bytes dynamic shared memory, " + std::to_string(r.inputSets) +
           " input set(s) rotated\n";
  if (!r.gather.empty())
    out += "gather: " + r.gather + "\n";
  if (r.checked() && !r.gather.empty()) {
    out += checkLine("check: every element vs CPU (f32, exact): ", r.cpuCheck);
  } else if (r.checked()) {
    std::string scope = r.cpuRows == r.size.m
                            ? "check: all " + std::to_string(r.cpuRows) +
                                  " rows vs CPU (double): "
                            : "check: " + std::to_string(r.cpuRows) + " of " +
                                  std::to_string(r.size.m) +
                                  " rows vs CPU (double): ";
    out += checkLine(scope.c_str(), r.cpuCheck);
    if (r.blasChecked)
      out += checkLine("check: every element vs cuBLAS: ", r.blasCheck);
    out += format("check: threshold %.1e (f32 sums of exact products",
                  r.threshold) +
           (r.outDtype == DType::F32
                ? std::string(")\n")
                : std::string(", rounded to ") + dtypeName(r.outDtype) + ")\n");
  }
  if (!r.kernel.ms.empty()) {
    out += format("time: median %.4f ms", r.kernel.median) +
           format(" (min %.4f", r.kernel.min) +
           format(", max %.4f", r.kernel.max) + ", " +
           std::to_string(r.kernel.ms.size()) + " runs)\n";
    if (!r.gather.empty())
      out += format("throughput: %.1f GB/s", r.gbs()) +
             format(" (%.0f MB read and written per launch)",
                    r.gatherBytes / 1e6) +
             (r.peakGBs > 0 ? format(", %.1f%% of the DRAM peak ",
                                     100 * r.gbs() / r.peakGBs) +
                                  format("%.0f GB/s", r.peakGBs)
                            : std::string());
    else
      out += format("throughput: %.1f TFLOP/s", r.tflops()) +
             format(", %.1f GB/s", r.gbs());
    if (r.peakTflops > 0 && r.gather.empty())
      out += format(", %.1f%% of peak ", 100 * r.tflops() / r.peakTflops) +
             format("%.0f TFLOP/s", r.peakTflops) + " (" + r.peakFormula + ")";
    out += "\n";
  }
  if (r.blasTimed)
    out += format("cuBLAS: median %.4f ms", r.blas.median) +
           format(", %.1f TFLOP/s", r.blasTflops()) +
           format("; alternating launch by launch, klx %.1f TFLOP/s",
                  r.alternatingTflops()) +
           format(": klx / cuBLAS = %.2fx\n",
                  r.alternatingTflops() / r.blasTflops());
  else if (!r.blasNote.empty() && r.status == RunStatus::Passed)
    out += "cuBLAS: not timed: " + r.blasNote + "\n";
  if (r.traced) {
    out += "trace: " + std::to_string(r.traceEvents) + " events from " +
           std::to_string(r.traceWarps) + " warps of the first " +
           std::to_string(r.traceCtas) + " CTAs -> " + r.tracePath;
    if (r.traceDropped)
      out +=
          " (" + std::to_string(r.traceDropped) + " past the buffer, dropped)";
    out += "\n";
    if (r.kernel.median > 0)
      out += format("trace: instrumentation overhead %+.1f%%",
                    100 * (r.tracedKernel.median / r.kernel.median - 1)) +
             format(" (median %.4f ms", r.tracedKernel.median) +
             format(" vs %.4f ms)\n", r.kernel.median);
    for (const auto &[role, share] : r.waitingShare)
      out += "trace: " + role +
             format(" waits on barriers %.0f%% of its time\n", 100 * share);
  }
  if (r.status == RunStatus::Passed)
    out += "result: passed\n";
  else
    out += std::string("result: ") + statusName(r.status) + ": " + r.message +
           "\n";
  for (const std::string &line : r.simulated)
    out += "simulator: " + line + "\n";
  return out;
}

std::string klx::rt::formatJson(const LaunchResult &r) {
  std::string out;
  JsonWriter w(out);
  w.beginObject();
  w.key("status");
  w.value(statusName(r.status));
  w.key("message");
  w.value(r.message);
  if (!r.simulated.empty()) {
    w.key("simulated");
    w.beginArray();
    for (const std::string &line : r.simulated)
      w.value(line);
    w.endArray();
  }
  w.key("device");
  w.value(r.device);
  w.key("capability");
  w.value(int64_t(r.capability));
  w.key("sm_count");
  w.value(int64_t(r.smCount));
  w.key("entry");
  w.value(r.entry);
  if (!r.gather.empty()) {
    w.key("gather");
    w.value(r.gather);
    w.key("bytes");
    w.value(r.gatherBytes);
  }
  w.key("size");
  w.value(shape(r.size));
  w.key("dtype");
  w.value(dtypeName(r.dtype));
  w.key("out_dtype");
  w.value(dtypeName(r.outDtype));
  w.key("grid");
  w.beginArray();
  for (unsigned g : r.grid)
    w.value(int64_t(g));
  w.endArray();
  w.key("cluster");
  w.value(int64_t(r.clusterSize));
  if (r.maxClusters > 0) {
    w.key("clusters_at_once");
    w.value(int64_t(r.maxClusters));
  }
  w.key("block");
  w.value(int64_t(r.block[0]));
  w.key("dynamic_shared_memory");
  w.value(int64_t(r.dynamicSharedBytes));
  w.key("threshold");
  w.value(r.threshold);
  if (r.checked()) {
    w.key("cpu_rows");
    w.value(r.cpuRows);
    w.key("cpu_check");
    writeStats(w, r.cpuCheck);
  }
  if (r.blasChecked) {
    w.key("cublas_check");
    writeStats(w, r.blasCheck);
  }
  if (!r.kernel.ms.empty()) {
    w.key("time");
    writeTiming(w, r.kernel);
    w.key("tflops");
    w.value(r.tflops());
    w.key("gbs");
    w.value(r.gbs());
    w.key("peak_tflops");
    w.value(r.peakTflops);
    w.key("peak_formula");
    w.value(r.peakFormula);
  }
  if (r.blasTimed) {
    w.key("cublas_time");
    writeTiming(w, r.blas);
    w.key("cublas_tflops");
    w.value(r.blasTflops());
    w.key("alternating_time");
    writeTiming(w, r.kernelAlternating);
    w.key("alternating_tflops");
    w.value(r.alternatingTflops());
    w.key("vs_cublas");
    w.value(r.alternatingTflops() / r.blasTflops());
  }
  if (r.traced) {
    w.key("trace");
    w.beginObject();
    w.key("path");
    w.value(r.tracePath);
    w.key("events");
    w.value(r.traceEvents);
    w.key("dropped");
    w.value(r.traceDropped);
    w.key("instrumented_time");
    writeTiming(w, r.tracedKernel);
    w.key("waiting_share");
    w.beginObject();
    for (const auto &[role, share] : r.waitingShare) {
      w.key(role);
      w.value(share);
    }
    w.endObject();
    w.endObject();
  }
  if (!r.blasNote.empty()) {
    w.key("cublas_note");
    w.value(r.blasNote);
  }
  w.endObject();
  return out + "\n";
}
