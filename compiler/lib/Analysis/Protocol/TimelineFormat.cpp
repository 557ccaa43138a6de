//===- TimelineFormat.cpp - Timelines as text, JSON and traces ------------===//

#include "klx/Analysis/Protocol/TimelineFormat.h"

#include "llvm/Support/FormatVariadic.h"

using namespace klx;
using namespace klx::sim;

std::string sim::kernelLabel(const ProtocolModel &model) {
  if (llvm::StringRef(model.kernel).starts_with("gpu.launch"))
    return model.kernel;
  return "@" + model.kernel;
}

std::string sim::eventName(const ProtocolModel &model, const Event &e) {
  std::string name = e.label;
  if (e.barrier >= 0 && e.label.find('[') == std::string::npos &&
      e.kind != Event::Kind::CopyDone)
    name += "[" + std::to_string(e.slot) + "]";
  if (e.kind == Event::Kind::CopyDone && e.barrier >= 0)
    name = model.barriers[e.barrier].name + "[" + std::to_string(e.slot) +
           "] bytes in";
  return name;
}

std::string sim::verdictSummary(const Timeline &t) {
  if (t.verdict.completes)
    return llvm::formatv("completes in {0} cycles", int64_t(t.endTime)).str();
  return t.verdict.protocolError ? "DEADLOCK (protocol error)" : "DEADLOCK";
}

sim::WorkRates sim::workRates(const ProtocolModel &m, const Timeline &t) {
  WorkRates rates;
  if (!t.verdict.completes || m.tiles <= 0)
    return rates;
  rates.perTile = t.endTime / double(m.tiles);
  if (m.kSteps > 0)
    rates.perKStep = t.endTime / double(m.tiles * m.kSteps);
  if (m.tileElements > 0)
    rates.per1kOutputs = 1000 * t.endTime / double(m.tiles * m.tileElements);
  return rates;
}

void sim::printTimeline(llvm::raw_ostream &os, const ProtocolModel &m,
                        const Timeline &t) {
  if (!m.assumptions.empty())
    os << "  model: " << m.assumptions << "\n";
  if (!m.bound.empty())
    os << "  bound: " << m.bound << "\n";
  os << "  latency model: " << t.latency.describe() << "\n";
  os << "  barriers:";
  for (const BarrierGroup &g : m.barriers)
    os << " " << g.name << " x" << g.slots << " (init " << g.count << ")";
  os << "\n";
  // k steps only where the model has a k loop: elsewhere a role's loop
  // count is whatever loop it runs (a copy loop's index).
  for (size_t r = 0; r < t.lanes.size(); ++r)
    os << llvm::formatv(
        "  role {0}: {1}waits {2:P0} of its time "
        "({3} cycles)\n",
        t.roleNames[r],
        m.kSteps > 0
            ? llvm::formatv("{0} k steps, ", m.roles[r].loopSteps()).str()
            : std::string(),
        t.waitingShare[r], int64_t(t.waitingCycles[r]));
  if (WorkRates rates = workRates(m, t); rates.perTile && rates.perKStep)
    os << llvm::formatv("  per tile: {0} cycles; per k step: {1} cycles\n",
                        int64_t(*rates.perTile), int64_t(*rates.perKStep));
  if (t.verdict.completes)
    os << llvm::formatv("  verdict: completes in {0} cycles\n",
                        int64_t(t.endTime));
  else if (t.verdict.protocolError)
    os << llvm::formatv("  verdict: DEADLOCK (protocol error): the "
                        "barriers break after {0} cycles\n",
                        int64_t(t.endTime));
  else
    os << llvm::formatv("  verdict: DEADLOCK: nothing moves after {0} "
                        "cycles\n",
                        int64_t(t.endTime));
  for (const BlockedWait &b : t.verdict.blocked) {
    os << "    " << (b.waiting ? "blocked: " : "stopped: ") << b.role
       << " at step " << b.step;
    if (!b.waiting)
      os << ", " << b.op;
    else
      os << llvm::formatv(", waiting on {0}[{1}] for parity {2}: {3} phases "
                          "completed, {4} arrivals and {5} bytes pending",
                          b.barrier, b.slot, b.expectedParity,
                          b.completedPhases, b.pendingArrivals, b.pendingBytes);
    if (b.line)
      os << " (IR line " << b.line << ")";
    os << "\n";
  }
  for (const std::string &f : t.verdict.findings)
    os << "  why: " << f << "\n";
}

