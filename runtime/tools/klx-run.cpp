//===- klx-run.cpp - Launch a Bundle on the GPU ---------------------------===//
//
// klx-run DIR [--json] [--timeout-ms=N] [--repeat=N] [--size=MxNxK|N]
//             [--no-baseline]
// Exit codes: 0 passed, 1 wrong result, kernel fault or bad bundle, 2
// usage, no GPU or a driver error,
// 3 the kernel hung.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/Runner.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace klx::rt;

static const char kUsage[] =
    "usage: klx-run DIR [--json] [--timeout-ms=N] [--repeat=N] "
    "[--size=MxNxK|N] [--no-baseline] [--trace=OUT.json]\n"
    "       klx-run --device       the GPU klx-run would use, or why none\n"
    "  DIR is a bundle written by `klx export FILE -o DIR`\n";

static bool readInt(const char *text, int min, int max, int &out) {
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (!*text || *end || value < min || value > max)
    return false;
  out = int(value);
  return true;
}

int main(int argc, char **argv) {
  RunOptions options;
  std::string dir;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) -> const char * {
      size_t n = std::strlen(flag);
      return arg.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (arg == "--device") {
      std::string error;
      std::string device = probeDevice(error);
      if (device.empty()) {
        std::fprintf(stderr, "klx-run: %s\n", error.c_str());
        return 2;
      }
      std::printf("%s\n", device.c_str());
      return 0;
    }
    if (arg == "--json") {
      json = true;
    } else if (arg == "--no-baseline") {
      options.baseline = false;
    } else if (const char *v = value("--timeout-ms=")) {
      if (!readInt(v, 1, 3600 * 1000, options.timeoutMs)) {
        std::fprintf(stderr, "klx-run: --timeout-ms needs 1 to 3600000\n");
        return 2;
      }
    } else if (const char *v = value("--repeat=")) {
      if (!readInt(v, 1, 1000, options.repeat)) {
        std::fprintf(stderr, "klx-run: --repeat needs 1 to 1000\n");
        return 2;
      }
    } else if (const char *v = value("--trace=")) {
      options.tracePath = v;
      if (options.tracePath.empty()) {
        std::fprintf(stderr, "klx-run: --trace needs a file name\n");
        return 2;
      }
    } else if (const char *v = value("--size=")) {
      options.size = parseProblemSize(v);
      if (!options.size) {
        std::fprintf(
            stderr,
            "klx-run: --size=%s is not MxNxK (a gemm) or N (a gather)\n", v);
        return 2;
      }
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "klx-run: unknown option %s\n%s", arg.c_str(),
                   kUsage);
      return 2;
    } else if (dir.empty()) {
      dir = arg;
    } else {
      std::fprintf(stderr, "klx-run: one bundle at a time\n%s", kUsage);
      return 2;
    }
  }
  if (dir.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  LaunchResult result = runBundle(dir, options);
  std::string report = json ? formatJson(result) : formatText(result);
  std::fputs(report.c_str(),
             result.status == RunStatus::Passed || json ? stdout : stderr);
  std::fflush(stdout);
  std::fflush(stderr);
  int code = exitCodeFor(result);
  // A hung kernel still owns the context: leave without tearing it down
  // from here; the driver ends the kernel with the process.
  if (result.status == RunStatus::Hang ||
      result.status == RunStatus::KernelFault)
    _exit(code);
  return code;
}
