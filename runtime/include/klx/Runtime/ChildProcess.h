//===- ChildProcess.h - Run a program and capture its output ----*- C++ -*-===//
//
// klx's one way to run another program: `klx-run --sweep` runs each
// variant in a child klx-run (a hung or faulting kernel takes down its own
// process and context, not the sweep); klx runs ptxas, nvdisasm, ld.lld
// and klx-run through it (runTool), and so does the window's GPU and sweep
// workers. Start, capture stdout and stderr apart and in full, wait, and
// kill a child that outlives its deadline or that the caller stops.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CHILDPROCESS_H
#define KLX_RUNTIME_CHILDPROCESS_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace klx::rt {

/// How a child ended and what it printed.
struct ChildExit {
  int exitCode = -1;      // its exit status; -1 when it did not exit
  int signal = 0;         // the signal that ended it, or 0
  bool timedOut = false;  // still running at the deadline: killed (SIGKILL)
  bool stopped = false;   // the caller stopped it: killed (SIGKILL)
  double seconds = 0;     // wall time from start to end
  std::string out, err;   // everything it wrote to stdout and stderr
  std::string startError; // why it could not be started, or empty
};

struct ChildOptions {
  /// Set over this process's environment (a variable of the same name is
  /// replaced).
  std::vector<std::pair<std::string, std::string>> env;
  /// Killed after this long; 0: no deadline.
  int64_t timeoutMs = 0;
  /// Asked about every 100 ms while the child runs: true kills it.
  std::function<bool()> stop;
  /// The child writes to this process's stdout (stderr) itself, as it
  /// comes, and nothing of it is captured: a command line that shows a
  /// child's table or progress.
  bool passStdout = false, passStderr = false;
};

/// Runs `argv` (argv[0] is the program's path) as `options` say, stdin
/// from /dev/null. Safe to call from several threads at once: the pipes
/// are close-on-exec, so no child holds another's pipe open (which would
/// hide that one's end of output).
ChildExit runChild(const std::vector<std::string> &argv,
                   const ChildOptions &options);

/// runChild with `env` and a deadline of `timeoutMs`.
inline ChildExit
runChild(const std::vector<std::string> &argv,
         const std::vector<std::pair<std::string, std::string>> &env,
         int64_t timeoutMs) {
  ChildOptions options;
  options.env = env;
  options.timeoutMs = timeoutMs;
  return runChild(argv, options);
}

/// "SIGSEGV" for 11; "signal N" for one without a name here.
std::string signalName(int signal);

/// The first line of what a child wrote that is not blank, without its
/// newline ("" when there is none): the line a message quotes.
std::string firstLine(std::string_view text);

} // namespace klx::rt

#endif // KLX_RUNTIME_CHILDPROCESS_H
