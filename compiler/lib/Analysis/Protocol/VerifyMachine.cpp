//===- VerifyMachine.cpp - The protocol as a state machine ----------------===//
//
// Index:
//   [SECTION] Knowledge sets and states
//   [SECTION] Where each role is
//   [SECTION] Moves
//   [SECTION] Shared memory: copies and reads
//   [SECTION] Checks
//
//===----------------------------------------------------------------------===//

#include "Analysis/Protocol/VerifyMachine.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace klx::sim;
using namespace klx::sim::verify;

// [SECTION] Knowledge sets and states ----------------------------------------

KnowledgeTable::KnowledgeTable(unsigned bits) { intern(llvm::BitVector(bits)); }

int KnowledgeTable::intern(const llvm::BitVector &v) {
  std::string key(reinterpret_cast<const char *>(v.getData().data()),
                  v.getData().size() * sizeof(v.getData()[0]));
  auto [it, inserted] = index.try_emplace(std::move(key), int(sets.size()));
  if (inserted)
    sets.push_back(v);
  return it->second;
}

int KnowledgeTable::join(int a, int b) {
  if (a == b || b == 0)
    return a;
  if (a == 0)
    return b;
  auto key = std::make_pair(std::min(a, b), std::max(a, b));
  if (auto it = joins.find(key); it != joins.end())
    return it->second;
  llvm::BitVector v = sets[a];
  v |= sets[b];
  int result = intern(v);
  joins[key] = result;
  return result;
}

int KnowledgeTable::withBit(int set, unsigned bit, bool value) {
  if (sets[set].test(bit) == value)
    return set;
  auto key = std::make_pair(set, int(bit * 2 + (value ? 1 : 0)));
  if (auto it = edits.find(key); it != edits.end())
    return it->second;
  llvm::BitVector v = sets[set];
  v[bit] = value;
  int result = intern(v);
  edits[key] = result;
  return result;
}

Layout::Layout(int roles, int slots) : roles(roles), slots(slots) {
  int at = 0;
  auto take = [&](int n) {
    int start = at;
    at += n;
    return start;
  };
  pc = take(roles);
  pending = take(slots);
  completed = take(slots);
  tx = take(slots);
  know = take(roles + 2 * slots);
  touched = take(1);
  groups = take(roles * kGroupsPerRole);
  copies = take(0);
}

State::State(const Layout &layout) : L(&layout), v(size_t(layout.copies), 0) {
  for (int i = 0; i < L->roles * Layout::kGroupsPerRole; ++i)
    v[L->groups + i] = -1;
}

llvm::SmallVector<int32_t, 4> State::groups(int r) const {
  llvm::SmallVector<int32_t, 4> out;
  for (int i = 0; i < Layout::kGroupsPerRole; ++i)
    if (int32_t pc = v[L->groups + r * Layout::kGroupsPerRole + i]; pc >= 0)
      out.push_back(pc);
  return out;
}

bool State::setGroups(int r, llvm::ArrayRef<int32_t> pcs) {
  if (pcs.size() > size_t(Layout::kGroupsPerRole))
    return false;
  for (int i = 0; i < Layout::kGroupsPerRole; ++i)
    v[L->groups + r * Layout::kGroupsPerRole + i] =
        i < int(pcs.size()) ? pcs[i] : -1;
  return true;
}

InFlight State::copy(size_t i) const {
  const int32_t *c = &v[L->copies + i * Layout::kCopyInts];
  return {c[0], c[1], c[2], c[3], c[4], c[5]};
}

void State::insertCopy(const InFlight &copy) {
  int32_t ints[Layout::kCopyInts] = {copy.slot,  copy.buffer, copy.role,
                                     copy.phase, copy.pc,     copy.bytes};
  // Sorted, so that the same copies in flight make the same state.
  size_t at = 0;
  while (at < copyCount() && std::lexicographical_compare(
                                 &v[L->copies + at * Layout::kCopyInts],
                                 &v[L->copies + (at + 1) * Layout::kCopyInts],
                                 ints, ints + Layout::kCopyInts))
    ++at;
  v.insert(v.begin() + L->copies + at * Layout::kCopyInts, ints,
           ints + Layout::kCopyInts);
}

void State::eraseCopy(size_t i) {
  auto first = v.begin() + L->copies + i * Layout::kCopyInts;
  v.erase(first, first + Layout::kCopyInts);
}

// [SECTION] Where each role is ------------------------------------------------

static int slotCount(const ProtocolModel &model) {
  int n = 0;
  for (const BarrierGroup &g : model.barriers)
    n += g.slots;
  return n;
}

