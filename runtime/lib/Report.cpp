//===- Report.cpp - What klx-run prints -----------------------------------===//

#include "klx/Runtime/Json.h"
#include "klx/Runtime/RunFormat.h"
#include "klx/Runtime/Runner.h"

#include <cstdio>

using namespace klx::rt;
namespace rf = klx::rt::runfile;

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
    return rf::kPassed;
  case RunStatus::WrongResult:
    return rf::kWrongResult;
  case RunStatus::BundleError:
    return rf::kBundleError;
  case RunStatus::NoDevice:
    return rf::kNoDevice;
  case RunStatus::DriverError:
    return rf::kDriverError;
  case RunStatus::KernelFault:
    return rf::kKernelFault;
  case RunStatus::Hang:
    return rf::kHang;
  }
  return "?";
}

std::string shape(const ProblemSize &s) {
  if (s.n == 0 && s.k == 0)
    return "N=" + std::to_string(s.m);
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

Json statsJson(const ErrorStats &e) {
  return {{rf::kRelativeError, finiteOrNull(e.relative)},
          {rf::kMaxAbsError, finiteOrNull(e.maxAbsolute)},
          {rf::kNonFinite, e.nonFinite},
          {rf::kCheckedElements, e.checked}};
}

Json timingJson(const Timing &t) {
  return {{rf::kMedianMs, finiteOrNull(t.median)},
          {rf::kMinMs, finiteOrNull(t.min)},
          {rf::kMaxMs, finiteOrNull(t.max)},
          {rf::kRuns, t.ms.size()}};
}

/// Times in microseconds, as the text report says them.
Json criticalPathJson(const CriticalPath &path) {
  const KernelEnd &e = path.end;
  Json waits = Json::array();
  for (const WaitRow &row : path.waits)
    waits.push_back({{"role", row.role},
                     {"barrier", row.barrier},
                     {"us", row.ns / 1e3},
                     {"waits", row.waits},
                     {"share", finiteOrNull(row.share)}});
  Json j = {{"cta", e.cta},
            {"sm", e.sm},
            {"end_us", e.endNs / 1e3},
            {"median_end_us", e.medianEndNs / 1e3},
            {"tail_us", e.tailNs() / 1e3}};
  if (e.firstMmaNs >= 0) {
    j["before_first_mma_us"] = e.beforeMmaNs() / 1e3;
    j["first_to_last_mma_us"] = e.mainLoopNs() / 1e3;
    j["after_last_mma_us"] = e.afterMmaNs() / 1e3;
  }
  j["waits"] = waits;
  Json chain = Json::array();
  for (const ChainShare &share : summarizeChain(path.chain))
    chain.push_back(
        {{"what", share.what}, {"us", share.ns / 1e3}, {"links", share.links}});
  j["chain"] = chain;
  Json tiles = Json::array();
  for (const TileSpan &tile : path.tiles.tiles) {
    Json parts = Json::object();
    for (const ChainShare &share : tile.chain)
      parts[share.what] = share.ns / 1e3;
    tiles.push_back({{"tile", tile.index},
                     {"start_us", tile.startNs / 1e3},
                     {"last_mma_us", tile.lastMmaNs / 1e3},
                     {"end_us", tile.endNs / 1e3},
                     {"chain_us", parts}});
  }
  j["tiles"] = tiles;
  if (!path.tiles.unknown.empty())
    j["tiles_unknown"] = path.tiles.unknown;
  return j;
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

namespace {

/// "device: ..." and "launch: ..." (and a gather's formula).
std::string deviceAndLaunchLines(const LaunchResult &r) {
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
  return out;
}

/// "check: epilogue ...": the largest errors in ulps of D's type.
std::string epilogueLine(const LaunchResult &r) {
  std::string out =
      format("check: epilogue: max %.2f bf16 ulps vs the CPU", r.cpuUlps);
  if (r.blasUlps >= 0)
    out += format(", %.2f vs cuBLAS's A x B with the epilogue on the CPU",
                  r.blasUlps);
  out += format(" (tolerance %.0f ulps of max(|expected|, rms/64))\n",
                r.ulpTolerance);
  if (r.referenceUlps >= 0)
    out += "check: " + r.referenceName +
           format(" vs the CPU: max %.2f ulps\n", r.referenceUlps);
  return out;
}

/// "check: ..." against the CPU, cuBLAS, and the threshold.
std::string checkLines(const LaunchResult &r) {
  if (!r.checked())
    return "";
  if (!r.gather.empty())
    return checkLine("check: every element vs CPU (f32, exact): ", r.cpuCheck);
  std::string scope = r.cpuRows == r.size.m
                          ? "check: all " + std::to_string(r.cpuRows) +
                                " rows vs CPU (double): "
                          : "check: " + std::to_string(r.cpuRows) + " of " +
                                std::to_string(r.size.m) +
                                " rows vs CPU (double): ";
  std::string out = checkLine(scope.c_str(), r.cpuCheck);
  if (r.blasChecked)
    out += checkLine("check: every element vs cuBLAS: ", r.blasCheck);
  if (r.cpuUlps >= 0)
    out += epilogueLine(r);
  out +=
      format("check: threshold %.1e (f32 sums of exact products", r.threshold) +
      (r.outDtype == DType::F32
           ? std::string(")\n")
           : std::string(", rounded to ") + dtypeName(r.outDtype) + ")\n");
  return out;
}

/// "time: ..." and "throughput: ...", and cuBLAS's time or why none.
std::string timeLines(const LaunchResult &r) {
  std::string out;
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
    out += r.referenceName + format(": median %.4f ms", r.blas.median) +
           format(", %.1f TFLOP/s", r.blasTflops()) +
           format("; alternating launch by launch, klx %.1f TFLOP/s",
                  r.alternatingTflops()) +
           ": klx / " + r.referenceName +
           format(" = %.2fx\n", r.alternatingTflops() / r.blasTflops());
  if (!r.blasNote.empty() && r.status == RunStatus::Passed)
    out += r.referenceName + (r.blasTimed ? ": " : ": not timed: ") +
           r.blasNote + "\n";
  return out;
}

/// "trace: ..." (the recording: its events, D, its buffers, what it
/// cost, the roles' waits), then the critical path.
std::string traceLines(const LaunchResult &r) {
  std::string out = "trace: " + std::to_string(r.traceEvents) +
                    " events from " + std::to_string(r.traceWarps) +
                    " warps of " + std::to_string(r.traceCtas) + " CTAs on " +
                    std::to_string(r.traceSms) + " SMs -> " + r.tracePath +
                    "\n";
  if (!r.traceCtasNotInGrid.empty()) {
    std::string ids;
    for (int64_t id : r.traceCtasNotInGrid)
      ids += (ids.empty() ? "" : ", ") + std::to_string(id);
    out += "trace: " +
           std::string(r.traceCtasNotInGrid.size() == 1 ? "CTA " : "CTAs ") +
           ids + " of --trace-ctas not in this launch's grid of " +
           std::to_string(ctasIn(r.grid)) + " CTAs: nothing recorded for " +
           (r.traceCtasNotInGrid.size() == 1 ? "it" : "them") + "\n";
  }
  if (r.traceCtasOverGrid > 0)
    out += "trace: --trace-ctas=" + std::to_string(r.traceCtasOverGrid) +
           " asks for more CTAs than this launch's grid of " +
           std::to_string(ctasIn(r.grid)) + ": every one was recorded\n";
  out += "trace: the instrumented build's D equals the kernel's, bit for "
         "bit (" +
         std::to_string(r.traceOutputChecked) +
         " elements, the tiles' padding included)\n";
  out += "trace: buffers of " + std::to_string(r.traceCapacity) +
         " events per warp";
  if (r.traceRecordedAgain)
    out += " (a warp filled the first estimate, " +
           std::to_string(r.traceFirstCapacity) +
           ", so the kernel was recorded again with room for the most one "
           "warp recorded)";
  if (r.traceDropped)
    out += "; " + std::to_string(r.traceDropped) +
           " events past a full buffer were counted, not written";
  out += "\n";
  if (r.kernel.median > 0)
    out += format("trace: instrumentation overhead %+.1f%%",
                  100 * (r.tracedKernel.median / r.kernel.median - 1)) +
           format(" (median %.4f ms", r.tracedKernel.median) +
           format(" vs %.4f ms)\n", r.kernel.median);
  for (const auto &[role, share] : r.waitingShare)
    out += "trace: " + role +
           format(" waits on barriers %.0f%% of its time\n", 100 * share);
  out += formatCriticalPath(r.criticalPath);
  // The trace is one launch; where it ran much longer than the timed
  // instrumented launches, its times are an outlier's.
  double recordedMs = r.criticalPath.end.endNs / 1e6;
  if (r.criticalPath.known() && r.tracedKernel.median > 0 &&
      recordedMs > 1.1 * r.tracedKernel.median)
    out += format("trace: the recorded launch ran %.3f ms, ", recordedMs) +
           format("%.0f%% longer than the instrumented launches' median",
                  100 * (recordedMs / r.tracedKernel.median - 1)) +
           format(" (%.3f ms): an outlier; record again to compare\n",
                  r.tracedKernel.median);
  return out;
}

} // namespace

std::string klx::rt::formatText(const LaunchResult &r) {
  std::string out = deviceAndLaunchLines(r) + checkLines(r) + timeLines(r);
  if (r.traced)
    out += traceLines(r);
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
  Json j;
  j[rf::kStatus] = statusName(r.status);
  j[rf::kMessage] = r.message;
  if (!r.simulated.empty())
    j[rf::kSimulated] = r.simulated;
  j[rf::kDevice] = r.device;
  if (!r.pci.empty())
    j[rf::kPci] = r.pci;
  j[rf::kCapability] = r.capability;
  j[rf::kSmCount] = r.smCount;
  j[rf::kEntry] = r.entry;
  if (!r.gather.empty()) {
    j[rf::kGather] = r.gather;
    j[rf::kBytes] = r.gatherBytes;
  }
  j[rf::kSize] = shape(r.size);
  j[rf::kDtype] = dtypeName(r.dtype);
  j[rf::kOutDtype] = dtypeName(r.outDtype);
  j[rf::kGrid] = r.grid;
  j[rf::kCluster] = r.clusterSize;
  if (r.maxClusters > 0)
    j[rf::kClustersAtOnce] = r.maxClusters;
  j[rf::kBlock] = r.block[0];
  j[rf::kDynamicSharedMemory] = r.dynamicSharedBytes;
  j[rf::kThreshold] = finiteOrNull(r.threshold);
  if (r.checked()) {
    j[rf::kCpuRows] = r.cpuRows;
    j[rf::kCpuCheck] = statsJson(r.cpuCheck);
  }
  if (r.blasChecked)
    j[rf::kCublasCheck] = statsJson(r.blasCheck);
  if (r.cpuUlps >= 0)
    j[rf::kEpilogueUlps] = {{"cpu", finiteOrNull(r.cpuUlps)},
                            {"cublas", finiteOrNull(r.blasUlps)},
                            {"reference", finiteOrNull(r.referenceUlps)},
                            {"tolerance", finiteOrNull(r.ulpTolerance)}};
  j[rf::kReference] = r.referenceName;
  if (!r.kernel.ms.empty()) {
    j[rf::kTime] = timingJson(r.kernel);
    j[rf::kTflops] = finiteOrNull(r.tflops());
    j[rf::kGbs] = finiteOrNull(r.gbs());
    j[rf::kPeakTflops] = finiteOrNull(r.peakTflops);
    j[rf::kPeakFormula] = r.peakFormula;
  }
  if (r.blasTimed) {
    j[rf::kCublasTime] = timingJson(r.blas);
    j[rf::kCublasTflops] = finiteOrNull(r.blasTflops());
    j[rf::kAlternatingTime] = timingJson(r.kernelAlternating);
    j[rf::kAlternatingTflops] = finiteOrNull(r.alternatingTflops());
    j[rf::kVsCublas] = finiteOrNull(r.alternatingTflops() / r.blasTflops());
  }
  if (r.traced) {
    Json shares = Json::object();
    for (const auto &[role, share] : r.waitingShare)
      shares[role] = finiteOrNull(share);
    j[rf::kTrace] = {{"path", r.tracePath},
                     {"events", r.traceEvents},
                     {"dropped", r.traceDropped},
                     {"ctas", r.traceCtas},
                     {"sms", r.traceSms},
                     {"warps", r.traceWarps},
                     {"ctas_not_in_grid", r.traceCtasNotInGrid},
                     {"ctas_over_grid", r.traceCtasOverGrid},
                     {"capacity", r.traceCapacity},
                     {"recorded_again", r.traceRecordedAgain},
                     {"output_checked", r.traceOutputChecked},
                     {"instrumented_time", timingJson(r.tracedKernel)},
                     {"waiting_share", shares}};
    if (r.criticalPath.known())
      j[rf::kTrace]["critical_path"] = criticalPathJson(r.criticalPath);
  }
  if (!r.blasNote.empty())
    j[rf::kCublasNote] = r.blasNote;
  return dumpJson(j) + "\n";
}
