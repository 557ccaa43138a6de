//===- Background.h - Work a pane asks for, done off the GUI thread -*- C++
//-*-===//
//
// A pane that needs something slow (a line diff of two 50,000-line
// snapshots, the rows of a Compare) asks a Background<T> for it under a key
// and draws what it has meanwhile; the work runs on a thread of its own,
// the newest key wins, and the window is woken when a result lands. The
// work owns its inputs (copies or shared pointers), so a run replaced
// meanwhile is never read after it is freed. Nothing here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_BACKGROUND_H
#define KLX_APP_CORE_BACKGROUND_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace klx::app {

namespace background {
/// Called (from a worker thread) whenever a result lands: the GUI sets
/// it to wake its frame loop.
void setWake(std::function<void()> wake);
void wake();
/// Jobs started and not yet landed, over every Background: a scripted
/// screenshot waits for none.
int pending();
/// Counts the results that landed: a frame loop that sees it change draws
/// again (a wake can come between its last frame and its sleep).
uint64_t landed();
void started();
void finished();
} // namespace background

template <typename T> class Background {
public:
  /// Starts `work` for `key` unless that key is the one held or in flight.
  /// The work builds its result in place (a result may point into itself).
  void request(uint64_t key, std::function<std::shared_ptr<const T>()> work) {
    if (key == state->wanted.load())
      return;
    state->wanted = key;
    auto shared = state;
    background::started();
    std::thread([shared, key, work = std::move(work)] {
      std::shared_ptr<const T> value = work();
      {
        std::lock_guard<std::mutex> lock(shared->mutex);
        // A request overtaken by a newer one is dropped.
        if (key == shared->wanted.load()) {
          shared->ready = std::move(value);
          shared->readyKey = key;
        }
      }
      background::finished();
      background::wake();
    }).detach();
  }

  /// The result for the key asked last, once it landed; else null.
  std::shared_ptr<const T> get() const {
    std::lock_guard<std::mutex> lock(state->mutex);
    if (!state->ready || state->readyKey != state->wanted.load())
      return nullptr;
    return state->ready;
  }

private:
  struct State {
    std::mutex mutex;
    std::atomic<uint64_t> wanted{~uint64_t(0)};
    std::shared_ptr<const T> ready;
    uint64_t readyKey = 0;
  };
  std::shared_ptr<State> state = std::make_shared<State>();
};

} // namespace klx::app

#endif // KLX_APP_CORE_BACKGROUND_H
