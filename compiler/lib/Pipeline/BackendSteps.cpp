//===- BackendSteps.cpp - Steps after the MLIR passes ---------------------===//
//
// llvm-ir, llvm-opt, then ptx, cubin, sass (NVIDIA) or amdgcn (AMD), each
// run on every gpu.module and recorded as a snapshot per module, so the
// pass list treats them like passes.
//
//===----------------------------------------------------------------------===//

#include "BackendSteps.h"

#include "klx/Pipeline/SnapshotRecorder.h"
#include "klx/Support/ExternalTool.h"
#include "klx/Target/CudaTools.h"
#include "klx/Target/LLVMBackend.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"

#include <chrono>

using namespace klx;

namespace {

/// One gpu.module on its way through the backend.
struct DeviceModule {
  mlir::gpu::GPUModuleOp op;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> module;
  DeviceArtifacts *artifacts = nullptr;
};

/// Turns LLVM's report_fatal_error inside a backend step into a diagnostic
/// instead of the end of the process.
class FatalErrorCatcher {
public:
  FatalErrorCatcher() {
    llvm::install_fatal_error_handler(
        [](void *user, const char *reason, bool) {
          static_cast<FatalErrorCatcher *>(user)->message = reason;
        },
        this);
  }
  ~FatalErrorCatcher() { llvm::remove_fatal_error_handler(); }

  /// Runs `body`; returns false if LLVM crashed or reported a fatal error.
  bool run(llvm::function_ref<void()> body) {
    llvm::CrashRecoveryContext::Enable();
    llvm::CrashRecoveryContext recovery;
    return recovery.RunSafely(body);
  }

  std::string message;
};

unsigned countLLVMInstructions(const llvm::Module &module) {
  unsigned count = 0;
  for (const llvm::Function &function : module)
    count += function.getInstructionCount();
  return count;
}

class BackendRunner {
public:
  BackendRunner(const CompileOptions &options, PipelineRun &run,
                DiagnosticCollector &collector, std::vector<Diag> &pending)
      : options(options), run(run), collector(collector), pending(pending) {}

  RunStatus runStep(llvm::StringRef name, DeviceModule &device);
  RunStatus status = RunStatus::Success;

private:
  Snapshot &beginSnapshot(llvm::StringRef name, DeviceModule &device,
                          EmitKind kind);
  RunStatus fail(Snapshot &snapshot, std::string message, RunStatus status);

  RunStatus translate(Snapshot &snapshot, DeviceModule &device);
  RunStatus optimize(Snapshot &snapshot, DeviceModule &device);
  RunStatus emit(Snapshot &snapshot, DeviceModule &device, EmitKind kind);
  RunStatus assemble(Snapshot &snapshot, DeviceModule &device);
  RunStatus disassemble(Snapshot &snapshot, DeviceModule &device);

  const CompileOptions &options;
  PipelineRun &run;
  DiagnosticCollector &collector;
  std::vector<Diag> &pending;
  std::string ptxasPath;
};

} // namespace

Snapshot &BackendRunner::beginSnapshot(llvm::StringRef name,
                                       DeviceModule &device, EmitKind kind) {
  collector.setStep(name);
  Snapshot snapshot;
  snapshot.name = name.str();
  snapshot.anchor = describeAnchor(device.op);
  snapshot.kind = kind;
  snapshot.changed = true;
  run.snapshots.push_back(std::move(snapshot));
  return run.snapshots.back();
}

RunStatus BackendRunner::fail(Snapshot &snapshot, std::string message,
                              RunStatus failure) {
  Diag diag;
  diag.message = std::move(message);
  diag.step = snapshot.name;
  snapshot.diagnostics.push_back(std::move(diag));
  snapshot.failed = true;
  return failure;
}

RunStatus BackendRunner::translate(Snapshot &snapshot, DeviceModule &device) {
  device.context = std::make_unique<llvm::LLVMContext>();
  auto machine = createTargetMachine(run.target, run.lowering.ptxFeatures,
                                     run.lowering.optLevel);
  if (!machine)
    return fail(snapshot, llvm::toString(machine.takeError()),
                RunStatus::EnvironmentError);
  device.machine = std::move(*machine);
  auto module = translateGpuModule(device.op, *device.context, run.target,
                                   *device.machine);
  // Translation reports what it cannot handle on the op's location.
  snapshot.diagnostics = std::move(pending);
  pending.clear();
  if (!module)
    return fail(snapshot, llvm::toString(module.takeError()),
                RunStatus::InputError);
  device.module = std::move(*module);
  if (isNvidia(run.target) && needsLibdevice(*device.module)) {
    auto libdevice = findLibdevice(options.libdevicePath);
    if (!libdevice)
      return fail(snapshot, llvm::toString(libdevice.takeError()),
                  RunStatus::EnvironmentError);
    if (llvm::Error error = linkLibdevice(*device.module, *libdevice))
      return fail(snapshot, llvm::toString(std::move(error)),
                  RunStatus::EnvironmentError);
  }
  device.artifacts->llvmIR = printModule(*device.module);
  snapshot.text = device.artifacts->llvmIR;
  snapshot.opCount = countLLVMInstructions(*device.module);
  return RunStatus::Success;
}

