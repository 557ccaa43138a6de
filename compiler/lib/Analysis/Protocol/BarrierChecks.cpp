//===- BarrierChecks.cpp - Latency models and static protocol checks ------===//
//
// What BarrierSim.h declares besides the simulation itself: the latency
// model in words and parsed from its text form, and the static checks of
// a protocol model, whose findings every simulated timeline starts with.
// The simulation is in BarrierSim.cpp.
//
//===----------------------------------------------------------------------===//

#include "klx/Analysis/Protocol/BarrierSim.h"

#include "Analysis/Protocol/SimFindings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace klx::sim;

std::string LatencyModel::describe() const {
  return llvm::formatv("TMA {0} cycles + bytes / {1} per cycle (copies "
                       "stream one after another), MMA {2} cycles per k "
                       "step, {3} cycles per other op, {4} to wake a waiter",
                       tmaLatency, tmaBytesPerCycle, mmaCycles, issueCycles,
                       wakeCycles)
             .str() +
         [&] {
           std::string text;
           for (const auto &[role, cycles] : delays)
             text += llvm::formatv(", {0} starts {1} cycles late", role, cycles)
                         .str();
           return text;
         }();
}

double LatencyModel::delayOf(llvm::StringRef role) const {
  for (const auto &[name, cycles] : delays)
    if (name == role)
      return cycles;
  return 0;
}

std::string klx::sim::parseLatencyModel(llvm::StringRef spec,
                                        LatencyModel &model) {
  llvm::SmallVector<llvm::StringRef> items;
  spec.split(items, ',', -1, /*KeepEmpty=*/false);
  if (items.empty())
    return "expects name=cycles pairs, e.g. tma=800,mma=512";
  for (llvm::StringRef item : items) {
    auto [name, text] = item.split('=');
    name = name.trim();
    double value = 0;
    if (name.consume_front("delay.")) {
      if (name.empty() || text.trim().getAsDouble(value) || !(value >= 0))
        return ("'" + item + "' is not delay.ROLE=cycles").str();
      model.delays.emplace_back(name.str(), value);
      continue;
    }
    if (text.trim().getAsDouble(value) || !(value > 0))
      return ("'" + item + "' is not name=positive number").str();
    double *field = llvm::StringSwitch<double *>(name)
                        .Case("tma", &model.tmaLatency)
                        .Case("tma_bytes", &model.tmaBytesPerCycle)
                        .Case("mma", &model.mmaCycles)
                        .Case("issue", &model.issueCycles)
                        .Case("wake", &model.wakeCycles)
                        .Default(nullptr);
    if (!field)
      return ("unknown latency '" + name +
              "' (known: tma, tma_bytes, mma, issue, wake, delay.ROLE)")
          .str();
    *field = value;
  }
  return "";
}

namespace {

bool arrives(OpKind k) {
  return k == OpKind::Arrive || k == OpKind::ArriveExpectTx;
}

/// What the roles do to one barrier slot, or to one phase of it.
struct Tally {
  std::map<std::string, int64_t> arrivals; // by role
  int64_t expected = 0, delivered = 0;
  bool waited = false;

  void add(const std::string &role, const Op &op) {
    if (arrives(op.kind))
      arrivals[role] += op.arrivals;
    if (op.kind == OpKind::ArriveExpectTx || op.kind == OpKind::ExpectTx)
      expected += op.bytes;
    if (op.kind == OpKind::Copy)
      delivered += op.bytes;
    if (op.kind == OpKind::Wait)
      waited = true;
  }
  int64_t total() const {
    int64_t n = 0;
    for (const auto &entry : arrivals)
      n += entry.second;
    return n;
  }
  /// "producer_a 1, producer_b 1".
  std::string who() const {
    std::string text;
    for (const auto &[role, n] : arrivals)
      text += (text.empty() ? "" : ", ") + role + " " + std::to_string(n);
    return text;
  }
};

/// Every barrier op of every role at every step it runs, tallied under
/// (barrier, key(op, ring position)); a negative key skips the op.
template <typename KeyFn>
std::map<std::pair<int, int64_t>, Tally> tally(const ProtocolModel &model,
                                               KeyFn key) {
  std::map<std::pair<int, int64_t>, Tally> tallies;
  for (const RoleModel &role : model.roles)
    for (int64_t step = 0; step < role.steps; ++step)
      for (const Op &op : role.body) {
        if (op.barrier < 0 || !op.runsAt(step))
          continue;
        int64_t k = key(op, op.position(step));
        if (k >= 0)
          tallies[{op.barrier, k}].add(role.name, op);
      }
  return tallies;
}

/// checkProtocol without phases: per barrier slot, over the whole run.
std::vector<std::string> checkTotals(const ProtocolModel &model) {
  std::vector<std::string> findings;
  auto slots = tally(model, [&](const Op &op, int64_t pos) {
    return pos % model.barriers[op.barrier].slots;
  });
  std::set<int> reported;
  for (const auto &[key, p] : slots) {
    const BarrierGroup &g = model.barriers[key.first];
    if (reported.count(key.first))
      continue;
    int64_t total = p.total();
    std::string name = slotName(g, int(key.second));
    if (total == 0 && p.waited)
      note(findings, llvm::formatv("{0} is waited on but no role arrives on "
                                   "it",
                                   name));
    else if (g.count > 0 && total % g.count != 0)
      note(findings, llvm::formatv("{0}: {1} arrivals over the run ({2}) are "
                                   "not a multiple of its count {3}: its last "
                                   "phase never completes",
                                   name, total, p.who(), g.count));
    else if (p.expected != p.delivered)
      note(findings, llvm::formatv("{0}: expect_tx announces {1} bytes over "
                                   "the run but the copies deliver {2}",
                                   name, p.expected, p.delivered));
    else
      continue;
    reported.insert(key.first);
  }
  return findings;
}

} // namespace

std::vector<std::string> klx::sim::checkProtocol(const ProtocolModel &model) {
  if (!model.phasesKnown)
    return checkTotals(model);
  std::vector<std::string> findings;
  // (barrier, ring position) -> what every role does there.
  auto phases = tally(model, [&](const Op &op, int64_t pos) {
    // Waiting for the previous lap's phase: nothing to wait for on the
    // first lap.
    if (op.kind == OpKind::Wait && op.previousPhase)
      pos -= model.barriers[op.barrier].slots;
    return pos;
  });
  std::set<int> reported;
  for (const auto &[key, p] : phases) {
    const BarrierGroup &g = model.barriers[key.first];
    int64_t slot = key.second % g.slots, phase = key.second / g.slots;
    int64_t total = p.total();
    if (reported.count(key.first))
      continue;
    if (total == 0 && p.waited) {
      note(findings, llvm::formatv("{0} phase {1} is waited on but no role "
                                   "arrives on it",
                                   slotName(g, int(slot)), phase));
      reported.insert(key.first);
    } else if (total != 0 && total != g.count) {
      note(findings,
           llvm::formatv("{0}: {1} arrivals per phase ({2}) but it is "
                         "initialised for {3}{4}",
                         g.name, total, p.who(), g.count,
                         p.arrivals.size() > 1 && g.count < total
                             ? ": the phase completes before every role "
                               "has arrived, and the late arrivals land in "
                               "the next phase"
                             : ""));
      reported.insert(key.first);
    } else if (p.expected != p.delivered) {
      note(findings, llvm::formatv("{0}: expect_tx announces {1} bytes per "
                                   "phase but the copies deliver {2}",
                                   g.name, p.expected, p.delivered));
      reported.insert(key.first);
    }
  }
  return findings;
}
