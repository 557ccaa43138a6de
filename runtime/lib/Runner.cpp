//===- Runner.cpp - Launch a Bundle, check it, time it --------------------===//
//
// Reads and checks the bundle (the same with or without a GPU), then hands
// it to the runner of its kind: gemm (GemmRunner), gather (GatherRunner),
// or an AMD code object (HipRunner).
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/Runner.h"

#include "CudaSession.h"
#include "GatherRunner.h"
#include "GemmRunner.h"
#include "HipRunner.h"

#include "klx/Runtime/CudaDriver.h"

#include <algorithm>

using namespace klx::rt;

namespace {

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
  result.outDtype = m.outDtype;
  result.threshold = errorThreshold(m.dtype, m.outDtype);
  if (std::string why = checkProblemSize(m, result.size); !why.empty())
    return fail(result, RunStatus::BundleError, "--size=" + why);
  if (m.amd())
    return runHipBundle(m, cubin, options, std::move(result));
  if (m.gather)
    return runGatherBundle(m, cubin, options, std::move(result));

  return runGemmBundle(dir, m, cubin, options, std::move(result));
}