RunStatus BackendRunner::optimize(Snapshot &snapshot, DeviceModule &device) {
  FatalErrorCatcher catcher;
  if (!catcher.run([&] {
        optimizeModule(*device.module, *device.machine, run.lowering.optLevel);
      }))
    return fail(snapshot, "LLVM optimisation failed: " + catcher.message,
                RunStatus::InputError);
  device.artifacts->optimizedLLVMIR = printModule(*device.module);
  snapshot.text = device.artifacts->optimizedLLVMIR;
  snapshot.opCount = countLLVMInstructions(*device.module);
  return RunStatus::Success;
}

RunStatus BackendRunner::emit(Snapshot &snapshot, DeviceModule &device,
                              EmitKind kind) {
  FatalErrorCatcher catcher;
  if (kind == EmitKind::AMDGCN && options.codeObject) {
    llvm::Expected<std::string> object = std::string();
    if (!catcher.run(
            [&] { object = emitObject(*device.module, *device.machine); })) {
      llvm::consumeError(object.takeError());
      return fail(snapshot, "the AMDGPU backend failed: " + catcher.message,
                  RunStatus::InputError);
    }
    if (!object)
      return fail(snapshot, llvm::toString(object.takeError()),
                  RunStatus::InputError);
    device.artifacts->amdgcnObject = std::move(*object);
  }
  llvm::Expected<std::string> assembly = std::string();
  if (!catcher.run(
          [&] { assembly = emitAssembly(*device.module, *device.machine); })) {
    llvm::consumeError(assembly.takeError());
    return fail(snapshot,
                "the " + emitKindName(kind).str() +
                    " backend failed: " + catcher.message,
                RunStatus::InputError);
  }
  if (!assembly)
    return fail(snapshot, llvm::toString(assembly.takeError()),
                RunStatus::InputError);
  InstructionCounts counts = countInstructions(kind, *assembly);
  snapshot.opCount = counts.total;
  snapshot.text = *assembly;
  device.artifacts->counts[kind] = std::move(counts);
  if (kind == EmitKind::PTX) {
    device.artifacts->ptx = std::move(*assembly);
  } else {
    device.artifacts->amdgcnMetadata = parseAmdgcnMetadata(*assembly);
    device.artifacts->amdgcn = std::move(*assembly);
  }
  return RunStatus::Success;
}

RunStatus BackendRunner::assemble(Snapshot &snapshot, DeviceModule &device) {
  if (ptxasPath.empty()) {
    auto found = findCudaTool("ptxas", options.ptxasPath);
    if (!found)
      return fail(snapshot, llvm::toString(found.takeError()),
                  RunStatus::EnvironmentError);
    ptxasPath = *found;
  }
  // A chip LLVM writes PTX for but this ptxas does not build (sm_70 for
  // CUDA 13): say which it builds rather than its option error.
  if (auto chips = ptxasChips(ptxasPath); !chips)
    llvm::consumeError(chips.takeError()); // ptxas itself will say more
  else if (!chips->builds(targetName(run.target)))
    return fail(snapshot, chips->cannotBuild(targetName(run.target)),
                RunStatus::EnvironmentError);
  auto result = assembleWithPtxas(ptxasPath, device.artifacts->ptx,
                                  targetName(run.target), run.lowering.optLevel,
                                  run.lowering.lineInfo);
  if (!result)
    return fail(snapshot, llvm::toString(result.takeError()),
                RunStatus::EnvironmentError);
  snapshot.text = result->log;
  device.artifacts->ptxasLog = result->log;
  for (const PtxasMessage &message : result->report.messages) {
    Diag diag;
    diag.severity = message.isError ? Severity::Error : Severity::Warning;
    diag.message = "ptxas: " + message.text;
    diag.step = snapshot.name;
    snapshot.diagnostics.push_back(std::move(diag));
  }
  device.artifacts->ptxas = std::move(result->report);
  if (result->exitCode != 0) {
    snapshot.failed = true;
    if (!hasErrors(snapshot.diagnostics))
      return fail(snapshot,
                  "ptxas failed with exit code " +
                      std::to_string(result->exitCode),
                  RunStatus::InputError);
    return RunStatus::InputError;
  }
  device.artifacts->cubin = std::move(result->cubin);
  snapshot.opCount = device.artifacts->cubin.size();
  return RunStatus::Success;
}

