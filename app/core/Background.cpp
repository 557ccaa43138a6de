//===- Background.cpp - Work a pane asks for, done off the GUI thread -----===//

#include "Background.h"

using namespace klx::app;

namespace {
// Never destroyed: a job may finish while the process exits.
struct Hook {
  std::mutex mutex;
  std::function<void()> wake;
};
Hook &hook() {
  static Hook *hook = new Hook;
  return *hook;
}
std::atomic<int> inFlight{0};
std::atomic<uint64_t> landedCount{0};
} // namespace

void background::setWake(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(hook().mutex);
  hook().wake = std::move(wake);
}

void background::wake() {
  std::lock_guard<std::mutex> lock(hook().mutex);
  if (hook().wake)
    hook().wake();
}

int background::pending() { return inFlight.load(); }
void background::started() { ++inFlight; }
void background::finished() {
  ++landedCount;
  --inFlight;
}
uint64_t background::landed() { return landedCount.load(); }
