//===- VerifyMoves.cpp - The protocol's moves -----------------------------===//
//
// What VerifyMachine.cpp's states can do next, and doing it: which roles'
// next ops and which copies' landings are moves worth exploring, and each
// move applied to a state, with the knowledge it hands on and the failure
// it finds.
//
// Index:
//   [SECTION] Which moves there are
//   [SECTION] Moves
//   [SECTION] Shared memory: copies and reads
//
//===----------------------------------------------------------------------===//

#include "Analysis/Protocol/VerifyMachine.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace klx::sim;
using namespace klx::sim::verify;

// [SECTION] Which moves there are ---------------------------------------------

void Machine::moves(const State &s, llvm::SmallVectorImpl<int> &out) const {
  // Slots that a role's next op waits on: the only moments at which a
  // copy landing on them can be told from one landing later (an arrive
  // and a landing on one slot add up the same in either order).
  llvm::SmallVector<int, 8> watched;
  size_t roleMoves = 0;
  for (int r = 0; r < roles; ++r) {
    if (s.pc(r) >= total(r))
      continue;
    Place p = placeOf(s, r);
    if (p.slot >= 0 && p.op->kind == OpKind::Wait)
      watched.push_back(p.slot);
    if (p.op->kind == OpKind::Wait && (p.slot < 0 || !waitPasses(s, p)))
      continue;
    out.push_back(r);
    ++roleMoves;
  }
  // A landing commutes with every move on another slot, so only its
  // order against moves on its own slot matters: it is explored while a
  // role's next op is on that slot. When nothing else can move, the
  // landings of one slot (the lowest) go next: they cannot enable a role,
  // and the order of slots does not matter.
  size_t before = out.size();
  for (size_t i = 0; i < s.copyCount(); ++i)
    if (llvm::is_contained(watched, s.copy(i).slot))
      out.push_back(-1 - int(i));
  if (roleMoves == 0 && out.size() == before && s.copyCount() > 0)
    for (size_t i = 0; i < s.copyCount(); ++i)
      if (s.copy(i).slot == s.copy(0).slot)
        out.push_back(-1 - int(i));
}

int Machine::localMove(const State &s) const {
  for (int r = 0; r < roles; ++r) {
    if (s.pc(r) >= total(r))
      continue;
    Place p = placeOf(s, r);
    OpKind kind = p.op->kind;
    if (kind == OpKind::Compute || kind == OpKind::Read ||
        kind == OpKind::MmaWait || kind == OpKind::Copy)
      return r;
    bool ownBarrier = p.slot >= 0 && soleUser[p.op->barrier] == r;
    if (ownBarrier &&
        (kind == OpKind::Arrive || (kind == OpKind::Wait && waitPasses(s, p))))
      return r;
  }
  return -1;
}

// [SECTION] Moves -------------------------------------------------------------

void Machine::event(Recorder *rec, int role, Event e,
                    llvm::function_ref<std::string()> what, bool landing) {
  if (!rec)
    return;
  // One unit per move: a box most of its width wide (ticks for arrivals
  // and copies, which are instants).
  e.start = rec->now;
  bool box = e.kind == Event::Kind::Wait || e.kind == Event::Kind::Work;
  e.end = box ? e.start + 0.8 : e.start;
  rec->trace.lanes[role].push_back(e);
  rec->steps.push_back({role, landing, what(), e.line, e.step});
}