/// Per barrier group, the only role that uses it, when it is used without
/// bytes (no expect_tx, no copies); else -1.
static std::vector<int> soleUsers(const ProtocolModel &model) {
  constexpr int kUnused = -2;
  std::vector<int> user(model.barriers.size(), kUnused);
  for (auto [r, role] : llvm::enumerate(model.roles)) {
    for (const Op &op : role.body) {
      if (op.barrier < 0 || op.barrier >= int(user.size()))
        continue;
      int &u = user[op.barrier];
      bool plain = op.kind == OpKind::Arrive || op.kind == OpKind::Wait;
      u = plain && (u == kUnused || u == int(r)) ? int(r) : -1;
    }
  }
  for (int &u : user)
    u = std::max(u, -1);
  return user;
}

Machine::Machine(const ProtocolModel &model)
    : model(model), roles(int(model.roles.size())),
      shape(int(model.roles.size()), slotCount(model)),
      stride(1 + unsigned(model.roles.size())),
      knowledge(unsigned(std::max<size_t>(1, model.buffers.size())) *
                (1 + unsigned(model.roles.size()))) {
  for (const BarrierGroup &g : model.barriers) {
    slotBase.push_back(slots);
    for (int i = 0; i < g.slots; ++i)
      slotGroup.push_back(int(slotBase.size()) - 1);
    slots += g.slots;
  }
  soleUser = soleUsers(model);
  for (const Buffer &b : model.buffers) {
    overlapping.emplace_back();
    for (auto [i, other] : llvm::enumerate(model.buffers))
      if (b.overlaps(other))
        overlapping.back().push_back(int(i));
  }
}

State Machine::initial() const {
  State s(shape);
  for (int slot = 0; slot < slots; ++slot)
    s.pending(slot) = model.barriers[slotGroup[slot]].count;
  for (int r = 0; r < roles; ++r)
    normalize(s, r);
  return s;
}

bool Machine::finished(const State &s) const {
  for (int r = 0; r < roles; ++r)
    if (s.pc(r) < total(r))
      return false;
  return s.copyCount() == 0;
}

void Machine::normalize(State &s, int role) const {
  const RoleModel &r = model.roles[role];
  size_t size = r.body.size();
  while (s.pc(role) < total(role)) {
    int64_t step = s.pc(role) / int64_t(size);
    if (r.body[s.pc(role) % size].runsAt(step))
      return;
    ++s.pc(role);
  }
}

Machine::Place Machine::placeOf(const State &s, int role) const {
  const RoleModel &r = model.roles[role];
  Place p;
  p.step = s.pc(role) / int64_t(r.body.size());
  p.op = &r.body[s.pc(role) % r.body.size()];
  if (p.op->barrier >= 0 && p.op->barrier < int(model.barriers.size())) {
    const BarrierGroup &g = model.barriers[p.op->barrier];
    int64_t pos = p.op->position(p.step);
    p.slot = slotBase[p.op->barrier] + int(pos % g.slots);
    p.phase = pos / g.slots;
  }
  return p;
}

bool Machine::waitPasses(const State &s, const Place &p) const {
  int parity = int((p.phase & 1) ^ (p.op->previousPhase ? 1 : 0));
  return (s.completed(p.slot) & 1) != parity;
}

