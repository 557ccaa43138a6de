//===- RunnerClientTest.cpp - How klx talks to klx-run --------------------===//
//
// The one client of klx-run's command line, against stand-in runners
// (shell scripts that answer the way klx-run does, and write down the
// arguments they were given).
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "workers/RunnerClient.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace klx;
using namespace klx::app;

namespace {

/// A folder with a stand-in klx-run whose body is `script`; it writes its
/// arguments, one per line, to args.txt beside it.
struct StandIn {
  std::string dir, runner;

  explicit StandIn(const std::string &script) {
    llvm::SmallString<128> made;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-runner", made));
    dir = std::string(made);
    runner = dir + "/klx-run";
    std::error_code ec;
    llvm::raw_fd_ostream os(runner, ec);
    REQUIRE_FALSE(ec);
    os << "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > " << dir
       << "/args.txt\n"
       << script;
    os.close();
    llvm::sys::fs::setPermissions(runner, llvm::sys::fs::all_read |
                                              llvm::sys::fs::all_exe |
                                              llvm::sys::fs::owner_write);
  }
  ~StandIn() { llvm::sys::fs::remove_directories(dir); }

  std::string args() const {
    auto text = llvm::MemoryBuffer::getFile(dir + "/args.txt");
    return text ? (*text)->getBuffer().str() : "(none)";
  }
};

} // namespace

TEST_CASE("runner client: probing for a GPU", "[app][runner]") {
  CHECK(RunnerClient("/nonexistent/klx-run").probe().reason ==
        "klx-run not found at /nonexistent/klx-run");

  StandIn gpu("echo 'Fake GPU (sm_90, 1 SMs)'\n");
  RunnerProbe found = RunnerClient(gpu.runner).probe();
  CHECK(found.device == "Fake GPU (sm_90, 1 SMs)");
  CHECK(found.reason.empty());
  CHECK(gpu.args() == "--device\n");

  // klx-run's own words, without its name.
  StandIn none("echo 'klx-run: no CUDA device: no driver' >&2; exit 2\n");
  RunnerProbe missing = RunnerClient(none.runner).probe();
  CHECK(missing.device.empty());
  CHECK(missing.reason == "no CUDA device: no driver");

  StandIn crash("kill -SEGV $$\n");
  CHECK(RunnerClient(crash.runner).probe().reason ==
        "klx-run was killed by SIGSEGV");
}

TEST_CASE("runner client: one bundle", "[app][runner]") {
  StandIn runner("echo '{\"status\":\"passed\"}'; echo said >&2; exit 3\n");
  BundleRun run;
  run.dir = "/b";
  run.size = "N=1000";
  run.timeoutMs = 1500;
  run.repeat = 5;
  RunnerExit exit = RunnerClient(runner.runner).runBundle(run);
  CHECK(exit.exitCode == 3);
  CHECK(exit.out == "{\"status\":\"passed\"}\n");
  CHECK(exit.err == "said\n");
  CHECK(exit.failure.empty());
  CHECK(runner.args() ==
        "/b\n--json\n--size=N=1000\n--timeout-ms=1500\n--repeat=5\n");

  run.tracePath = "/b/trace.json";
  RunnerClient(runner.runner).runBundle(run);
  CHECK(llvm::StringRef(runner.args()).ends_with("--trace=/b/trace.json\n"));
}

TEST_CASE("runner client: a sweep, captured or stopped", "[app][runner]") {
  StandIn runner("echo '{\"runs\":[]}'\n");
  SweepRun run;
  run.dir = "/s";
  run.flags = {"--size=64x64x64", "--gpus=0"};
  run.json = true;
  RunnerExit exit = RunnerClient(runner.runner).runSweep(run);
  CHECK(exit.out == "{\"runs\":[]}\n");
  CHECK(runner.args() == "--sweep\n/s\n--json\n--size=64x64x64\n--gpus=0\n");

  StandIn slow("sleep 30\n");
  run.stop = [] { return true; };
  RunnerExit stopped = RunnerClient(slow.runner).runSweep(run);
  CHECK(stopped.stopped);

  CHECK(RunnerClient("/nonexistent/klx-run").runSweep(SweepRun{}).failure ==
        "could not start /nonexistent/klx-run: No such file or directory");
}
