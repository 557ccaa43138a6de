//===- KeyQueueTest.cpp - Key events held until a frame has seen them -----===//

#include "TestSupport.h"

#include "core/KeyQueue.h"

using namespace klx::app;

namespace {

constexpr int kCtrl = 341, kEnter = 257, kA = 65; // GLFW's key numbers

KeyEvent press(int key) { return {key, 0, KeyEvent::Press, 0}; }
KeyEvent release(int key) { return {key, 0, KeyEvent::Release, 0}; }
KeyEvent repeat(int key) { return {key, 0, KeyEvent::Repeat, 0}; }

/// The keys and actions of `events`, as "341+ 257-" (+ press, - release,
/// * repeat).
std::string said(const std::vector<KeyEvent> &events) {
  std::string out;
  for (const KeyEvent &e : events)
    out += std::to_string(e.key) + "-+*"[e.action] + " ";
  return out;
}

} // namespace

TEST_CASE("keys: Ctrl+Enter tapped between two frames is seen whole",
          "[app][keys]") {
  KeyQueue q;
  CHECK(q.admit(press(kCtrl)));
  CHECK(q.admit(press(kEnter)));
  CHECK_FALSE(q.admit(release(kEnter))); // the next frame must see it down
  CHECK_FALSE(q.admit(release(kCtrl)));  // ... with Ctrl down
  CHECK(said(q.takeReady()).empty());    // no frame has seen them yet
  q.frameBegan();                        // sees Ctrl and Enter down
  REQUIRE(q.holding());
  CHECK(said(q.takeReady()) == "257- 341- ");
  q.frameBegan(); // sees both up
  CHECK_FALSE(q.holding());
}

TEST_CASE("keys: Ctrl released before its A is read stays down for it",
          "[app][keys]") {
  KeyQueue q;
  CHECK(q.admit(press(kCtrl)));
  q.frameBegan(); // Ctrl down
  // What xdotool's "key ctrl+a" sends: Ctrl goes up before the A does.
  CHECK(q.admit({kA, 0, KeyEvent::Press, /*control*/ 2}));
  CHECK_FALSE(q.admit(release(kCtrl)));
  CHECK_FALSE(q.admit(release(kA)));
  q.frameBegan(); // sees A pressed with Ctrl down: select all
  CHECK(said(q.takeReady()) == "341- 65- ");
  q.frameBegan();
  CHECK_FALSE(q.holding());
  // A press without Ctrl does not hold Ctrl's release.
  CHECK(q.admit(press(kCtrl)));
  q.frameBegan();
  CHECK(q.admit(press(kA)));
  CHECK(q.admit(release(kCtrl)));
}

TEST_CASE("keys: Ctrl stays down for every Enter pressed with it",
          "[app][keys]") {
  KeyQueue q;
  CHECK(q.admit(press(kCtrl)));
  q.frameBegan();
  // Enter tapped twice with Ctrl down, and Ctrl let go, inside one frame.
  const int control = 2;
  CHECK(q.admit({kEnter, 0, KeyEvent::Press, control}));
  CHECK_FALSE(q.admit({kEnter, 0, KeyEvent::Release, control}));
  CHECK_FALSE(q.admit({kEnter, 0, KeyEvent::Press, control}));
  CHECK_FALSE(q.admit({kEnter, 0, KeyEvent::Release, control}));
  CHECK_FALSE(q.admit(release(kCtrl)));
  q.frameBegan();                        // Ctrl+Enter
  CHECK(said(q.takeReady()) == "257- "); // not Ctrl: an Enter still waits
  q.frameBegan();
  CHECK(said(q.takeReady()) == "257+ "); // the second Enter, Ctrl down
  q.frameBegan();                        // Ctrl+Enter again
  CHECK(said(q.takeReady()) == "257- 341- ");
  q.frameBegan();
  CHECK_FALSE(q.holding());
}

TEST_CASE("keys: Ctrl let go a frame later waits for its held press",
          "[app][keys]") {
  KeyQueue q;
  CHECK(q.admit(press(kCtrl)));
  q.frameBegan();
  const int control = 2;
  CHECK(q.admit({kA, 0, KeyEvent::Press, control}));
  CHECK_FALSE(q.admit({kA, 0, KeyEvent::Release, control}));
  CHECK_FALSE(q.admit({kA, 0, KeyEvent::Press, control}));
  q.frameBegan(); // Ctrl+A
  // Ctrl comes up before the frame after: the second A, held, still needs
  // it down.
  CHECK_FALSE(q.admit(release(kCtrl)));
  CHECK(said(q.takeReady()) == "65- ");
  q.frameBegan(); // A up, Ctrl down
  CHECK(said(q.takeReady()) == "65+ ");
  q.frameBegan(); // Ctrl+A again
  CHECK(said(q.takeReady()) == "341- ");
  q.frameBegan();
  CHECK_FALSE(q.holding());
}

TEST_CASE("keys: a double tap between two frames is two presses",
          "[app][keys]") {
  KeyQueue q;
  CHECK(q.admit(press(kA)));
  CHECK_FALSE(q.admit(release(kA)));
  CHECK_FALSE(q.admit(press(kA)));
  CHECK_FALSE(q.admit(release(kA)));
  q.frameBegan(); // down
  CHECK(said(q.takeReady()) == "65- ");
  q.frameBegan(); // up
  CHECK(said(q.takeReady()) == "65+ ");
  q.frameBegan(); // down again
  CHECK(said(q.takeReady()) == "65- ");
  q.frameBegan();
  CHECK_FALSE(q.holding());
  CHECK(said(q.takeReady()).empty());
}

TEST_CASE("keys: one change a frame passes straight through", "[app][keys]") {
  KeyQueue q;
  CHECK(q.admit(press(kA)));
  q.frameBegan();
  CHECK(q.admit(repeat(kA))); // the key stays down: no change
  CHECK(q.admit(repeat(kA)));
  CHECK(q.admit(release(kA)));
  CHECK(q.admit(press(kEnter))); // another key changes on its own
  q.frameBegan();
  CHECK_FALSE(q.holding());
}

TEST_CASE("keys: a repeat waits behind its key's held release", "[app][keys]") {
  KeyQueue q;
  CHECK(q.admit(press(kA)));
  CHECK_FALSE(q.admit(release(kA)));
  CHECK_FALSE(q.admit(repeat(kA))); // not before the release it follows
  CHECK(q.admit(press(kEnter)));    // other keys are not held back
  q.frameBegan();
  CHECK(said(q.takeReady()) == "65- 65* ");
  q.frameBegan();
  CHECK_FALSE(q.holding());
}
