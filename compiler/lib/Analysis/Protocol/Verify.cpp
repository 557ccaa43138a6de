//===- Verify.cpp - Every interleaving of a barrier protocol --------------===//
//
// Breadth first over VerifyMachine's states: each state is kept as a
// 128-bit hash of its encoding with the move that first reached it, so
// the counterexample is replayed from the start once a failure is found.
//
//===----------------------------------------------------------------------===//

#include "klx/Analysis/Protocol/Verify.h"

#include "Analysis/Protocol/VerifyMachine.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <deque>

using namespace klx::sim;
using namespace klx::sim::verify;

llvm::StringRef klx::sim::failureKindName(FailureKind kind) {
  switch (kind) {
  case FailureKind::Deadlock:
    return "deadlock";
  case FailureKind::ArrivalOverflow:
    return "arrival beyond the expected count";
  case FailureKind::TxMismatch:
    return "expect_tx and the bytes delivered disagree";
  case FailureKind::ParityAliasing:
    return "parity aliasing";
  case FailureKind::StageRace:
    return "stage race";
  }
  return "failure";
}

std::vector<std::string> klx::sim::verifyLeavesOut(const ProtocolModel &model) {
  int ctas = 1;
  for (const RoleModel &role : model.roles)
    ctas = std::max(ctas, role.sm + 1);
  std::vector<std::string> out = {
      ctas > 1 ? llvm::formatv("other clusters: the {0} CTAs of one cluster "
                               "are modelled, taking the same number of "
                               "tiles; the cluster-wide barrier at entry "
                               "and exit is taken to pass",
                               ctas)
                     .str()
               : "one CTA: clusters, multicast and other CTAs are not "
                 "modelled",
      "time: every order of the ops and of copies landing is explored, not "
      "how long anything takes",
      "a wait that times out and retries is a wait that blocks",
      "shared memory written by threads (not by copies) is not checked",
  };
  if (model.readFrom == "nvgpu ops") {
    out.push_back("TMA stores: the epilogue's stores from shared memory and "
                  "their bulk-group waits wait on no other thread, and are "
                  "taken to finish");
    out.push_back("threads: one thread of each class is run, and its class "
                  "moves as one; parity aliasing shows as what it causes (a "
                  "deadlock or a stage race), since the IR says parities, "
                  "not phases");
  }
  if (!model.buffersUnknown.empty())
    out.push_back("stage races where klx cannot tell which shared memory "
                  "an op uses: " +
                  model.buffersUnknown);
  return out;
}

namespace {

struct Key {
  uint64_t low = 0, high = 0;
};

Key keyOf(const State &s) {
  llvm::ArrayRef<int32_t> ints = s.data();
  llvm::XXH128_hash_t h = llvm::xxh3_128bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(ints.data()),
                              ints.size() * sizeof(int32_t)));
  return {h.low64, h.high64};
}

struct KeyInfo {
  static Key getEmptyKey() { return {~0ull, 0}; }
  static Key getTombstoneKey() { return {~0ull - 1, 0}; }
  static unsigned getHashValue(const Key &k) { return unsigned(k.low); }
  static bool isEqual(const Key &a, const Key &b) {
    return a.low == b.low && a.high == b.high;
  }
};

struct Node {
  int32_t parent = -1;
  int32_t move = 0;
};

/// A failure and the node whose move (or state) shows it.
struct Found {
  Failure failure;
  int32_t node = -1;
  std::optional<int32_t> move; // the move from `node` that failed
};

class Search {
public:
  Search(const ProtocolModel &model, const VerifyOptions &options)
      : model(model), options(options), machine(model) {}

  Verification run();

private:
  /// The moves from the start to `node` (and then `last`), replayed with a
  /// recorder: the counterexample.
  void replay(const Found &found, Verification &v);

  const ProtocolModel &model;
  const VerifyOptions &options;
  Machine machine;
  std::vector<Node> nodes;
  llvm::DenseMap<Key, int32_t, KeyInfo> seen;
};

