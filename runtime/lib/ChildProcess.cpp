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
/// `deadline`. Polling both keeps a child that fills one pipe while we
/// block on the other from stalling.
void drain(pid_t pid, int outFd, int errFd, Clock::time_point deadline,
           ChildExit &result) {
  pollfd fds[2] = {{outFd, POLLIN, 0}, {errFd, POLLIN, 0}};
  std::string *sinks[2] = {&result.out, &result.err};
  // After the kill, a few seconds for the kernel to close the pipes.
  Clock::time_point giveUp = deadline + std::chrono::seconds(5);
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    bool killed = result.timedOut;
    int wait =
        int(std::min<int64_t>(msUntil(killed ? giveUp : deadline), 1000));
    int ready = poll(fds, 2, wait);
    if (ready < 0 && errno != EINTR)
      break;
    if (ready <= 0) {
      if (!killed && Clock::now() >= deadline) {
        kill(pid, SIGKILL);
        result.timedOut = true;
      } else if (killed && Clock::now() >= giveUp) {
        break;
      }
      continue;
    }
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

/// Waits for the child, killing it if it is still there at `deadline`
/// (it closed its output but did not exit).
void reap(pid_t pid, Clock::time_point deadline, ChildExit &result) {
  int status = 0;
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR)
      return;
    if (done == 0 && Clock::now() >= deadline && !result.timedOut) {
      kill(pid, SIGKILL);
      result.timedOut = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.signal = WTERMSIG(status);
}

} // namespace

ChildExit
klx::rt::runChild(const std::vector<std::string> &argv,
                  const std::vector<std::pair<std::string, std::string>> &env,
                  int64_t timeoutMs) {
  ChildExit result;
  Clock::time_point start = Clock::now();
  Clock::time_point deadline = start + std::chrono::milliseconds(timeoutMs);
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
  // dup2 gives the child fds 1 and 2 without close-on-exec.
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  std::vector<std::string> args = argv;
  std::vector<std::string> environment = mergedEnvironment(env);
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
  drain(pid, outPipe[0], errPipe[0], deadline, result);
  reap(pid, deadline, result);
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
