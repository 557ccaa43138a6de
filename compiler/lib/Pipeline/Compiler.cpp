//===- Compiler.cpp - Run the klx pipeline on a kernel source -------------===//
//
// Index:
//   [SECTION] Context and parsing
//   [SECTION] Schedule parameters (-D)
//   [SECTION] Step planning and --stop-after
//   [SECTION] Stopping and progress
//   [SECTION] runPipeline
//
//===----------------------------------------------------------------------===//

#include "klx/Pipeline/Compiler.h"

#include "llvm/Support/FormatVariadic.h"

#include "BackendSteps.h"
#include "TargetChoice.h"
#include "TransformSteps.h"
#include "klx/Dialect/Klx/IR/KlxDialect.h"
#include "klx/InitAll.h"
#include "klx/Pipeline/SnapshotRecorder.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>

using namespace klx;

namespace {
constexpr llvm::StringLiteral kParamsAttr = kParamsAttrName;

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

// [SECTION] Context and parsing ---------------------------------------------

std::unique_ptr<mlir::MLIRContext> klx::createContext() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  // The IR of every step is one click away; dumping the failing op into
  // each message only buries the message.
  context->printOpOnDiagnostic(false);
  context->printStackTraceOnDiagnostic(false);
  // Loaded up front: its printing aliases apply to IR that never names it.
  context->loadDialect<KlxDialect>();
  return context;
}

// [SECTION] Schedule parameters (-D) ----------------------------------------

static std::string declaredNames(mlir::DictionaryAttr params) {
  if (!params || params.empty())
    return "this kernel declares no parameters (a `klx.params` dictionary "
           "on the module)";
  std::string names = "this kernel declares: ";
  llvm::ListSeparator sep(", ");
  for (mlir::NamedAttribute entry : params) {
    names += sep;
    names += entry.getName().str();
  }
  return names;
}

/// Parses `value` as the same kind of attribute as `declared`.
static mlir::FailureOr<mlir::Attribute>
parseParamValue(mlir::Attribute declared, llvm::StringRef value) {
  mlir::MLIRContext *context = declared.getContext();
  if (auto boolAttr = llvm::dyn_cast<mlir::BoolAttr>(declared)) {
    if (value == "1" || value == "true")
      return mlir::Attribute(mlir::BoolAttr::get(context, true));
    if (value == "0" || value == "false")
      return mlir::Attribute(mlir::BoolAttr::get(context, false));
    return mlir::failure();
  }
  if (auto intAttr = llvm::dyn_cast<mlir::IntegerAttr>(declared)) {
    int64_t number;
    if (value.getAsInteger(0, number))
      return mlir::failure();
    return mlir::Attribute(mlir::IntegerAttr::get(intAttr.getType(), number));
  }
  if (auto floatAttr = llvm::dyn_cast<mlir::FloatAttr>(declared)) {
    double number;
    if (value.getAsDouble(number))
      return mlir::failure();
    return mlir::Attribute(mlir::FloatAttr::get(floatAttr.getType(), number));
  }
  if (llvm::isa<mlir::StringAttr>(declared))
    return mlir::Attribute(mlir::StringAttr::get(context, value));
  return mlir::failure();
}

static mlir::LogicalResult applyDefines(mlir::ModuleOp module,
                                        const CompileOptions &options,
                                        std::vector<Diag> &diags,
                                        llvm::StringRef fileName) {
  if (options.defines.empty())
    return mlir::success();
  auto params = module->getAttrOfType<mlir::DictionaryAttr>(kParamsAttr);
  mlir::NamedAttrList updated(params ? params.getValue()
                                     : llvm::ArrayRef<mlir::NamedAttribute>());
  bool ok = true;
  for (const auto &[name, value] : options.defines) {
    mlir::Attribute declared = updated.get(name);
    Diag diag;
    diag.loc.file = fileName.str();
    diag.step = "-D";
    if (!declared) {
      diag.message =
          "unknown parameter '" + name + "'; " + declaredNames(params);
      diags.push_back(diag);
      ok = false;
      continue;
    }
    mlir::FailureOr<mlir::Attribute> parsed = parseParamValue(declared, value);
    if (mlir::failed(parsed)) {
      std::string expected;
      llvm::raw_string_ostream os(expected);
      declared.print(os);
      diag.message = "parameter '" + name + "' cannot be '" + value +
                     "': it is declared as " + expected;
      diags.push_back(diag);
      ok = false;
      continue;
    }
    updated.set(name, *parsed);
  }
  if (!ok)
    return mlir::failure();
  module->setAttr(kParamsAttr, updated.getDictionary(module.getContext()));
  return mlir::success();
}

