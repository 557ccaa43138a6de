//===- ChildProcess.cpp - posix_spawn with captured output ----------------===//
//
// posix_spawn rather than fork: the sweep starts children from several
// threads, and a forked copy of a multi-threaded process may only call
// async-signal-safe functions before exec; posix_spawn does that part.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/ChildProcess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>

extern char **environ;

using namespace klx::rt;
using Clock = std::chrono::steady_clock;

namespace {

/// This process's environment with `env` set over it.
std::vector<std::string>
mergedEnvironment(const std::vector<std::pair<std::string, std::string>> &env) {
  std::vector<std::string> out;
  for (char **entry = environ; entry && *entry; ++entry) {
    std::string_view line(*entry);
    bool replaced = false;
    for (const auto &[name, value] : env)
      replaced |= line.size() > name.size() && line[name.size()] == '=' &&
                  line.compare(0, name.size(), name) == 0;
    if (!replaced)
      out.emplace_back(line);
  }
  for (const auto &[name, value] : env)
    out.push_back(name + "=" + value);
  return out;
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> out;
  for (std::string &s : strings)
    out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

int64_t msUntil(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - Clock::now());
  return left.count() < 0 ? 0 : left.count();
}

/// Reads both pipes until each reaches its end, killing the child at
/// `deadline` or when `options.stop` says so. Polling both keeps a child
/// that fills one pipe while we block on the other from stalling.
void drain(pid_t pid, int outFd, int errFd, Clock::time_point deadline,
           const ChildOptions &options, ChildExit &result) {
  pollfd fds[2] = {{outFd, POLLIN, 0}, {errFd, POLLIN, 0}};
  std::string *sinks[2] = {&result.out, &result.err};
  Clock::time_point giveUp;
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    bool killed = result.timedOut || result.stopped;
    int64_t wait = killed ? msUntil(giveUp) : msUntil(deadline);
    wait = std::min<int64_t>(wait, options.stop ? 100 : 1000);
    int ready = poll(fds, 2, int(wait));
    if (ready < 0 && errno != EINTR)
      break;
    bool late = Clock::now() >= deadline;
    if (!killed && (late || (options.stop && options.stop()))) {
      kill(pid, SIGKILL);
      (late ? result.timedOut : result.stopped) = true;
      // A few seconds for the kernel to close the pipes.
      giveUp = Clock::now() + std::chrono::seconds(5);
    } else if (killed && Clock::now() >= giveUp) {
      break;
    }
    if (ready <= 0)
      continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents)
        continue;
      char buffer[65536];
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
      }
    }
  }
  for (pollfd &fd : fds)
    if (fd.fd >= 0)
      close(fd.fd);
}

/// Waits for the child, killing it if it is still there at `deadline` or
/// when stopped (it closed its output but did not exit).
void reap(pid_t pid, Clock::time_point deadline, const ChildOptions &options,
          ChildExit &result) {
  int status = 0;
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR)
      return;
    if (done == 0 && !result.timedOut && !result.stopped) {
      bool late = Clock::now() >= deadline;
      if (late || (options.stop && options.stop())) {
        kill(pid, SIGKILL);
        (late ? result.timedOut : result.stopped) = true;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.signal = WTERMSIG(status);
}

} // namespace

ChildExit klx::rt::runChild(const std::vector<std::string> &argv,
                            const ChildOptions &options) {
  ChildExit result;
  Clock::time_point start = Clock::now();
  // No deadline: a century from now.
  Clock::time_point deadline =
      start + std::chrono::milliseconds(
                  options.timeoutMs > 0 ? options.timeoutMs : int64_t(3.2e12));
  if (argv.empty()) {
    result.startError = "no program to run";
    return result;
  }
  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) != 0) {
    result.startError = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (pipe2(errPipe, O_CLOEXEC) != 0) {
    result.startError = std::string("pipe: ") + std::strerror(errno);
    close(outPipe[0]);
    close(outPipe[1]);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  // dup2 gives the child fds 1 and 2 without close-on-exec; a stream
  // passed through stays this process's.
  if (!options.passStdout)
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  if (!options.passStderr)
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  std::vector<std::string> args = argv;
  std::vector<std::string> environment = mergedEnvironment(options.env);
  std::vector<char *> argp = pointers(args), envp = pointers(environment);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, args[0].c_str(), &actions, nullptr,
                            argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(outPipe[1]);
  close(errPipe[1]);
  if (spawned != 0) {
    result.startError = argv[0] + ": " + std::strerror(spawned);
    close(outPipe[0]);
    close(errPipe[0]);
    return result;
  }
  // Nothing to read of a stream passed through.
  for (auto [pass, fd] : {std::pair{options.passStdout, &outPipe[0]},
                          std::pair{options.passStderr, &errPipe[0]}})
    if (pass) {
      close(*fd);
      *fd = -1;
    }
  drain(pid, outPipe[0], errPipe[0], deadline, options, result);
  reap(pid, deadline, options, result);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

std::string klx::rt::signalName(int signal) {
  switch (signal) {
  case SIGABRT:
    return "SIGABRT";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGINT:
    return "SIGINT";
  case SIGKILL:
    return "SIGKILL";
  case SIGSEGV:
    return "SIGSEGV";
  case SIGTERM:
    return "SIGTERM";
  }
  return "signal " + std::to_string(signal);
}

std::string klx::rt::firstLine(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos)
    return "";
  text.remove_prefix(start);
  return std::string(text.substr(0, text.find('\n')));
}
