//===- ChildProcessTest.cpp - Children of klx-run --sweep -----------------===//
//
// What klx relies on when it runs a program (a child klx-run of the sweep,
// ptxas, the window's GPU runs): all of its output on both streams, its
// exit status or signal, a kill at the deadline or when stopped, a stream
// passed through, and the environment it was given.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/ChildProcess.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>

using namespace klx::rt;

TEST_CASE("child process: output, exit, signal, deadline, environment",
          "[runtime][sweep]") {
  ChildExit c = runChild(
      {"/bin/sh", "-c", "printf out; printf err >&2; exit 3"}, {}, 10000);
  CHECK(c.startError.empty());
  CHECK(c.exitCode == 3);
  CHECK(c.signal == 0);
  CHECK_FALSE(c.timedOut);
  CHECK(c.out == "out");
  CHECK(c.err == "err");

  // More than a pipe holds on both streams at once: read as they come.
  c = runChild({"/bin/sh", "-c",
                "head -c 300000 /dev/zero >&2; head -c 200000 /dev/zero"},
               {}, 10000);
  CHECK(c.exitCode == 0);
  CHECK(c.err.size() == 300000);
  CHECK(c.out.size() == 200000);

  c = runChild({"/bin/sh", "-c", "kill -SEGV $$"}, {}, 10000);
  CHECK(c.exitCode == -1);
  CHECK(c.signal == SIGSEGV);
  CHECK(signalName(c.signal) == "SIGSEGV");

  c = runChild({"/bin/sh", "-c", "exec sleep 30"}, {}, 200);
  CHECK(c.timedOut);
  CHECK(c.signal == SIGKILL);
  CHECK(c.seconds < 10);

  // The variables given replace this process's.
  setenv("KLX_SWEEP_TEST", "parent", 1);
  c = runChild({"/bin/sh", "-c", "printf %s \"$KLX_SWEEP_TEST\""},
               {{"KLX_SWEEP_TEST", "child"}}, 10000);
  unsetenv("KLX_SWEEP_TEST");
  CHECK(c.out == "child");

  c = runChild({"/nonexistent/klx-run"}, {}, 10000);
  CHECK(c.startError == "/nonexistent/klx-run: No such file or directory");
}

TEST_CASE("child process: stopped by the caller, a stream passed through",
          "[runtime]") {
  // A stop request kills the child within its 100 ms of polling.
  auto asked =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  ChildOptions options;
  options.stop = [&] { return std::chrono::steady_clock::now() >= asked; };
  ChildExit c = runChild({"/bin/sh", "-c", "exec sleep 30"}, options);
  CHECK(c.stopped);
  CHECK_FALSE(c.timedOut);
  CHECK(c.signal == SIGKILL);
  CHECK(c.seconds < 5);
  // A child that closed its output but goes on is stopped too.
  asked = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  c = runChild({"/bin/sh", "-c", "exec sleep 30 >&- 2>&-"}, options);
  CHECK(c.stopped);
  CHECK(c.seconds < 5);

  // stdout passed through is this process's (here the test's own output):
  // none of it is captured, stderr still is.
  ChildOptions pass;
  pass.passStdout = true;
  c = runChild(
      {"/bin/sh", "-c", "echo 'a child wrote this line'; printf err >&2"},
      pass);
  CHECK(c.exitCode == 0);
  CHECK(c.out.empty());
  CHECK(c.err == "err");
}