void sim::writeTimelineJson(llvm::json::OStream &json, const ProtocolModel &m,
                            const Timeline &t) {
  json.attribute("kernel", m.kernel);
  json.attribute("read_from", m.readFrom);
  if (!m.assumptions.empty())
    json.attribute("assumptions", m.assumptions);
  json.attribute("completes", t.verdict.completes);
  json.attribute("protocol_error", t.verdict.protocolError);
  json.attribute("end_cycles", t.endTime);
  if (!m.bound.empty())
    json.attribute("bound", m.bound);
  json.attribute("tiles", m.tiles);
  json.attribute("k_steps", m.kSteps);
  json.attributeArray("roles", [&] {
    for (size_t r = 0; r < t.lanes.size(); ++r)
      json.object([&] {
        json.attribute("name", t.roleNames[r]);
        json.attribute("steps", m.roles[r].loopSteps());
        json.attribute("events", int64_t(t.lanes[r].size()));
        json.attribute("waiting_share", t.waitingShare[r]);
        json.attribute("waiting_cycles", t.waitingCycles[r]);
      });
  });
  json.attributeArray("blocked", [&] {
    for (const BlockedWait &b : t.verdict.blocked)
      json.object([&] {
        json.attribute("role", b.role);
        json.attribute("op", b.op);
        json.attribute("waiting", b.waiting);
        json.attribute("barrier", b.barrier);
        json.attribute("slot", b.slot);
        json.attribute("step", b.step);
        json.attribute("expected_parity", b.expectedParity);
        json.attribute("completed_phases", b.completedPhases);
        json.attribute("pending_arrivals", b.pendingArrivals);
        json.attribute("pending_bytes", b.pendingBytes);
        json.attribute("line", b.line);
      });
  });
  json.attributeArray("findings", [&] {
    for (const std::string &f : t.verdict.findings)
      json.value(f);
  });
}

namespace {

llvm::json::Object traceEvent(const ProtocolModel &model, const Event &e,
                              int64_t pid, int64_t tid) {
  llvm::json::Object o{{"name", eventName(model, e)},
                       {"pid", pid},
                       {"tid", tid},
                       {"ts", e.start / 1000.0}};
  if (e.end > e.start) {
    o["ph"] = "X";
    o["dur"] = (e.end - e.start) / 1000.0;
  } else {
    o["ph"] = "i";
    o["s"] = "t";
  }
  if (e.step >= 0)
    o["args"] = llvm::json::Object{{"step", e.step}, {"phase", e.phase}};
  return o;
}

/// Flow arrows: the arrive (or bytes landing) that completed a phase, to
/// the end of the wait it released.
void addFlows(llvm::json::Array &events, const Timeline &t, int64_t pid) {
  for (const Flow &f : t.flows) {
    const Event &from = t.lanes[f.fromRole][f.fromEvent];
    const Event &to = t.lanes[f.toRole][f.toEvent];
    int64_t id = int64_t(events.size());
    events.push_back(llvm::json::Object{{"name", "releases"},
                                        {"cat", "barrier"},
                                        {"ph", "s"},
                                        {"id", id},
                                        {"pid", pid},
                                        {"tid", int64_t(f.fromRole)},
                                        {"ts", from.start / 1000.0}});
    events.push_back(llvm::json::Object{{"name", "releases"},
                                        {"cat", "barrier"},
                                        {"ph", "f"},
                                        {"bp", "e"},
                                        {"id", id},
                                        {"pid", pid},
                                        {"tid", int64_t(f.toRole)},
                                        {"ts", to.end / 1000.0}});
  }
}

} // namespace

void sim::writeChromeTrace(llvm::raw_ostream &os,
                           llvm::ArrayRef<ProtocolModel> models,
                           llvm::ArrayRef<Timeline> timelines,
                           llvm::StringRef processSuffix) {
  llvm::json::Array events;
  for (size_t k = 0; k < models.size() && k < timelines.size(); ++k) {
    const Timeline &t = timelines[k];
    int64_t pid = int64_t(k);
    events.push_back(llvm::json::Object{
        {"name", "process_name"},
        {"ph", "M"},
        {"pid", pid},
        {"args", llvm::json::Object{{"name", kernelLabel(models[k]) + " (" +
                                                 processSuffix.str() + ")"}}}});
    for (size_t r = 0; r < t.lanes.size(); ++r) {
      events.push_back(llvm::json::Object{
          {"name", "thread_name"},
          {"ph", "M"},
          {"pid", pid},
          {"tid", int64_t(r)},
          {"args", llvm::json::Object{{"name", t.roleNames[r]}}}});
      for (const Event &e : t.lanes[r])
        events.push_back(traceEvent(models[k], e, pid, int64_t(r)));
    }
    addFlows(events, t, pid);
  }
  llvm::json::Object root{
      {"traceEvents", std::move(events)},
      {"displayTimeUnit", "ns"},
      {"otherData",
       llvm::json::Object{
           {"time", "simulated cycles / 1000 (1 us on the axis = 1000 cycles)"},
           {"latency",
            timelines.empty() ? "" : timelines[0].latency.describe()}}}};
  os << llvm::formatv("{0}", llvm::json::Value(std::move(root))) << "\n";
}
