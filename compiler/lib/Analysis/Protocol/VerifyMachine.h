//===- VerifyMachine.h - The protocol as a state machine --------*- C++ -*-===//
//
// Private to Analysis/Protocol: the states klx verify explores and the
// moves between them, as hardware runs an mbarrier protocol: a role's next
// op (a wait only once the phase of its parity has completed), or a copy's
// bytes landing. Happens-before is tracked as knowledge: what each role,
// and each barrier phase in progress or last completed, knows of the
// latest copy into each buffer (landed?) and of each role's latest read of
// it (done?). An arrive hands the arriver's knowledge to the phase, a wait
// that passes takes the last completed phase's, a copy landing adds its
// own; a copy or a read checks what its role knows. Knowledge sets are
// interned, so a state is a few dozen integers.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_PROTOCOL_VERIFYMACHINE_H
#define KLX_LIB_ANALYSIS_PROTOCOL_VERIFYMACHINE_H

#include "klx/Analysis/Protocol/Verify.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace klx::sim::verify {

/// Each distinct bit set once; sets are named by index (0: empty).
class KnowledgeTable {
public:
  explicit KnowledgeTable(unsigned bits);
  bool test(int set, unsigned bit) const { return sets[set].test(bit); }
  int join(int a, int b);
  int withBit(int set, unsigned bit, bool value);

private:
  int intern(const llvm::BitVector &bits);
  std::vector<llvm::BitVector> sets;
  std::unordered_map<std::string, int> index;
  llvm::DenseMap<std::pair<int, int>, int> joins;
  llvm::DenseMap<std::pair<int, int>, int> edits; // (set, bit * 2 + value)
};

/// A copy in flight.
struct InFlight {
  int32_t slot = 0, buffer = -1, role = 0, phase = 0, pc = 0, bytes = 0;
};

/// Where each part of a state lies in its one vector of integers.
struct Layout {
  static constexpr int kGroupsPerRole = 4; // wgmma groups in flight
  static constexpr int kCopyInts = 6;      // an InFlight
  int roles = 0, slots = 0;
  int pc = 0, pending = 0, completed = 0, tx = 0, know = 0, touched = 0,
      groups = 0, copies = 0;
  Layout(int roles, int slots);
};

/// A state of the protocol: per role its pc (ops done, steps x body) and
/// the MMAs whose reads are in flight; per barrier slot its pending
/// arrivals, completed phases and expected bytes; knowledge per role, per
/// slot's phase in progress and per slot's last completed phase; the
/// buffers ever written and read; the copies in flight, sorted. One
/// vector, so that copying, hashing and comparing a state are cheap.
class State {
public:
  explicit State(const Layout &layout);
  int32_t &pc(int r) { return v[L->pc + r]; }
  int32_t pc(int r) const { return v[L->pc + r]; }
  int32_t &pending(int slot) { return v[L->pending + slot]; }
  int32_t pending(int slot) const { return v[L->pending + slot]; }
  int32_t &completed(int slot) { return v[L->completed + slot]; }
  int32_t completed(int slot) const { return v[L->completed + slot]; }
  int32_t &tx(int slot) { return v[L->tx + slot]; }
  int32_t tx(int slot) const { return v[L->tx + slot]; }
  /// Knowledge: roles first, then each slot's phase in progress, then
  /// each slot's last completed phase.
  int32_t &know(int i) { return v[L->know + i]; }
  int32_t know(int i) const { return v[L->know + i]; }
  int knowCount() const { return L->roles + 2 * L->slots; }
  int32_t &touched() { return v[L->touched]; }
  int32_t touched() const { return v[L->touched]; }
  /// The pcs of role r's MMAs whose reads are in flight, oldest first.
  llvm::SmallVector<int32_t, 4> groups(int r) const;
  /// False when more groups are in flight than a state holds.
  bool setGroups(int r, llvm::ArrayRef<int32_t> pcs);
  size_t copyCount() const {
    return (v.size() - size_t(L->copies)) / Layout::kCopyInts;
  }
  InFlight copy(size_t i) const;
  void insertCopy(const InFlight &copy);
  void eraseCopy(size_t i);
  llvm::ArrayRef<int32_t> data() const { return v; }

private:
  const Layout *L;
  std::vector<int32_t> v;
};
struct Failure {
  FailureKind kind = FailureKind::Deadlock;
  std::string message;
  std::vector<BlockedWait> blocked;
};