Verification Search::run() {
  auto start = std::chrono::steady_clock::now();
  Verification v;
  v.racesUnchecked = model.buffersUnknown;
  std::deque<std::pair<State, int32_t>> frontier;
  State initial = machine.initial();
  nodes.push_back({});
  seen[keyOf(initial)] = 0;
  std::optional<Found> found;
  if (std::optional<Failure> f = machine.checkWaits(initial))
    found = Found{*f, 0, std::nullopt};
  else
    frontier.emplace_back(std::move(initial), 0);
  llvm::SmallVector<int, 8> moves;
  while (!frontier.empty() && !found) {
    auto [state, id] = std::move(frontier.front());
    frontier.pop_front();
    if (machine.finished(state)) {
      if (std::optional<Failure> f = machine.checkEnd(state))
        found = Found{*f, id, std::nullopt};
      continue;
    }
    moves.clear();
    if (int local = machine.localMove(state); local >= 0)
      moves.push_back(local);
    else
      machine.moves(state, moves);
    if (moves.empty()) {
      found = Found{machine.deadlock(state), id, std::nullopt};
      break;
    }
    for (int move : moves) {
      State next = state;
      ++v.transitions;
      std::optional<Failure> f = machine.apply(next, move);
      if (!f)
        f = machine.checkWaits(next);
      if (f) {
        found = Found{*f, id, move};
        break;
      }
      auto [it, inserted] = seen.try_emplace(keyOf(next), int32_t(0));
      if (!inserted)
        continue;
      it->second = int32_t(nodes.size());
      nodes.push_back({id, move});
      frontier.emplace_back(std::move(next), it->second);
    }
    if (int64_t(nodes.size()) > options.maxStates)
      break;
  }
  v.states = int64_t(nodes.size());
  if (found) {
    v.result = Verification::Result::Fails;
    v.kind = found->failure.kind;
    v.summary = found->failure.message;
    replay(*found, v);
  } else if (!frontier.empty()) {
    v.result = Verification::Result::Unknown;
    v.unknownWhy = llvm::formatv("the search stopped at its limit of {0} "
                                 "states without finding a failure",
                                 options.maxStates)
                       .str();
  }
  v.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return v;
}

void Search::replay(const Found &found, Verification &v) {
  std::vector<int32_t> path;
  for (int32_t n = found.node; n > 0; n = nodes[n].parent)
    path.push_back(nodes[n].move);
  std::reverse(path.begin(), path.end());
  if (found.move)
    path.push_back(*found.move);
  Machine again(model);
  State s = again.initial();
  Recorder rec;
  constexpr double kUnit = 1;
  for (int32_t move : path) {
    (void)again.apply(s, move, &rec);
    rec.now += kUnit;
  }
  v.counterexample = std::move(rec.steps);
  v.trace = std::move(rec.trace);
  if (v.trace.lanes.empty()) {
    v.trace.lanes.resize(model.roles.size());
    for (const RoleModel &r : model.roles)
      v.trace.roleNames.push_back(r.name);
  }
  Verdict &verdict = v.trace.verdict;
  verdict.completes = false;
  verdict.protocolError = found.failure.kind != FailureKind::Deadlock;
  verdict.blocked = found.failure.blocked;
  verdict.findings.push_back(found.failure.message);
  v.trace.endTime = rec.now;
  // Each role at a wait has waited since its last move.
  std::vector<double> since;
  for (const std::vector<Event> &lane : v.trace.lanes)
    since.push_back(lane.empty() ? 0 : lane.back().end);
  addStuckWaits(v.trace, model, since);
  for (size_t r = 0; r < v.trace.lanes.size(); ++r) {
    v.trace.waitingShare.push_back(0);
    v.trace.waitingCycles.push_back(0);
  }
}

} // namespace

Verification klx::sim::verifyProtocol(const ProtocolModel &model,
                                      const VerifyOptions &options) {
  return Search(model, options).run();
}