std::optional<Failure> Machine::apply(State &s, int move, Recorder *rec) {
  startRecording(rec);
  if (move < 0)
    return applyLanding(s, size_t(-1 - move), rec);
  int r = move;
  Place p = placeOf(s, r);
  const Op &op = *p.op;
  int64_t shown = op.shownStep >= 0 ? op.shownStep : p.step;
  int g = op.barrier;
  int local = p.slot >= 0 ? p.slot - slotBase[g] : -1;
  std::optional<Failure> failure;
  switch (op.kind) {
  case OpKind::Wait:
    return applyWait(s, r, p, rec);
  case OpKind::Arrive:
  case OpKind::ArriveExpectTx:
  case OpKind::ExpectTx:
    return applyArrive(s, r, p, rec);
  case OpKind::Copy:
    failure = copyIssued(s, r, p);
    event(
        rec, r,
        {Event::Kind::Copy, 0, 0, g, local, p.phase, shown, op.label, op.line},
        [&] {
          int buffer = op.bufferAt(op.buffer, p.step);
          return llvm::formatv(
                     "{0}[{1}]: {2} bytes{3}", op.label, local, op.bytes,
                     buffer >= 0 ? " into " + model.buffers[buffer].name
                                 : std::string())
              .str();
        });
    break;
  case OpKind::Compute:
  case OpKind::Read:
    failure = readsDone(s, r, p);
    event(rec, r,
          {Event::Kind::Work, 0, rec ? rec->now + 0.8 : 0, -1, -1, -1, shown,
           op.label, op.line},
          [&] { return op.label; });
    break;
  case OpKind::MmaWait:
    retireGroups(s, r, op.asyncGroups);
    event(rec, r,
          {Event::Kind::Work, 0, 0, -1, -1, -1, shown, op.label, op.line},
          [&] { return op.label; });
    break;
  }
  if (failure)
    return failure;
  advance(s, r);
  return std::nullopt;
}

void Machine::startRecording(Recorder *rec) const {
  if (rec && rec->trace.lanes.empty()) {
    rec->trace.lanes.resize(roles);
    for (const RoleModel &r : model.roles)
      rec->trace.roleNames.push_back(r.name);
  }
}

void Machine::advance(State &s, int role) const {
  ++s.pc(role);
  normalize(s, role);
}

std::optional<Failure> Machine::applyLanding(State &s, size_t index,
                                             Recorder *rec) {
  InFlight copy = s.copy(index);
  s.eraseCopy(index);
  s.tx(copy.slot) -= copy.bytes;
  if (copy.buffer >= 0)
    s.know(roles + copy.slot) = knowledge.withBit(s.know(roles + copy.slot),
                                                  writeBit(copy.buffer), true);
  int g = slotGroup[copy.slot];
  event(
      rec, copy.role,
      {Event::Kind::CopyDone, 0, 0, g, copy.slot - slotBase[g], copy.phase, -1,
       "bytes in", 0},
      [&] {
        return llvm::formatv(
                   "{0} bytes land on {1}{2}", copy.bytes, slotName(copy.slot),
                   copy.buffer >= 0
                       ? " (into " + model.buffers[copy.buffer].name + ")"
                       : std::string())
            .str();
      },
      /*landing=*/true);
  return maybeComplete(s, copy.slot, rec, copy.role);
}

std::optional<Failure> Machine::applyWait(State &s, int r, const Place &p,
                                          Recorder *rec) {
  const Op &op = *p.op;
  int64_t shown = op.shownStep >= 0 ? op.shownStep : p.step;
  int g = op.barrier;
  int local = p.slot >= 0 ? p.slot - slotBase[g] : -1;
  s.know(r) = knowledge.join(s.know(r), s.know(roles + slots + p.slot));
  event(rec, r,
        {Event::Kind::Wait, 0, 0, g, local, p.phase, shown, op.label, op.line},
        [&] {
          return llvm::formatv(
                     "{0} (parity {1}) passes: {2} phase{3} completed",
                     op.label.find('[') == std::string::npos
                         ? op.label + "[" + std::to_string(local) + "]"
                         : op.label,
                     (p.phase & 1) ^ (op.previousPhase ? 1 : 0),
                     s.completed(p.slot), s.completed(p.slot) == 1 ? "" : "s")
              .str();
        });
  advance(s, r);
  return std::nullopt;
}

