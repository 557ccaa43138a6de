//===- StepsCommand.cpp - klx steps ---------------------------------------===//
//
// Each kernel body as ordered load -> compute -> store steps (Steps.h), at
// the last step where its loads and stores are still memref ops, or at
// the step --pass names. Values that cross from one step to a later one
// in registers are listed: klx-bridge-steps (-D bridge_steps=1) puts them
// through shared memory.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace klx;
using namespace klx::cli;

namespace {

void printText(llvm::raw_ostream &os, const KernelSteps &kernel,
               const SnapshotLines &ir) {
  os << llvm::formatv("kernel {0}: {1} step{2}\n", kernel.kernel,
                      kernel.steps.size(), kernel.steps.size() == 1 ? "" : "s");
  for (size_t s = 0; s < kernel.steps.size(); ++s) {
    const Step &step = kernel.steps[s];
    os << llvm::formatv("  step {0}: {1}\n", s + 1, step.shape());
    if (!step.why.empty())
      os << "    why a new step: " << step.why << "\n";
    for (auto [first, count] : step.runs()) {
      const StepOp &op = step.ops[first];
      if (count == 1) {
        unsigned source = ir.sourceLine(op.line);
        os << llvm::formatv(
            "    {0,-15} line {1,-4} {2}{3}\n", stepRoleName(op.role), op.line,
            ir.text(op.line),
            source ? llvm::formatv("   (source line {0})", source).str() : "");
      } else {
        os << llvm::formatv(
            "    {0,-15} lines {1}-{2}: {3}\n", stepRoleName(op.role), op.line,
            step.ops[first + count - 1].line, step.runLabel(first, count));
      }
    }
  }
  for (const StepCrossing &c : kernel.crossings)
    os << llvm::formatv("  crossing: {0} at line {1} is made in step {2} and "
                        "used in step {3}, in registers\n",
                        c.op, c.line, c.from + 1, c.to + 1);
}

void writeJson(llvm::json::OStream &json, const KernelSteps &kernel,
               const SnapshotLines &ir) {
  json.object([&] {
    json.attribute("kernel", kernel.kernel);
    json.attribute("line", kernel.line);
    json.attributeArray("steps", [&] {
      for (size_t s = 0; s < kernel.steps.size(); ++s) {
        const Step &step = kernel.steps[s];
        json.object([&] {
          json.attribute("step", int64_t(s + 1));
          json.attribute("shape", step.shape());
          if (!step.why.empty())
            json.attribute("why", step.why);
          json.attributeArray("ops", [&] {
            for (const StepOp &op : step.ops)
              json.object([&] {
                json.attribute("role", stepRoleName(op.role));
                json.attribute("op", op.op);
                json.attribute("line", op.line);
                if (unsigned src = ir.sourceLine(op.line))
                  json.attribute("source_line", src);
                json.attribute("text", ir.text(op.line));
              });
          });
        });
      }
    });
    json.attributeArray("crossings", [&] {
      for (const StepCrossing &c : kernel.crossings)
        json.object([&] {
          json.attribute("op", c.op);
          json.attribute("line", c.line);
          json.attribute("from", int64_t(c.from + 1));
          json.attribute("to", int64_t(c.to + 1));
        });
    });
  });
}

} // namespace

int cli::runStepsCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"json", "pass"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  input->options.emitGoal = EmitKind::MLIR;
  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  printDiagnostics(run, llvm::errs());
  const Snapshot *snapshot = nullptr;
  if (std::optional<std::string> pass = args.get("pass")) {
    snapshot = namedStep(run, *pass, "steps", llvm::errs());
    if (!snapshot)
      return run.succeeded() ? kExitUsageError : exitCodeFor(run);
  } else if (int index = run.stepsStep(); index >= 0) {
    snapshot = &run.snapshots[index];
  }
  if (!snapshot || snapshot->facts.steps.empty()) {
    if (run.succeeded())
      llvm::errs() << "klx steps: " << run.fileName
                   << ": no kernel body to read at "
                   << (snapshot
                           ? "step '" + snapshot->label(run.severalModules()) +
                                 "'"
                           : std::string("any step"))
                   << " (kernels are read as gpu.func, gpu.launch, "
                      "klx.kernel or an LLVM kernel function)\n";
    // Nothing klx can read: exit 2, as in klx roles, timeline and verify.
    return run.succeeded() ? kExitUsageError : exitCodeFor(run);
  }
  SnapshotLines ir(*snapshot);
  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", run.fileName);
      json.attribute("step", snapshot->label(run.severalModules()));
      json.attributeArray("kernels", [&] {
        for (const KernelSteps &kernel : snapshot->facts.steps)
          writeJson(json, kernel, ir);
      });
    });
    llvm::outs() << "\n";
  } else {
    llvm::outs() << run.fileName << ": steps after "
                 << snapshot->label(run.severalModules()) << "\n";
    for (const KernelSteps &kernel : snapshot->facts.steps)
      printText(llvm::outs(), kernel, ir);
  }
  return run.succeeded() ? kExitSuccess : exitCodeFor(run);
}