/// Writes down what a move did, for the counterexample.
struct Recorder {
  std::vector<CounterStep> steps;
  Timeline trace;
  double now = 0;
};

class Machine {
public:
  explicit Machine(const ProtocolModel &model);

  State initial() const;
  const Layout &layout() const { return shape; }
  bool finished(const State &s) const;
  /// The moves possible: role r (>= 0) runs its next op, or copy i lands
  /// (-1 - i).
  void moves(const State &s, llvm::SmallVectorImpl<int> &out) const;
  /// A role whose next op only touches its own state and shared memory
  /// (or a barrier only it uses), which the search runs at once; -1 when
  /// there is none.
  int localMove(const State &s) const;
  std::optional<Failure> apply(State &s, int move, Recorder *rec = nullptr);
  /// A role waiting for a phase that has come and gone (klx kernels,
  /// whose phases are known).
  std::optional<Failure> checkWaits(const State &s) const;
  /// At the end: bytes announced and not delivered, or the other way.
  std::optional<Failure> checkEnd(const State &s) const;
  Failure deadlock(const State &s) const;

private:
  struct Place {
    const Op *op = nullptr;
    int64_t step = 0;
    int slot = -1; // global slot index
    int64_t phase = 0;
  };
  Place placeOf(const State &s, int role) const;
  int64_t total(int role) const {
    return model.roles[role].steps * int64_t(model.roles[role].body.size());
  }
  void normalize(State &s, int role) const;
  /// Past role `role`'s op, to the next op that runs.
  void advance(State &s, int role) const;
  bool waitPasses(const State &s, const Place &p) const;
  std::string slotName(int slot) const;
  unsigned writeBit(int buffer) const { return buffer * stride; }
  unsigned readBit(int buffer, int role) const {
    return buffer * stride + 1 + role;
  }
  /// Sets `bit` to `value` in every holder of knowledge.
  void everywhere(State &s, unsigned bit, bool value);
  /// The lanes of a schedule being recorded, at its first move.
  void startRecording(Recorder *rec) const;
  /// apply's moves that touch a barrier: copy `index` landing, role
  /// `role`'s wait passing, its arrive (or expect_tx).
  std::optional<Failure> applyLanding(State &s, size_t index, Recorder *rec);
  std::optional<Failure> applyWait(State &s, int role, const Place &p,
                                   Recorder *rec);
  std::optional<Failure> applyArrive(State &s, int role, const Place &p,
                                     Recorder *rec);
  std::optional<Failure> copyIssued(State &s, int role, const Place &p);
  std::optional<Failure> readsDone(State &s, int role, const Place &p);
  void retireGroups(State &s, int role, int64_t keep);
  std::optional<Failure> maybeComplete(State &s, int slot, Recorder *rec,
                                       int byRole);
  /// Records a move on `role`'s lane when a schedule is being recorded
  /// (`rec`); `what` says it in words, asked for only then: the search
  /// makes millions of moves and records none.
  void event(Recorder *rec, int role, Event e,
             llvm::function_ref<std::string()> what, bool landing = false);

  const ProtocolModel &model;
  int roles = 0, slots = 0;
  Layout shape;
  unsigned stride = 0;        // knowledge bits per buffer: 1 + roles
  std::vector<int> slotBase;  // per barrier group
  std::vector<int> slotGroup; // per slot
  /// Per barrier group: the one role that arrives and waits on it, with
  /// no bytes or copies, or -1. Such a barrier (a consumer warpgroup's
  /// named barrier) orders that role's threads only, so its moves commute
  /// with every other role's.
  std::vector<int> soleUser;
  std::vector<std::vector<int>> overlapping; // per buffer, itself too
  mutable KnowledgeTable knowledge;
};

} // namespace klx::sim::verify

#endif // KLX_LIB_ANALYSIS_PROTOCOL_VERIFYMACHINE_H
