//===- TimelineCommand.cpp - klx timeline ---------------------------------===//
//
// The simulated barrier timeline of each warp-specialized klx kernel: the
// protocol model read after klx-circular-buffer (BarrierModel), run under
// the stated latency model (BarrierSim). Exit 3 when a kernel deadlocks,
// with the blocked waits and the reasons printed.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace klx;
using namespace klx::cli;
using klx::sim::Event;

namespace {

std::string eventName(const sim::ProtocolModel &model, const Event &e) {
  std::string name = e.label;
  if (e.barrier >= 0 && e.label.find('[') == std::string::npos &&
      e.kind != Event::Kind::CopyDone)
    name += "[" + std::to_string(e.slot) + "]";
  if (e.kind == Event::Kind::CopyDone && e.barrier >= 0)
    name = model.barriers[e.barrier].name + "[" + std::to_string(e.slot) +
           "] bytes in";
  return name;
}

void writeTrace(llvm::raw_ostream &os,
                const std::vector<sim::ProtocolModel> &models,
                const std::vector<sim::Timeline> &timelines) {
  llvm::json::Array events;
  for (size_t k = 0; k < models.size(); ++k) {
    const sim::Timeline &t = timelines[k];
    events.push_back(llvm::json::Object{
        {"name", "process_name"},
        {"ph", "M"},
        {"pid", int64_t(k)},
        {"args", llvm::json::Object{
                     {"name", "@" + models[k].kernel + " (simulated)"}}}});
    for (size_t r = 0; r < t.lanes.size(); ++r) {
      events.push_back(llvm::json::Object{
          {"name", "thread_name"},
          {"ph", "M"},
          {"pid", int64_t(k)},
          {"tid", int64_t(r)},
          {"args", llvm::json::Object{{"name", t.roleNames[r]}}}});
      for (const Event &e : t.lanes[r]) {
        llvm::json::Object o{{"name", eventName(models[k], e)},
                             {"pid", int64_t(k)},
                             {"tid", int64_t(r)},
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
        events.push_back(std::move(o));
      }
    }
    // Flow arrows: the arrive (or bytes landing) that completed a phase,
    // to the end of the wait it released.
    for (const sim::Flow &f : t.flows) {
      const Event &from = t.lanes[f.fromRole][f.fromEvent];
      const Event &to = t.lanes[f.toRole][f.toEvent];
      int64_t id = int64_t(events.size());
      events.push_back(llvm::json::Object{{"name", "releases"},
                                          {"cat", "barrier"},
                                          {"ph", "s"},
                                          {"id", id},
                                          {"pid", int64_t(k)},
                                          {"tid", int64_t(f.fromRole)},
                                          {"ts", from.start / 1000.0}});
      events.push_back(llvm::json::Object{{"name", "releases"},
                                          {"cat", "barrier"},
                                          {"ph", "f"},
                                          {"bp", "e"},
                                          {"id", id},
                                          {"pid", int64_t(k)},
                                          {"tid", int64_t(f.toRole)},
                                          {"ts", to.end / 1000.0}});
    }
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

} // namespace

int cli::runTimelineCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"json", "trace", "latency"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  sim::LatencyModel latency;
  if (std::optional<std::string> spec = args.get("latency")) {
    std::string error = sim::parseLatencyModel(*spec, latency);
    if (!error.empty()) {
      llvm::errs() << "klx timeline: --latency=" << *spec << ": " << error
                   << "\n";
      return kExitUsageError;
    }
  }
  input->options.emitGoal = EmitKind::MLIR;
  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  printDiagnostics(run, llvm::errs());
  int step = run.timelineStep();
  const Snapshot *snapshot = step >= 0 ? &run.snapshots[step] : nullptr;
  if (!snapshot) {
    if (!run.succeeded())
      return exitCodeFor(run);
    for (const Snapshot &s : run.snapshots)
      for (const std::string &note : s.protocolNotes) {
        llvm::errs() << "klx timeline: " << run.fileName << ": " << note
                     << "\n";
        return kExitUsageError;
      }
    llvm::errs() << "klx timeline: " << run.fileName
                 << ": no kernel with a barrier protocol at any step (the "
                    "timeline is read from a warp-specialized klx kernel "
                    "from klx-circular-buffer on, or from nvgpu mbarrier ops "
                    "before convert-nvgpu-to-nvvm)\n";
    return kExitUsageError;
  }

  std::vector<sim::Timeline> timelines;
  bool deadlock = false;
  for (const sim::ProtocolModel &model : snapshot->protocols) {
    timelines.push_back(sim::simulate(model, latency));
    deadlock |= !timelines.back().verdict.completes;
  }
  if (std::optional<std::string> path = args.get("trace")) {
    std::error_code ec;
    llvm::raw_fd_ostream os(*path, ec);
    if (ec) {
      llvm::errs() << "klx timeline: " << *path
                   << ": cannot write: " << ec.message() << "\n";
      return kExitUsageError;
    }
    writeTrace(os, snapshot->protocols, timelines);
  }

  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", run.fileName);
      json.attribute("step", snapshot->displayName());
      json.attribute("latency", timelines.front().latency.describe());
      json.attributeArray("kernels", [&] {
        for (size_t k = 0; k < timelines.size(); ++k) {
          const sim::Timeline &t = timelines[k];
          const sim::ProtocolModel &m = snapshot->protocols[k];
          json.object([&] {
            json.attribute("kernel", m.kernel);
            json.attribute("read_from", m.readFrom);
            if (!m.assumptions.empty())
              json.attribute("assumptions", m.assumptions);
            json.attribute("completes", t.verdict.completes);
            json.attribute("protocol_error", t.verdict.protocolError);
            json.attribute("end_cycles", t.endTime);
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
              for (const sim::BlockedWait &b : t.verdict.blocked)
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
          });
        }
      });
    });
    llvm::outs() << "\n";
    return deadlock ? kExitDeadlock : kExitSuccess;
  }

  llvm::raw_ostream &os = llvm::outs();
  for (size_t k = 0; k < timelines.size(); ++k) {
    const sim::Timeline &t = timelines[k];
    const sim::ProtocolModel &m = snapshot->protocols[k];
    os << run.fileName << ": simulated barrier timeline of @" << m.kernel
       << " after " << snapshot->displayName() << ", read from " << m.readFrom
       << "\n";
    if (!m.assumptions.empty())
      os << "  model: " << m.assumptions << "\n";
    os << "  latency model: " << t.latency.describe() << "\n";
    os << "  barriers:";
    for (const sim::BarrierGroup &g : m.barriers)
      os << " " << g.name << " x" << g.slots << " (init " << g.count << ")";
    os << "\n";
    for (size_t r = 0; r < t.lanes.size(); ++r)
      os << llvm::formatv("  role {0}: {1} k steps, waits {2:P0} of its time "
                          "({3} cycles)\n",
                          t.roleNames[r], m.roles[r].loopSteps(),
                          t.waitingShare[r], int64_t(t.waitingCycles[r]));
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
    for (const sim::BlockedWait &b : t.verdict.blocked) {
      os << "    " << (b.waiting ? "blocked: " : "stopped: ") << b.role
         << " at step " << b.step;
      if (!b.waiting)
        os << ", " << b.op;
      else
        os << llvm::formatv(", waiting on {0}[{1}] for parity {2}: {3} phases "
                            "completed, {4} arrivals and {5} bytes pending",
                            b.barrier, b.slot, b.expectedParity,
                            b.completedPhases, b.pendingArrivals,
                            b.pendingBytes);
      if (b.line)
        os << " (IR line " << b.line << ")";
      os << "\n";
    }
    for (const std::string &f : t.verdict.findings)
      os << "  why: " << f << "\n";
  }
  return deadlock ? kExitDeadlock : kExitSuccess;
}