std::optional<Failure> Machine::applyArrive(State &s, int r, const Place &p,
                                            Recorder *rec) {
  const Op &op = *p.op;
  int64_t shown = op.shownStep >= 0 ? op.shownStep : p.step;
  int g = op.barrier;
  int local = p.slot >= 0 ? p.slot - slotBase[g] : -1;
  int arrivals = op.kind == OpKind::ExpectTx ? 0 : op.arrivals;
  auto what = [&] {
    return op.label.find('[') != std::string::npos
               ? op.label
               : llvm::formatv("{0}[{1}]", op.label, local).str();
  };
  if (arrivals > s.pending(p.slot)) {
    event(rec, r,
          {Event::Kind::Arrive, 0, 0, g, local, s.completed(p.slot), shown,
           op.label, op.line},
          [&] { return what() + ": no pending arrival left"; });
    return Failure{
        FailureKind::ArrivalOverflow,
        llvm::formatv("{0} arrives on {1} ({2} arrival{3}) when its phase "
                      "{4} has {5} pending (initialised for {6}): an "
                      "arrival beyond the expected count is undefined",
                      model.roles[r].name, slotName(p.slot), arrivals,
                      arrivals == 1 ? "" : "s", s.completed(p.slot),
                      s.pending(p.slot), model.barriers[g].count)
            .str(),
        {}};
  }
  s.know(roles + p.slot) = knowledge.join(s.know(roles + p.slot), s.know(r));
  s.pending(p.slot) -= arrivals;
  if (op.kind != OpKind::Arrive)
    s.tx(p.slot) += op.bytes;
  event(rec, r,
        {Event::Kind::Arrive, 0, 0, g, local, s.completed(p.slot), shown,
         op.label, op.line},
        [&] {
          return what() + (op.bytes
                               ? llvm::formatv(" ({0} bytes)", op.bytes).str()
                               : std::string());
        });
  advance(s, r);
  return maybeComplete(s, p.slot, rec, r);
}

std::optional<Failure> Machine::maybeComplete(State &s, int slot, Recorder *rec,
                                              int byRole) {
  if (s.pending(slot) > 0 || s.tx(slot) != 0)
    return std::nullopt;
  int g = slotGroup[slot];
  int64_t phase = s.completed(slot)++;
  s.pending(slot) = model.barriers[g].count;
  s.know(roles + slots + slot) = s.know(roles + slot);
  s.know(roles + slot) = 0;
  if (rec)
    rec->trace.lanes[byRole].push_back(
        {Event::Kind::PhaseDone, rec->now, rec->now, g, slot - slotBase[g],
         phase, -1,
         llvm::formatv("{0} phase {1} done", slotName(slot), phase).str()});
  for (size_t i = 0; i < s.copyCount(); ++i)
    if (InFlight copy = s.copy(i); copy.slot == slot && copy.phase == phase)
      return Failure{
          FailureKind::TxMismatch,
          llvm::formatv("{0} completes phase {1} while a copy issued for it "
                        "by {2} ({3} bytes) is still in flight: expect_tx "
                        "announced fewer bytes than the copies deliver",
                        slotName(slot), phase, model.roles[copy.role].name,
                        copy.bytes)
              .str(),
          {}};
  return std::nullopt;
}

// [SECTION] Shared memory: copies and reads -----------------------------------

void Machine::everywhere(State &s, unsigned bit, bool value) {
  for (int i = 0; i < s.knowCount(); ++i)
    s.know(i) = knowledge.withBit(s.know(i), bit, value);
}

