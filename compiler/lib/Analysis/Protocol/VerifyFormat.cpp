//===- VerifyFormat.cpp - What klx verify prints --------------------------===//

#include "klx/Analysis/Protocol/VerifyFormat.h"

#include "llvm/Support/FormatVariadic.h"

using namespace klx;
using namespace klx::sim;

std::string sim::verdictLine(const ProtocolModel &model,
                             const Verification &v) {
  switch (v.result) {
  case Verification::Result::Verified:
    return "verified: no deadlock, protocol error or stage race for any "
           "timing, up to " +
           model.bound;
  case Verification::Result::Fails:
    return "FAILS for some timing: " + failureKindName(v.kind).str() + ": " +
           v.summary;
  case Verification::Result::Unknown:
    return "unknown: " + v.unknownWhy;
  }
  return "";
}

void sim::printVerification(llvm::raw_ostream &os, const ProtocolModel &model,
                            const Verification &v) {
  if (!model.assumptions.empty())
    os << "  model: " << model.assumptions << "\n";
  os << "  bound: " << model.bound << "; barriers:";
  for (const BarrierGroup &g : model.barriers)
    os << " " << g.name << " x" << g.slots << " (init " << g.count << ")";
  os << "\n";
  os << "  " << verdictLine(model, v) << "\n";
  if (v.fails()) {
    os << llvm::formatv("  counterexample, {0} moves (IR lines of the step "
                        "above):\n",
                        v.counterexample.size());
    size_t width = 4;
    for (const std::string &name : v.trace.roleNames)
      width = std::max(width, name.size());
    for (auto [i, step] : llvm::enumerate(v.counterexample)) {
      std::string who =
          step.role >= 0 && step.role < int(v.trace.roleNames.size())
              ? v.trace.roleNames[step.role]
              : std::string("?");
      if (step.landing)
        who = "(copy)";
      who.resize(std::max(who.size(), width), ' ');
      os << llvm::formatv("    {0,4}  {1}  {2}", i + 1, who, step.what);
      if (step.landing)
        os << " (issued by " << v.trace.roleNames[step.role] << ")";
      if (step.step >= 0 && !step.landing)
        os << ", k step " << step.step;
      if (step.line)
        os << "  (IR line " << step.line << ")";
      os << "\n";
    }
    for (const BlockedWait &b : v.trace.verdict.blocked) {
      os << "    then " << b.role << " is stuck at " << b.op;
      if (b.waiting)
        os << llvm::formatv(" on {0}[{1}] for parity {2}", b.barrier, b.slot,
                            b.expectedParity);
      if (b.line)
        os << " (IR line " << b.line << ")";
      os << "\n";
    }
  }
  os << llvm::formatv("  explored {0} states ({1} moves) in {2:f2} s\n",
                      v.states, v.transitions, v.seconds);
  if (!v.racesUnchecked.empty())
    os << "  stage races not fully checked: " << v.racesUnchecked << "\n";
  for (const std::string &left : verifyLeavesOut(model))
    os << "  leaves out: " << left << "\n";
}

void sim::writeVerificationJson(llvm::json::OStream &json,
                                const ProtocolModel &model,
                                const Verification &v) {
  json.attribute("kernel", model.kernel);
  json.attribute("read_from", model.readFrom);
  if (!model.assumptions.empty())
    json.attribute("assumptions", model.assumptions);
  json.attribute("bound", model.bound);
  json.attribute("result", v.verified() ? "verified"
                           : v.fails()  ? "fails"
                                        : "unknown");
  json.attribute("verdict", verdictLine(model, v));
  if (v.fails()) {
    json.attribute("kind", failureKindName(v.kind));
    json.attribute("summary", v.summary);
    json.attributeArray("counterexample", [&] {
      for (const CounterStep &step : v.counterexample)
        json.object([&] {
          json.attribute("role",
                         step.role >= 0 &&
                                 step.role < int(v.trace.roleNames.size())
                             ? v.trace.roleNames[step.role]
                             : std::string());
          json.attribute("landing", step.landing);
          json.attribute("what", step.what);
          json.attribute("step", step.step);
          json.attribute("line", step.line);
        });
    });
  }
  if (!v.unknownWhy.empty())
    json.attribute("unknown_why", v.unknownWhy);
  json.attribute("states", v.states);
  json.attribute("moves", v.transitions);
  json.attribute("seconds", v.seconds);
  if (!v.racesUnchecked.empty())
    json.attribute("races_unchecked", v.racesUnchecked);
  json.attributeArray("leaves_out", [&] {
    for (const std::string &left : verifyLeavesOut(model))
      json.value(left);
  });
}
