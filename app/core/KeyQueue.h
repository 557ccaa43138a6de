//===- KeyQueue.h - Key events held until a frame has seen the last -------===//
//
// ImGui 1.86 reads each key as down or up once a frame (io.KeysDown, when
// the frame begins). A press and its release that reach the window
// between the same two frames are lost: a key tapped during a slow frame
// (a software renderer, a long compile landing), a remote desktop's burst
// of events, or a Ctrl released before the Enter it was held for is read.
// The queue lets each key change at most once between two frames and
// holds the rest, in order, for the frames after (what ImGui 1.87's input
// queue does). A modifier released between two frames after a key was
// pressed with it is held too: ImGui reads Ctrl+A from Ctrl's key, not
// from the press's modifiers, and xdotool releases Ctrl before the A.
// No ImGui or GLFW here: the window forwards what it admits.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_KEYQUEUE_H
#define KLX_APP_CORE_KEYQUEUE_H

#include <set>
#include <vector>

namespace klx::app {

struct KeyEvent {
  enum Action { Release = 0, Press = 1, Repeat = 2 }; // GLFW's numbers
  int key = 0, scancode = 0, action = Press;
  int mods = 0; // GLFW_MOD_SHIFT 1, CONTROL 2, ALT 4, SUPER 8
};

class KeyQueue {
public:
  /// An event from the window: true to hand it on now, false when it is
  /// held (its key already changed since the last frame began, an
  /// earlier event of its key is held, or it releases a modifier that a
  /// press read this frame or a held press was made with).
  bool admit(const KeyEvent &event);
  /// Before a frame begins: the held events a frame has seen the state
  /// before, in order, at most one change per key.
  std::vector<KeyEvent> takeReady();
  /// After a frame began: it has seen every change so far.
  void frameBegan();
  /// Events still held: the window must draw another frame for them.
  bool holding() const { return !held.empty(); }

private:
  struct Held {
    KeyEvent event;
    bool ready = false; // a frame began after it was held
  };
  bool isHeld(int key) const;
  /// Whether `event` may reach the next frame: no earlier event of its key
  /// waits (`keyWaits`), its key has not changed since the last frame
  /// began, and, for a modifier's release, no press made with it waits
  /// (`modsWaiting`) or was read this frame. What passes counts as this
  /// frame's change.
  bool pass(const KeyEvent &event, bool keyWaits, int modsWaiting);

  std::vector<Held> held;
  std::set<int> changed; // keys changed since the last frame began
  int pressedMods = 0;   // modifiers of the presses among them
};

} // namespace klx::app

#endif // KLX_APP_CORE_KEYQUEUE_H