std::optional<Failure> Machine::copyIssued(State &s, int r, const Place &p) {
  const Op &op = *p.op;
  int w = op.bufferAt(op.buffer, p.step);
  const std::string &who = model.roles[r].name;
  if (w >= 0) {
    for (int b : overlapping[w]) {
      if (knowledge.test(s.touched(), writeBit(b)) &&
          !knowledge.test(s.know(r), writeBit(b)))
        return Failure{FailureKind::StageRace,
                       llvm::formatv("{0} copies into {1} while it does not "
                                     "know the earlier copy into {2} has "
                                     "landed (two writes race)",
                                     who, model.buffers[w].name,
                                     model.buffers[b].name)
                           .str(),
                       {}};
      for (int c = 0; c < roles; ++c)
        if (knowledge.test(s.touched(), readBit(b, c)) &&
            !knowledge.test(s.know(r), readBit(b, c)))
          return Failure{
              FailureKind::StageRace,
              llvm::formatv("{0} copies into {1} while {2}'s read of {3} "
                            "may still be in progress: nothing {2} did "
                            "after reading it reached {0} through a barrier "
                            "before the copy (a copy into a stage its "
                            "readers have not released)",
                            who, model.buffers[w].name,
                            c == r ? std::string("its own")
                                   : model.roles[c].name,
                            model.buffers[b].name)
                  .str(),
              {}};
    }
    everywhere(s, writeBit(w), false);
    s.touched() = knowledge.withBit(s.touched(), writeBit(w), true);
  }
  InFlight copy;
  copy.slot = p.slot;
  copy.buffer = w;
  copy.role = r;
  copy.phase = s.completed(p.slot);
  copy.pc = s.pc(r);
  copy.bytes = int32_t(op.bytes);
  s.insertCopy(copy);
  return std::nullopt;
}

std::optional<Failure> Machine::readsDone(State &s, int r, const Place &p) {
  const Op &op = *p.op;
  llvm::SmallVector<int, 4> buffers;
  for (int base : op.reads)
    if (int b = op.bufferAt(base, p.step); b >= 0)
      buffers.push_back(b);
  for (int b : buffers) {
    for (int w : overlapping[b])
      if (knowledge.test(s.touched(), writeBit(w)) &&
          !knowledge.test(s.know(r), writeBit(w)))
        return Failure{FailureKind::StageRace,
                       llvm::formatv("{0} reads {1} while it does not know "
                                     "the copy into {2} has landed: no "
                                     "barrier phase it waited for included "
                                     "those bytes (a read of a stage whose "
                                     "copy has not completed)",
                                     model.roles[r].name, model.buffers[b].name,
                                     model.buffers[w].name)
                           .str(),
                       {}};
    everywhere(s, readBit(b, r), false);
    s.touched() = knowledge.withBit(s.touched(), readBit(b, r), true);
  }
  bool async = op.kind == OpKind::Compute && op.asyncGroups >= 0;
  if (!async) {
    for (int b : buffers)
      s.know(r) = knowledge.withBit(s.know(r), readBit(b, r), true);
    return std::nullopt;
  }
  llvm::SmallVector<int32_t, 4> groups = s.groups(r);
  groups.push_back(s.pc(r));
  if (!s.setGroups(r, groups)) {
    // More wgmma groups in flight than a state holds: retire the oldest
    // first, which is what a wait would do soonest.
    groups.erase(groups.begin());
    (void)s.setGroups(r, groups);
  }
  retireGroups(s, r, op.asyncGroups);
  return std::nullopt;
}

void Machine::retireGroups(State &s, int r, int64_t keep) {
  const RoleModel &role = model.roles[r];
  auto buffersOf = [&](int32_t pc) {
    const Op &op = role.body[pc % role.body.size()];
    int64_t step = pc / int64_t(role.body.size());
    llvm::SmallVector<int, 4> out;
    for (int base : op.reads)
      if (int b = op.bufferAt(base, step); b >= 0)
        out.push_back(b);
    return out;
  };
  llvm::SmallVector<int32_t, 4> groups = s.groups(r);
  while (int64_t(groups.size()) > std::max<int64_t>(keep, 0)) {
    int32_t done = groups.front();
    groups.erase(groups.begin());
    for (int b : buffersOf(done)) {
      bool stillRead = llvm::any_of(groups, [&](int32_t pc) {
        return llvm::is_contained(buffersOf(pc), b);
      });
      if (!stillRead)
        s.know(r) = knowledge.withBit(s.know(r), readBit(b, r), true);
    }
  }
  (void)s.setGroups(r, groups);
}
