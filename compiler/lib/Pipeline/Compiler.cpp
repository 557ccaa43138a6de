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
#include "klx/Pipeline/Registration.h"
#include "klx/Pipeline/SnapshotRecorder.h"
#include "klx/Runtime/BundleFormat.h"
#include "klx/Support/SourceNesting.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <set>

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
  LoweringOptions lowering = options.lowering;
  lowering.target = target;
  lowering.klxKernels = klxKernels;
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

namespace {
/// What the phases of one run share: the options, the run being filled in,
/// the diagnostics no step has claimed yet, and the plan once it is known.
struct RunState {
  RunState(const CompileOptions &options, PipelineRun &run,
           DiagnosticCollector &collector, std::vector<Diag> &pending,
           llvm::StringRef fileName)
      : options(options), run(run), collector(collector), pending(pending),
        sourceNames(run.source, fileName) {}

  const CompileOptions &options;
  PipelineRun &run;
  DiagnosticCollector &collector;
  std::vector<Diag> &pending;
  SourceNames sourceNames;
  /// plannedStepNames of the run, and the index in it of the last step to
  /// run (--stop-after, or the step that produces what --emit asks for).
  std::vector<std::string> names;
  size_t stopIndex = 0;
  /// Hash of the last recorded snapshot's text: a step whose IR hashes the
  /// same did not change it.
  uint64_t textHash = 0;

  /// A problem of the run rather than of a step (-D, --stop-after, the
  /// pipeline itself), kept until finish() hands it to the run.
  void report(std::string message) {
    Diag diag;
    diag.message = std::move(message);
    pending.push_back(std::move(diag));
  }
  /// Takes the diagnostics no step claimed (they belong to the snapshot
  /// the caller is closing).
  std::vector<Diag> takePending() {
    std::vector<Diag> taken = std::move(pending);
    pending.clear();
    return taken;
  }
};
} // namespace