RunStatus BackendRunner::disassemble(Snapshot &snapshot, DeviceModule &device) {
  auto nvdisasm = findCudaTool("nvdisasm", options.nvdisasmPath);
  if (!nvdisasm) {
    // Not an error of the kernel: SASS is shown where nvdisasm exists.
    llvm::consumeError(nvdisasm.takeError());
    snapshot.skippedReason =
        options.nvdisasmPath.empty()
            ? "nvdisasm is not on PATH, in $CUDA_HOME/bin or in "
              "/usr/local/cuda/bin; SASS needs the CUDA toolkit's nvdisasm "
              "(the cubin is still built)"
            : "nvdisasm not found at '" + options.nvdisasmPath +
                  "' (--nvdisasm); the cubin is still built";
    snapshot.changed = false;
    device.artifacts->sassMissingReason = snapshot.skippedReason;
    return RunStatus::Success;
  }
  auto sass = disassembleWithNvdisasm(*nvdisasm, device.artifacts->cubin,
                                      run.lowering.lineInfo);
  if (!sass)
    return fail(snapshot, llvm::toString(sass.takeError()),
                RunStatus::EnvironmentError);
  InstructionCounts counts = countInstructions(EmitKind::SASS, *sass);
  snapshot.opCount = counts.total;
  snapshot.text = *sass;
  device.artifacts->counts[EmitKind::SASS] = std::move(counts);
  device.artifacts->sass = std::move(*sass);
  return RunStatus::Success;
}

RunStatus BackendRunner::runStep(llvm::StringRef name, DeviceModule &device) {
  auto start = std::chrono::steady_clock::now();
  EmitKind kind = name == step::kLLVMIR || name == step::kLLVMOpt
                      ? EmitKind::LLVM
                  : name == step::kPTX   ? EmitKind::PTX
                  : name == step::kCubin ? EmitKind::Cubin
                  : name == step::kSASS  ? EmitKind::SASS
                                         : EmitKind::AMDGCN;
  Snapshot &snapshot = beginSnapshot(name, device, kind);
  RunStatus result;
  if (name == step::kLLVMIR)
    result = translate(snapshot, device);
  else if (name == step::kLLVMOpt)
    result = optimize(snapshot, device);
  else if (name == step::kPTX || name == step::kAMDGCN)
    result = emit(snapshot, device, kind);
  else if (name == step::kCubin)
    result = assemble(snapshot, device);
  else
    result = disassemble(snapshot, device);
  // The snapshot reference stays valid: nothing above appends snapshots.
  snapshot.wallMs = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  if (!options.recordSnapshots)
    snapshot.text.clear();
  return result;
}

RunStatus klx::runBackendSteps(mlir::ModuleOp module,
                               const CompileOptions &options, size_t stepCount,
                               size_t firstIndex, size_t planCount,
                               PipelineRun &run, DiagnosticCollector &collector,
                               std::vector<Diag> &pending) {
  std::vector<DeviceModule> devices;
  module.walk([&](mlir::gpu::GPUModuleOp op) {
    devices.push_back({});
    devices.back().op = op;
  });
  if (devices.empty()) {
    Diag diag;
    diag.loc = toSourceLoc(module.getLoc());
    diag.message = "nothing to compile for the GPU: the module has no "
                   "gpu.module (write kernels in a gpu.module, or launch "
                   "them with gpu.launch from a host function)";
    diag.step = step::kLLVMIR.str();
    pending.push_back(diag);
    return RunStatus::InputError;
  }
  run.artifacts.resize(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    devices[i].artifacts = &run.artifacts[i];
    devices[i].artifacts->moduleName = devices[i].op.getName().str();
  }

  BackendRunner runner(options, run, collector, pending);
  llvm::ArrayRef<llvm::StringLiteral> steps =
      backendSteps(run.target).take_front(stepCount);
  for (auto [i, name] : llvm::enumerate(steps)) {
    if (!enterStep(options, firstIndex + i, planCount, name, pending))
      return RunStatus::Stopped;
    for (DeviceModule &device : devices) {
      RunStatus status = runner.runStep(name, device);
      if (status != RunStatus::Success)
        return status;
    }
  }
  return RunStatus::Success;
}