// [SECTION] Step planning and --stop-after ----------------------------------

LoweringOptions klx::loweringOptionsFor(const CompileOptions &options,
                                        Target target, bool klxKernels) {
  LoweringOptions lowering;
  lowering.target = target;
  lowering.klxKernels = klxKernels;
  lowering.ptxFeatures = options.ptxFeatures;
  lowering.optLevel = options.optLevel;
  lowering.lineInfo = options.lineInfo;
  lowering.instrument = options.instrument;
  return lowering;
}

static llvm::StringRef passNameOf(const PassStep &step) {
  return llvm::StringRef(step.pipeline).split('{').first;
}

bool klx::containsKlxOps(mlir::Operation *module) {
  return module
      ->walk([](mlir::Operation *op) {
        return llvm::isa<KlxDialect>(op->getDialect())
                   ? mlir::WalkResult::interrupt()
                   : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

std::vector<std::string>
klx::plannedStepNames(const LoweringOptions &lowering) {
  std::vector<std::string> names;
  llvm::StringMap<unsigned> seen;
  auto add = [&](llvm::StringRef name) {
    unsigned n = ++seen[name];
    names.push_back(n == 1 ? name.str() : (name + "#" + llvm::Twine(n)).str());
  };
  add(step::kParse);
  for (const std::string &step : lowering.transformSteps)
    add(step);
  for (const PassStep &step : loweringSteps(lowering))
    add(passNameOf(step));
  for (llvm::StringRef step : backendSteps(lowering.target))
    add(step);
  return names;
}

/// Index into plannedStepNames of the step to stop after; nullopt if
/// `stopAfter` names no step. "NAME" means its first occurrence.
static std::optional<size_t> findStopIndex(llvm::ArrayRef<std::string> names,
                                           llvm::StringRef stopAfter) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == stopAfter)
      return i;
  return std::nullopt;
}

// [SECTION] Stopping and progress ------------------------------------------

void StopRequest::request(std::string reason) {
  std::lock_guard<std::mutex> lock(mutex);
  if (flag.load(std::memory_order_relaxed))
    return;
  why = std::move(reason);
  flag.store(true, std::memory_order_release);
}

std::string StopRequest::reason() const {
  std::lock_guard<std::mutex> lock(mutex);
  return why;
}

bool klx::enterStep(const CompileOptions &options, size_t index, size_t count,
                    llvm::StringRef name, std::vector<Diag> &pending) {
  if (options.stop && options.stop->requested()) {
    Diag diag;
    diag.message = llvm::formatv("stopped before step {0} of {1} ({2}): {3}",
                                 index + 1, count, name, options.stop->reason())
                       .str();
    diag.step = name.str();
    pending.push_back(std::move(diag));
    return false;
  }
  if (options.onStep)
    options.onStep(index, count, name);
  return true;
}

// [SECTION] runPipeline -----------------------------------------------------

/// Runs the first `count` ops of the module's transform script as steps
/// 1..count of the plan, each recorded as a snapshot of the payload (the
/// schedule erased); returns the payload after the last, or null when one
/// failed (its diagnostics point at the script) or the run was stopped
/// (run.status says so). `textHash` follows the last snapshot's text.
static mlir::OwningOpRef<mlir::ModuleOp>
runTransformSteps(mlir::ModuleOp input, size_t count,
                  llvm::ArrayRef<std::string> names, size_t stopIndex,
                  const CompileOptions &options, PipelineRun &run,
                  DiagnosticCollector &collector, std::vector<Diag> &pending,
                  const SourceNames *sourceNames, uint64_t &textHash) {
  const std::vector<std::string> &ops = run.lowering.transformSteps;
  mlir::OwningOpRef<mlir::ModuleOp> payload;
  for (size_t i = 1; i <= count; ++i) {
    if (!enterStep(options, i, stopIndex + 1, names[i], pending)) {
      run.status = RunStatus::Stopped;
      return nullptr;
    }
    collector.setStep(names[i]);
    Snapshot snapshot;
    snapshot.name = ops[i - 1];
    snapshot.occurrence =
        unsigned(std::count(ops.begin(), ops.begin() + i, ops[i - 1]));
    snapshot.anchor = "builtin.module";
    auto start = std::chrono::steady_clock::now();
    payload = applyTransformPrefix(input, i);
    snapshot.wallMs = msSince(start);
    if (payload && options.recordSnapshots) {
      uint64_t hash = captureIR(payload->getOperation(), snapshot, false,
                                run.modelSize, sourceNames);
      snapshot.changed = hash != textHash;
      textHash = hash;
    }
    snapshot.failed = !payload;
    snapshot.diagnostics = std::move(pending);
    pending.clear();
    run.snapshots.push_back(std::move(snapshot));
    if (!payload)
      return nullptr;
  }
  return payload;
}

PipelineRun klx::failedRun(llvm::StringRef fileName, RunStatus status,
                           llvm::StringRef step, std::string message) {
  PipelineRun run;
  run.fileName = fileName.str();
  run.status = status;
  Snapshot snapshot;
  snapshot.name = step.str();
  snapshot.anchor = "builtin.module";
  snapshot.failed = true;
  Diag diag;
  diag.message = std::move(message);
  diag.step = step.str();
  snapshot.diagnostics.push_back(std::move(diag));
  run.snapshots.push_back(std::move(snapshot));
  return run;
}

PipelineRun klx::runPipeline(llvm::StringRef source, llvm::StringRef fileName,
                             const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  registerAllPasses();
  // Inputs that cannot be a kernel are said before anything parses them.
  std::string refusal = sourceSizeProblem(source.size());
  if (refusal.empty() && source.trim().empty())
    refusal = "the file is empty: nothing to compile";
  if (!refusal.empty()) {
    // A failed parse step, as a parse error would leave.
    PipelineRun refused = failedRun(fileName, RunStatus::InputError,
                                    step::kParse, std::move(refusal));
    refused.totalMs = msSince(start);
    return refused;
  }
  PipelineRun run;
  run.fileName = fileName.str();
  run.source = source.str();
  run.modelSize = options.modelSize;
  // A file that does not parse is still reported for the target asked for.
  run.target = options.target.value_or(Target::SM90a);

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  std::vector<Diag> pending;
  DiagnosticCollector collector(*context, pending);
  auto finish = [&](RunStatus status) {
    run.status = status;
    // Whatever no step claimed (parse, -D, target) belongs to the run.
    for (Diag &diag : pending)
      run.diagnostics.push_back(std::move(diag));
    pending.clear();
    run.totalMs = msSince(start);
    return std::move(run);
  };

  // Parse (and verify) as the first step. How many steps follow is known
  // once the module says its target.
  if (!enterStep(options, 0, 1, step::kParse, pending))
    return finish(RunStatus::Stopped);
  collector.setStep(step::kParse);
  Snapshot parse;
  parse.name = step::kParse.str();
  parse.anchor = "builtin.module";
  auto parseStart = std::chrono::steady_clock::now();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, fileName), llvm::SMLoc());
  mlir::ParserConfig config(context.get());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  parse.wallMs = msSince(parseStart);
  if (!module) {
    parse.failed = true;
    parse.diagnostics = std::move(pending);
    pending.clear();
    run.snapshots.push_back(std::move(parse));
    return finish(RunStatus::InputError);
  }
  if (mlir::failed(applyDefines(*module, options, pending, fileName)))
    return finish(RunStatus::EnvironmentError);
  bool hasKlxOps = containsKlxOps(module->getOperation());
  mlir::FailureOr<Target> target =
      chooseTarget(*module, options.target, hasKlxOps);
  if (mlir::failed(target))
    return finish(RunStatus::InputError);
  run.target = *target;

  run.lowering = loweringOptionsFor(options, run.target, hasKlxOps);
  // Pipeline switches that live among the module's klx.params.
  if (auto params =
          (*module)->getAttrOfType<mlir::DictionaryAttr>(kParamsAttr)) {
    if (auto scopes = params.getAs<mlir::BoolAttr>("alias_scopes"))
      run.lowering.ldsAliasScopes = scopes.getValue();
    if (auto arrays = params.getAs<mlir::BoolAttr>("const_reg_tensor"))
      run.lowering.constRegTensor = arrays.getValue();
    if (auto bridge = params.getAs<mlir::BoolAttr>("bridge_steps"))
      run.lowering.bridgeSteps = bridge.getValue();
  }
  run.lowering.transformSteps = transformStepNames(*module);
  std::vector<std::string> names = plannedStepNames(run.lowering);
  size_t stopIndex = names.size() - 1;
  if (!options.stopAfter.empty()) {
    std::optional<size_t> found = findStopIndex(names, options.stopAfter);
    if (!found) {
      Diag diag;
      diag.message = "no step named '" + options.stopAfter + "' for " +
                     targetName(run.target).str() +
                     "; steps are: " + llvm::join(names, ", ");
      pending.push_back(diag);
      return finish(RunStatus::EnvironmentError);
    }
    stopIndex = *found;
  }
  if (options.emitGoal) {
    size_t passCount = names.size() - backendSteps(run.target).size() - 1;
    size_t goal = passCount; // the last MLIR pass
    if (*options.emitGoal != EmitKind::MLIR)
      goal = findStopIndex(names, producingStep(*options.emitGoal))
                 .value_or(stopIndex);
    stopIndex = std::min(stopIndex, goal);
  }

  uint64_t inputTextHash = 0;
  SourceNames sourceNames(run.source, fileName);
  if (options.recordSnapshots)
    inputTextHash = captureIR(module->getOperation(), parse, true,
                              run.modelSize, &sourceNames);
  parse.changed = true;
  parse.diagnostics = std::move(pending);
  pending.clear();
  run.snapshots.push_back(std::move(parse));
  if (stopIndex == 0)
    return finish(RunStatus::Success);

  // The transform script: steps 1..transformCount of the plan.
  size_t transformCount =
      std::min(run.lowering.transformSteps.size(), stopIndex);
  if (transformCount > 0) {
    mlir::OwningOpRef<mlir::ModuleOp> transformed =
        runTransformSteps(*module, transformCount, names, stopIndex, options,
                          run, collector, pending, &sourceNames, inputTextHash);
    if (!transformed)
      return finish(run.status == RunStatus::Stopped ? RunStatus::Stopped
                                                     : RunStatus::InputError);
    module = std::move(transformed);
  }
  if (stopIndex <= transformCount)
    return finish(RunStatus::Success);

  // MLIR passes: the next steps of the plan, each in a pass manager of its
  // own so that a stop request is seen between any two.
  size_t firstPass = 1 + transformCount;
  std::vector<PassStep> steps = loweringSteps(run.lowering);
  size_t passCount = std::min(steps.size(), stopIndex - transformCount);
  SnapshotRecorder recorder(run, pending, collector, options.recordSnapshots,
                            module->getOperation(), inputTextHash,
                            options.maxSnapshotBytes, &sourceNames);
  for (size_t i = 0; i < passCount; ++i) {
    if (!enterStep(options, firstPass + i, stopIndex + 1, names[firstPass + i],
                   pending))
      return finish(RunStatus::Stopped);
    mlir::PassManager pm(context.get());
    std::string pipelineError;
    if (mlir::failed(addPassSteps(pm, steps[i], pipelineError))) {
      Diag diag;
      diag.message = "internal pipeline error: " + pipelineError;
      pending.push_back(diag);
      return finish(RunStatus::EnvironmentError);
    }
    recorder.forgetPassInstances();
    pm.addInstrumentation(
        std::make_unique<ForwardingInstrumentation>(recorder));
    if (mlir::failed(pm.run(*module)))
      return finish(RunStatus::InputError);
  }
  if (passCount == steps.size()) {
    llvm::Expected<std::vector<KernelLaunch>> launches =
        describeLaunches(*module);
    if (!launches) {
      Diag diag;
      diag.message = llvm::toString(launches.takeError());
      pending.push_back(diag);
      return finish(RunStatus::InputError);
    }
    run.launches = std::move(*launches);
  }
  size_t lastPass = transformCount + steps.size();
  if (stopIndex <= lastPass)
    return finish(RunStatus::Success);

  // Backend steps: the rest of the plan.
  size_t backendCount = stopIndex - lastPass;
  RunStatus status =
      runBackendSteps(*module, options, backendCount, lastPass + 1,
                      stopIndex + 1, run, collector, pending);
  return finish(status);
}