/// Step 0: parses and verifies the source. Null when it does not parse; the
/// failed parse snapshot is then in the run already.
static mlir::OwningOpRef<mlir::ModuleOp> parseSource(RunState &state,
                                                     mlir::MLIRContext &context,
                                                     llvm::StringRef fileName,
                                                     Snapshot &parse) {
  state.collector.setStep(step::kParse);
  parse.name = step::kParse.str();
  parse.anchor = "builtin.module";
  auto start = std::chrono::steady_clock::now();
  // Refused before the parser descends into it (SourceNesting.h).
  if (std::optional<ExcessNesting> deep = findExcessNesting(state.run.source)) {
    mlir::emitError(
        mlir::FileLineColLoc::get(&context, fileName, deep->line, deep->col),
        deep->message());
    parse.failed = true;
    parse.diagnostics = state.takePending();
    state.run.snapshots.push_back(std::move(parse));
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(state.run.source, fileName),
      llvm::SMLoc());
  mlir::ParserConfig config(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  parse.wallMs = msSince(start);
  if (!module) {
    parse.failed = true;
    parse.diagnostics = state.takePending();
    state.run.snapshots.push_back(std::move(parse));
  }
  return module;
}

/// Pipeline switches that live among the module's klx.params.
static void applyParamSwitches(mlir::ModuleOp module,
                               LoweringOptions &lowering) {
  auto params = module->getAttrOfType<mlir::DictionaryAttr>(kParamsAttr);
  if (!params)
    return;
  if (auto scopes = params.getAs<mlir::BoolAttr>("alias_scopes"))
    lowering.ldsAliasScopes = scopes.getValue();
  if (auto arrays = params.getAs<mlir::BoolAttr>("const_reg_tensor"))
    lowering.constRegTensor = arrays.getValue();
  if (auto bridge = params.getAs<mlir::BoolAttr>("bridge_steps"))
    lowering.bridgeSteps = bridge.getValue();
}

/// Settles what the parsed module runs: -D applied, the target, the
/// lowering options, the step names and where the run stops. Success, or
/// the status the run ends with.
static RunStatus planRun(RunState &state, mlir::ModuleOp module,
                         llvm::StringRef fileName) {
  const CompileOptions &options = state.options;
  PipelineRun &run = state.run;
  if (mlir::failed(applyDefines(module, options, state.pending, fileName)))
    return RunStatus::EnvironmentError;
  bool hasKlxOps = containsKlxOps(module.getOperation());
  mlir::FailureOr<Target> target =
      chooseTarget(module, options.target, hasKlxOps);
  if (mlir::failed(target))
    return RunStatus::InputError;
  run.target = *target;
  run.lowering = loweringOptionsFor(options, run.target, hasKlxOps);
  applyParamSwitches(module, run.lowering);
  run.lowering.transformSteps = transformStepNames(module);
  warnUnrunSchedules(module);

  state.names = plannedStepNames(run.lowering);
  state.stopIndex = state.names.size() - 1;
  if (!options.stopAfter.empty()) {
    std::optional<size_t> found = findStopIndex(state.names, options.stopAfter);
    if (!found) {
      state.report("no step named '" + options.stopAfter + "' for " +
                   targetName(run.target).str() +
                   "; steps are: " + llvm::join(state.names, ", "));
      return RunStatus::EnvironmentError;
    }
    state.stopIndex = *found;
  }
  if (options.emitGoal) {
    size_t passCount = state.names.size() - backendSteps(run.target).size() - 1;
    size_t goal = passCount; // the last MLIR pass
    if (*options.emitGoal != EmitKind::MLIR)
      goal = findStopIndex(state.names, producingStep(*options.emitGoal))
                 .value_or(state.stopIndex);
    state.stopIndex = std::min(state.stopIndex, goal);
  }
  return RunStatus::Success;
}

/// Runs the first `count` ops of the module's transform script as steps
/// 1..count of the plan, each recorded as a snapshot of the payload (the
/// schedule erased); returns the payload after the last, or null when one
/// failed (its diagnostics point at the script) or the run was stopped
/// (run.status says so).
static mlir::OwningOpRef<mlir::ModuleOp>
runTransformSteps(RunState &state, mlir::ModuleOp input, size_t count) {
  PipelineRun &run = state.run;
  const std::vector<std::string> &ops = run.lowering.transformSteps;
  mlir::OwningOpRef<mlir::ModuleOp> payload;
  for (size_t i = 1; i <= count; ++i) {
    if (!enterStep(state.options, i, state.stopIndex + 1, state.names[i],
                   state.pending)) {
      run.status = RunStatus::Stopped;
      return nullptr;
    }
    state.collector.setStep(state.names[i]);
    Snapshot snapshot;
    snapshot.name = ops[i - 1];
    snapshot.occurrence =
        unsigned(std::count(ops.begin(), ops.begin() + i, ops[i - 1]));
    snapshot.anchor = "builtin.module";
    auto start = std::chrono::steady_clock::now();
    payload = applyTransformPrefix(input, i);
    snapshot.wallMs = msSince(start);
    if (payload && state.options.recordSnapshots) {
      uint64_t hash = captureIR(payload->getOperation(), snapshot, false,
                                run.modelSize, &state.sourceNames);
      snapshot.changed = hash != state.textHash;
      state.textHash = hash;
    }
    snapshot.failed = !payload;
    snapshot.diagnostics = state.takePending();
    run.snapshots.push_back(std::move(snapshot));
    if (!payload)
      return nullptr;
  }
  return payload;
}

/// Runs MLIR passes `steps[0..count)` as plan steps firstIndex.., each in a
/// pass manager of its own so that a stop request is seen between any two;
/// after the last pass of the plan, reads the module's kernel launches.
static RunStatus runPassSteps(RunState &state, mlir::MLIRContext &context,
                              mlir::ModuleOp module,
                              llvm::ArrayRef<PassStep> steps, size_t count,
                              size_t firstIndex) {
  SnapshotRecorder recorder(state.run, state.pending, state.collector,
                            state.options.recordSnapshots,
                            module.getOperation(), state.textHash,
                            state.options.maxSnapshotBytes, &state.sourceNames);
  for (size_t i = 0; i < count; ++i) {
    if (!enterStep(state.options, firstIndex + i, state.stopIndex + 1,
                   state.names[firstIndex + i], state.pending))
      return RunStatus::Stopped;
    mlir::PassManager pm(&context);
    std::string pipelineError;
    if (mlir::failed(addPassSteps(pm, steps[i], pipelineError))) {
      state.report("internal pipeline error: " + pipelineError);
      return RunStatus::EnvironmentError;
    }
    recorder.forgetPassInstances();
    pm.addInstrumentation(
        std::make_unique<ForwardingInstrumentation>(recorder));
    if (mlir::failed(pm.run(module)))
      return RunStatus::InputError;
  }
  if (count < steps.size())
    return RunStatus::Success;
  llvm::Expected<std::vector<KernelLaunch>> launches = describeLaunches(module);
  if (!launches) {
    state.report(llvm::toString(launches.takeError()));
    return RunStatus::InputError;
  }
  state.run.launches = std::move(*launches);
  return RunStatus::Success;
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

/// Why `source` cannot be a kernel at all, said before anything parses it;
/// empty when it may be one.
static std::string refusalOf(llvm::StringRef source) {
  std::string refusal = sourceSizeProblem(source.size());
  if (refusal.empty() && source.trim().empty())
    refusal = "the file is empty: nothing to compile";
  return refusal;
}

PipelineRun klx::runPipeline(llvm::StringRef source, llvm::StringRef fileName,
                             const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  registerAllPasses();
  if (std::string refusal = refusalOf(source); !refusal.empty()) {
    // A failed parse step, as a parse error would leave.
    PipelineRun refused = failedRun(fileName, RunStatus::InputError,
                                    step::kParse, std::move(refusal));
    refused.totalMs = msSince(start);
    return refused;
  }
  PipelineRun run;
  run.fileName = fileName.str();
  run.source = source.str();
  run.defines = options.defines;
  run.modelSize = options.modelSize;
  // A file that does not parse is still reported for the target asked for.
  run.target = options.target.value_or(Target::SM90a);

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  std::vector<Diag> pending;
  DiagnosticCollector collector(*context, pending);
  RunState state(options, run, collector, pending, fileName);
  auto finish = [&](RunStatus status) {
    run.status = status;
    // Whatever no step claimed (parse, -D, target) belongs to the run.
    for (Diag &diag : state.takePending())
      run.diagnostics.push_back(std::move(diag));
    run.totalMs = msSince(start);
    return std::move(run);
  };

  // Step 0, parse; how many steps follow is known once the module says its
  // target.
  if (!enterStep(options, 0, 1, step::kParse, pending))
    return finish(RunStatus::Stopped);
  Snapshot parse;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseSource(state, *context, fileName, parse);
  if (!module)
    return finish(RunStatus::InputError);
  if (RunStatus planned = planRun(state, *module, fileName);
      planned != RunStatus::Success)
    return finish(planned);
  if (options.recordSnapshots)
    state.textHash = captureIR(module->getOperation(), parse, true,
                               run.modelSize, &state.sourceNames);
  parse.changed = true;
  parse.diagnostics = state.takePending();
  run.snapshots.push_back(std::move(parse));
  size_t stopIndex = state.stopIndex;
  if (stopIndex == 0)
    return finish(RunStatus::Success);

  // The transform script: steps 1..transformCount of the plan.
  size_t transformCount =
      std::min(run.lowering.transformSteps.size(), stopIndex);
  if (transformCount > 0) {
    mlir::OwningOpRef<mlir::ModuleOp> transformed =
        runTransformSteps(state, *module, transformCount);
    if (!transformed)
      return finish(run.status == RunStatus::Stopped ? RunStatus::Stopped
                                                     : RunStatus::InputError);
    module = std::move(transformed);
  }
  if (stopIndex <= transformCount)
    return finish(RunStatus::Success);

  // MLIR passes: the next steps of the plan.
  std::vector<PassStep> steps = loweringSteps(run.lowering);
  size_t passCount = std::min(steps.size(), stopIndex - transformCount);
  RunStatus passes = runPassSteps(state, *context, *module, steps, passCount,
                                  1 + transformCount);
  size_t lastPass = transformCount + steps.size();
  if (passes != RunStatus::Success || stopIndex <= lastPass)
    return finish(passes);

  // Backend steps: the rest of the plan.
  return finish(runBackendSteps(*module, options, stopIndex - lastPass,
                                lastPass + 1, stopIndex + 1, run, collector,
                                pending));
}

std::string klx::checkTraceCtas(llvm::StringRef ctas) {
  if (ctas == "all")
    return "";
  llvm::SmallVector<llvm::StringRef> ids;
  ctas.split(ids, ',');
  if (ids.size() > rt::kMaxTraceCtaList)
    return "lists " + std::to_string(ids.size()) +
           " CTAs; a list holds at "
           "most " +
           std::to_string(rt::kMaxTraceCtaList) + " (or use all, or a count)";
  std::set<uint64_t> listed;
  for (llvm::StringRef id : ids) {
    // No spaces: the text goes into klx-to-nvgpu's options as it is.
    uint64_t value = 0;
    if (id.getAsInteger(10, value))
      return "'" + id.str() +
             "' is not a CTA: give all, a count (4) or block ids (0,5,131)";
    if (ids.size() == 1 && (value == 0 || value > uint64_t(rt::kMaxTraceCtas)))
      return "records " + id.str() + " CTAs: give all, a count from 1 to " +
             std::to_string(rt::kMaxTraceCtas) + ", or block ids";
    // Each listed CTA has a buffer slot of its own; the kernel writes a
    // block into the last slot that names it, and the first would stay
    // empty.
    if (!listed.insert(value).second)
      return "lists CTA " + std::to_string(value) + " twice; name each once";
  }
  return "";
}