std::string Machine::slotName(int slot) const {
  int g = slotGroup[slot];
  return llvm::formatv("{0}[{1}]", model.barriers[g].name, slot - slotBase[g]);
}

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
  if (rec && rec->trace.lanes.empty()) {
    rec->trace.lanes.resize(roles);
    for (const RoleModel &r : model.roles)
      rec->trace.roleNames.push_back(r.name);
  }
  if (move < 0) {
    InFlight copy = s.copy(size_t(-1 - move));
    s.eraseCopy(size_t(-1 - move));
    s.tx(copy.slot) -= copy.bytes;
    if (copy.buffer >= 0)
      s.know(roles + copy.slot) = knowledge.withBit(
          s.know(roles + copy.slot), writeBit(copy.buffer), true);
    int g = slotGroup[copy.slot];
    event(
        rec, copy.role,
        {Event::Kind::CopyDone, 0, 0, g, copy.slot - slotBase[g], copy.phase,
         -1, "bytes in", 0},
        [&] {
          return llvm::formatv("{0} bytes land on {1}{2}", copy.bytes,
                               slotName(copy.slot),
                               copy.buffer >= 0
                                   ? " (into " +
                                         model.buffers[copy.buffer].name + ")"
                                   : std::string())
              .str();
        },
        /*landing=*/true);
    return maybeComplete(s, copy.slot, rec, copy.role);
  }
  int r = move;
  Place p = placeOf(s, r);
  const Op &op = *p.op;
  int64_t shown = op.shownStep >= 0 ? op.shownStep : p.step;
  int g = op.barrier;
  int local = p.slot >= 0 ? p.slot - slotBase[g] : -1;
  auto advance = [&] {
    ++s.pc(r);
    normalize(s, r);
  };
  std::optional<Failure> failure;
  switch (op.kind) {
  case OpKind::Wait: {
    s.know(r) = knowledge.join(s.know(r), s.know(roles + slots + p.slot));
    event(
        rec, r,
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
    advance();
    return std::nullopt;
  }
  case OpKind::Arrive:
  case OpKind::ArriveExpectTx:
  case OpKind::ExpectTx: {
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
    advance();
    return maybeComplete(s, p.slot, rec, r);
  }
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
  advance();
  return std::nullopt;
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

// [SECTION] Checks ------------------------------------------------------------

std::optional<Failure> Machine::checkWaits(const State &s) const {
  // Hand-written kernels say parities, not phases: their aliasing shows
  // as what it causes (a deadlock or a stage race).
  if (!model.phasesKnown)
    return std::nullopt;
  for (int r = 0; r < roles; ++r) {
    if (s.pc(r) >= total(r))
      continue;
    Place p = placeOf(s, r);
    if (p.op->kind != OpKind::Wait || p.slot < 0)
      continue;
    int64_t target = p.op->previousPhase ? p.phase : p.phase + 1;
    if (s.completed(p.slot) <= target)
      continue;
    int64_t meant = target - 1;
    return Failure{
        FailureKind::ParityAliasing,
        llvm::formatv("{0} waits on {1} for phase {2} (parity {3}), but "
                      "phases {2} and {4} have both completed before it "
                      "looked: the parity it waits for comes round again "
                      "only after phase {5}",
                      model.roles[r].name, slotName(p.slot), meant, meant & 1,
                      meant + 1, meant + 2)
            .str(),
        {}};
  }
  return std::nullopt;
}

std::optional<Failure> Machine::checkEnd(const State &s) const {
  for (int slot = 0; slot < slots; ++slot) {
    if (s.tx(slot) == 0)
      continue;
    return Failure{
        FailureKind::TxMismatch,
        s.tx(slot) > 0
            ? llvm::formatv("at the end, {0} still expects {1} bytes: "
                            "expect_tx announced more than the copies "
                            "delivered",
                            slotName(slot), s.tx(slot))
                  .str()
            : llvm::formatv("at the end, {0} got {1} bytes more than "
                            "expect_tx announced",
                            slotName(slot), -s.tx(slot))
                  .str(),
        {}};
  }
  return std::nullopt;
}

Failure Machine::deadlock(const State &s) const {
  Failure f;
  f.kind = FailureKind::Deadlock;
  std::string who, bytes;
  for (int r = 0; r < roles; ++r) {
    if (s.pc(r) >= total(r))
      continue;
    Place p = placeOf(s, r);
    BlockedWait b;
    b.role = model.roles[r].name;
    b.op = p.op->label;
    b.waiting = p.op->kind == OpKind::Wait;
    b.step = p.op->shownStep >= 0 ? p.op->shownStep : p.step;
    b.line = p.op->line;
    if (p.slot >= 0) {
      int g = slotGroup[p.slot];
      b.barrier = model.barriers[g].name;
      b.slot = p.slot - slotBase[g];
      b.expectedParity = int((p.phase & 1) ^ (p.op->previousPhase ? 1 : 0));
      b.completedPhases = s.completed(p.slot);
      b.pendingArrivals = s.pending(p.slot);
      b.pendingBytes = s.tx(p.slot);
      who += llvm::formatv("{0}{1} waits on {2} for parity {3} ({4} phases "
                           "completed, {5} arrivals and {6} bytes pending)",
                           who.empty() ? "" : "; ", b.role, slotName(p.slot),
                           b.expectedParity, b.completedPhases,
                           b.pendingArrivals, b.pendingBytes)
                 .str();
      // Every arrival in but the bytes off: the phase can never complete.
      if (b.waiting && b.pendingArrivals == 0 && b.pendingBytes != 0 &&
          bytes.empty())
        bytes = llvm::formatv(
                    "{0} has all its arrivals for phase {1} but {2}, so the "
                    "phase never completes",
                    slotName(p.slot), b.completedPhases,
                    b.pendingBytes > 0
                        ? llvm::formatv("still expects {0} bytes that no "
                                        "copy delivers",
                                        b.pendingBytes)
                              .str()
                        : llvm::formatv("the copies delivered {0} bytes more "
                                        "than expect_tx announced",
                                        -b.pendingBytes)
                              .str())
                    .str();
    }
    f.blocked.push_back(b);
  }
  f.message = "nothing can move: " + who;
  if (!bytes.empty()) {
    f.kind = FailureKind::TxMismatch;
    f.message = bytes + ": " + who;
  }
  return f;
}
