//===- KeyQueue.cpp - Key events held until a frame has seen the last -----===//

#include "KeyQueue.h"

#include <algorithm>

using namespace klx::app;

namespace {

/// The modifier bit a modifier key sets (GLFW's keys and bits), else 0.
int modifierOf(int key) {
  switch (key) {
  case 340: // left shift
  case 344: // right shift
    return 1;
  case 341: // left control
  case 345: // right control
    return 2;
  case 342: // left alt
  case 346: // right alt
    return 4;
  case 343: // left super
  case 347: // right super
    return 8;
  default:
    return 0;
  }
}

} // namespace

bool KeyQueue::isHeld(int key) const {
  return std::any_of(held.begin(), held.end(),
                     [&](const Held &h) { return h.event.key == key; });
}

bool KeyQueue::pass(const KeyEvent &event, bool keyWaits, int modsWaiting) {
  // A repeat leaves the key down (ImGui times repeats itself): it changes
  // nothing, but must not pass a held event of its key.
  bool change = event.action != KeyEvent::Repeat;
  // A modifier goes up only after the presses made with it were read.
  bool modifierInUse = event.action == KeyEvent::Release &&
                       (modifierOf(event.key) & (modsWaiting | pressedMods));
  if (keyWaits || (change && changed.count(event.key)) || modifierInUse)
    return false;
  if (change)
    changed.insert(event.key);
  if (event.action == KeyEvent::Press)
    pressedMods |= event.mods;
  return true;
}

bool KeyQueue::admit(const KeyEvent &event) {
  int heldMods = 0; // a held press still needs its modifiers down
  for (const Held &h : held)
    if (h.event.action == KeyEvent::Press)
      heldMods |= h.event.mods;
  if (pass(event, isHeld(event.key), heldMods))
    return true;
  held.push_back({event, false});
  return false;
}

std::vector<KeyEvent> KeyQueue::takeReady() {
  std::vector<KeyEvent> ready;
  std::set<int> blocked; // keys whose next held event must wait
  int waitingMods = 0;   // modifiers of presses that wait
  std::vector<Held> still;
  for (const Held &h : held) {
    int key = h.event.key;
    if (h.ready && pass(h.event, blocked.count(key), waitingMods)) {
      ready.push_back(h.event);
      continue;
    }
    blocked.insert(key);
    if (h.event.action == KeyEvent::Press)
      waitingMods |= h.event.mods;
    still.push_back(h);
  }
  held = std::move(still);
  return ready;
}

void KeyQueue::frameBegan() {
  changed.clear();
  pressedMods = 0;
  for (Held &h : held)
    h.ready = true;
}
