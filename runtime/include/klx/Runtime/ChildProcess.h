//===- ChildProcess.h - Run a program and capture its output ----*- C++ -*-===//
//
// `klx-run --sweep` runs each variant in a child klx-run, so that a hung or
// faulting kernel takes down its own process and context, not the sweep.
// This is the process part: start, capture stdout and stderr in full, wait,
// and kill a child that outlives its deadline.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CHILDPROCESS_H
#define KLX_RUNTIME_CHILDPROCESS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace klx::rt {

/// How a child ended and what it printed.
struct ChildExit {
  int exitCode = -1;      // its exit status; -1 when it did not exit
  int signal = 0;         // the signal that ended it, or 0
  bool timedOut = false;  // still running at the deadline: killed (SIGKILL)
  double seconds = 0;     // wall time from start to end
  std::string out, err;   // everything it wrote to stdout and stderr
  std::string startError; // why it could not be started, or empty
};

/// Runs `argv` (argv[0] is the program's path) with this process's
/// environment plus `env` (replacing variables of the same name), stdin
/// from /dev/null, and kills it after `timeoutMs`. Safe to call from
/// several threads at once: the pipes are close-on-exec, so no child holds
/// another's pipe open (which would hide that one's end of output).
ChildExit runChild(const std::vector<std::string> &argv,
                   const std::vector<std::pair<std::string, std::string>> &env,
                   int64_t timeoutMs);

/// "SIGSEGV" for 11; "signal N" for one without a name here.
std::string signalName(int signal);

} // namespace klx::rt

#endif // KLX_RUNTIME_CHILDPROCESS_H
