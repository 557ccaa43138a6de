//===- VerifyMachine.cpp - The protocol as a state machine ----------------===//
//
// Index:
//   [SECTION] Knowledge sets and states
//   [SECTION] Where each role is
//   [SECTION] Checks
//
// The moves between states are in VerifyMoves.cpp.
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
