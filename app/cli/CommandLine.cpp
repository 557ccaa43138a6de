//===- CommandLine.cpp - The klx subcommands and their arguments ----------===//

#include "CommandLine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace klx;
using namespace klx::cli;

namespace {
constexpr llvm::StringLiteral kUsage =
    "usage:\n"
    "  klx [FILE] [--pass=NAME] [--role=NAME] [--timeline-at=STEP] "
    "[--counterexample] "
    "[--run=MxNxK]\n"
    "      [--open-trace=FILE [--measured-cta=N]] "
    "[--screenshot=OUT.png --frames=N]\n"
    "  klx compile FILE [--target=sm_90a|gfx942|gfx950]\n"
    "                   [--emit=mlir|llvm|ptx|cubin|sass|amdgcn]\n"
    "                   [--stop-after=PASS] [--dump-dir=DIR] [--json]\n"
    "                   [-D NAME=VALUE ...] [-o FILE]\n"
    "  klx compile FILE --compare VARIANT [VARIANT] [--json] [--pass=STEP]\n"
    "                   [--tiles=T] [--k-steps=N]\n"
    "                   (VARIANT: NAME=VALUE[,NAME=VALUE...] or a file)\n"
    "  klx pipeline FILE [--target=...] [--json] [--print-pass-pipeline]\n"
    "  klx roles FILE [--json] [--pass=NAME] [-D NAME=VALUE ...]\n"
    "  klx steps FILE [--json] [--pass=NAME] [-D NAME=VALUE ...]\n"
    "  klx timeline FILE [--json] [--trace=OUT.json] [--latency=tma=N,...]\n"
    "                    [--k-steps=N] [--tiles=T] [-D NAME=VALUE ...]\n"
    "  klx verify FILE [--k-steps=N] [--tiles=T] [--json] [--trace=OUT.json]\n"
    "                  [--max-states=N] [-D NAME=VALUE ...]\n"
    "  klx export FILE -o DIR [--size=MxNxK] [--trace "
    "[--trace-ctas=all|N|LIST]]\n"
    "             [-D NAME=VALUE ...]\n"
    "  klx sweep FILE -D NAME=V1,V2,... [-D ...] [--size=MxNxK ...] [-o DIR]\n"
    "                 [--gpus=all|LIST] [--procs=N] [--repeat=N] [--jobs=N]\n"
    "                 [--json|--csv=OUT] [--resume]\n"
    "  klx sweep FILE --ladder=\"NAME: A=1,B=2\" [--ladder=...] [-D A=1 ...]\n"
    "                 (each rung adds its values to the one before)\n"
    "common: --ptxas=PATH --nvdisasm=PATH (default: PATH, $CUDA_HOME/bin,\n"
    "        /usr/local/cuda/bin), --timeout=SECONDS (default 300: a compile\n"
    "        that runs longer is stopped, exit 3)\n";
} // namespace

bool Arguments::has(llvm::StringRef name) const {
  return get(name).has_value();
}

std::optional<std::string> Arguments::get(llvm::StringRef name) const {
  for (auto it = flags.rbegin(); it != flags.rend(); ++it)
    if (it->first == name)
      return it->second;
  return std::nullopt;
}

bool cli::isSubcommand(llvm::StringRef word) {
  return word == "compile" || word == "pipeline" || word == "roles" ||
         word == "export" || word == "timeline" || word == "steps" ||
         word == "verify" || word == "sweep" || word == "help" ||
         word == "--help" || word == "-h";
}

static bool splitDefine(llvm::StringRef text, Arguments &args,
                        llvm::raw_ostream &errs) {
  auto [name, value] = text.split('=');
  if (name.empty() || !text.contains('=')) {
    errs << "klx: -D expects NAME=VALUE, got '" << text << "'\n";
    return false;
  }
  args.defines.emplace_back(name.str(), value.str());
  return true;
}

std::optional<Arguments> cli::parseArguments(int argc, char **argv,
                                             llvm::raw_ostream &errs) {
  Arguments args;
  args.command = argc > 1 ? argv[1] : "";
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-D" || arg == "-o") {
      if (i + 1 >= argc) {
        errs << "klx: " << arg << " needs a value\n";
        return std::nullopt;
      }
      llvm::StringRef value = argv[++i];
      if (arg == "-o")
        args.output = value.str();
      else if (!splitDefine(value, args, errs))
        return std::nullopt;
      continue;
    }
    if (arg.starts_with("-D")) {
      if (!splitDefine(arg.drop_front(2), args, errs))
        return std::nullopt;
      continue;
    }
    if (arg.starts_with("--")) {
      auto [name, value] = arg.drop_front(2).split('=');
      args.flags.emplace_back(name.str(), value.str());
      continue;
    }
    if (arg.starts_with("-") && arg != "-") {
      errs << "klx: unknown option '" << arg << "'\n" << kUsage;
      return std::nullopt;
    }
    args.positional.push_back(arg.str());
  }
  return args;
}

/// Bumped by disarmCompileTimeout: a watchdog armed before it sees a
/// newer value when it wakes, and lets the process be.
static std::atomic<unsigned> timeoutGeneration{0};

void cli::armCompileTimeout(double seconds) {
  unsigned generation = timeoutGeneration.load();
  std::thread([seconds, generation] {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    if (timeoutGeneration.load() != generation)
      return;
    llvm::errs() << llvm::format("klx: the compile did not finish within %g "
                                 "s (--timeout); stopped\n",
                                 seconds);
    llvm::errs().flush();
    std::_Exit(kExitDeadlock);
  }).detach();
}

void cli::disarmCompileTimeout() { ++timeoutGeneration; }

cli::InputOrExit cli::loadInput(const Arguments &args,
                                llvm::ArrayRef<llvm::StringRef> ownFlags,
                                llvm::raw_ostream &errs, double timeoutScale) {
  static const llvm::StringLiteral common[] = {"target", "ptxas", "nvdisasm",
                                               "timeout"};
  for (const auto &[name, value] : args.flags) {
    if (!llvm::is_contained(common, name) &&
        !llvm::is_contained(ownFlags, name)) {
      errs << "klx " << args.command << ": unknown option '--" << name << "'\n"
           << kUsage;
      return {};
    }
  }
  if (args.positional.size() != 1) {
    errs << "klx " << args.command << ": expected one FILE, got "
         << args.positional.size() << "\n"
         << kUsage;
    return {};
  }
  // A compile that does not end (a pass in a loop) is stopped, not waited
  // on: the process says so and ends with exit 3, as a hang does.
  double timeout = kDefaultCompileSeconds;
  if (std::optional<std::string> text = args.get("timeout"))
    if (llvm::StringRef(*text).getAsDouble(timeout) || timeout <= 0) {
      errs << "klx " << args.command << ": --timeout expects seconds, got '"
           << *text << "'\n";
      return {};
    }
  armCompileTimeout(timeout * timeoutScale);

  LoadedInput input;
  input.fileName = args.positional.front();
  llvm::Expected<std::string> text =
      readSourceFile(input.fileName, StreamInput::Read);
  if (!text) {
    InputOrExit refused;
    llvm::handleAllErrors(
        text.takeError(), [&](const llvm::ErrorInfoBase &error) {
          bool tooLarge =
              error.convertToErrorCode() == std::errc::file_too_large;
          errs << input.fileName
               << ": error: " << (tooLarge ? "" : "cannot read the file: ")
               << error.message() << "\n";
          refused.exitCode = tooLarge ? kExitInputError : kExitUsageError;
        });
    return refused;
  }
  input.source = std::move(*text);
  if (std::optional<std::string> target = args.get("target")) {
    input.options.target = parseTarget(*target);
    if (!input.options.target) {
      errs << "klx: unknown target '" << *target
           << "' (a chip LLVM's NVPTX or AMDGPU backend knows: sm_90a, "
              "sm_80, gfx942, gfx950, ...)\n";
      return {};
    }
  }
  input.options.defines = args.defines;
  input.options.ptxasPath = args.get("ptxas").value_or("");
  input.options.nvdisasmPath = args.get("nvdisasm").value_or("");
  return {std::move(input)};
}

void cli::printDiagnostics(const PipelineRun &run, llvm::raw_ostream &os) {
  for (const Diag &diag : run.allDiagnostics()) {
    Diag shown = diag;
    // Errors that know no file still say which file was being compiled.
    if (shown.loc.file.empty())
      shown.loc.file = run.fileName;
    printDiag(os, shown);
  }
}

const Snapshot *cli::namedStep(const PipelineRun &run, llvm::StringRef name,
                               llvm::StringRef who, llvm::raw_ostream &errs) {
  int found = run.findStep(name);
  const Snapshot *step = found >= 0 ? &run.snapshots[found] : nullptr;
  if (!step)
    errs << "klx " << who << ": no step named '" << name
         << "' ran (see `klx pipeline " << run.fileName << "`)\n";
  return step;
}

int cli::exitCodeFor(const PipelineRun &run) {
  switch (run.status) {
  case RunStatus::Success:
    return kExitSuccess;
  case RunStatus::InputError:
    return kExitInputError;
  case RunStatus::EnvironmentError:
    return kExitUsageError;
  case RunStatus::Stopped: // as a compile past its --timeout
    return kExitDeadlock;
  }
  return kExitInputError;
}

/// The step with protocol models, or null after saying why there is none.
static const Snapshot *protocolStep(const PipelineRun &run, llvm::StringRef who,
                                    llvm::raw_ostream &errs, int &exitCode) {
  int step = run.timelineStep();
  if (step >= 0)
    return &run.snapshots[step];
  exitCode = run.succeeded() ? int(kExitUsageError) : exitCodeFor(run);
  if (!run.succeeded())
    return nullptr;
  for (const Snapshot &s : run.snapshots)
    for (const std::string &note : s.facts.protocolNotes) {
      errs << "klx " << who << ": " << run.fileName << ": " << note << "\n";
      return nullptr;
    }
  errs << "klx " << who << ": " << run.fileName
       << ": no kernel with a barrier protocol at any step (it is read from "
          "a warp-specialized klx kernel from klx-circular-buffer on, or "
          "from nvgpu or nvvm mbarrier ops before convert-nvgpu-to-nvvm)\n";
  return nullptr;
}

bool cli::readPositive(const Arguments &args, llvm::StringRef name,
                       llvm::StringRef who, int64_t &value,
                       llvm::raw_ostream &errs) {
  std::optional<std::string> text = args.get(name);
  if (!text)
    return true;
  int64_t parsed = 0;
  if (llvm::StringRef(*text).getAsInteger(10, parsed) || parsed <= 0) {
    errs << "klx " << who << ": --" << name << "=" << *text
         << ": expects a positive integer\n";
    return false;
  }
  value = parsed;
  return true;
}

bool cli::readModelSize(const Arguments &args, llvm::StringRef who,
                        ModelSize &size, llvm::raw_ostream &errs) {
  // Past these the models unroll into more ops than a search can cover.
  constexpr int64_t kMaxTiles = 64, kMaxSteps = 256;
  if (!readPositive(args, "tiles", who, size.tiles, errs) ||
      !readPositive(args, "k-steps", who, size.kSteps, errs))
    return false;
  if (size.tiles > kMaxTiles || size.kSteps > kMaxSteps) {
    errs << "klx " << who << ": the bound is at most " << kMaxTiles
         << " tiles and " << kMaxSteps << " k steps\n";
    return false;
  }
  return true;
}

cli::ProtocolRun cli::runForProtocols(const Arguments &args, LoadedInput &input,
                                      llvm::StringRef who) {
  ProtocolRun result;
  if (!readModelSize(args, who, input.options.modelSize, llvm::errs())) {
    result.exitCode = kExitUsageError;
    return result;
  }
  input.options.emitGoal = EmitKind::MLIR;
  result.run = runPipeline(input.source, input.fileName, input.options);
  printDiagnostics(result.run, llvm::errs());
  result.snapshot =
      protocolStep(result.run, who, llvm::errs(), result.exitCode);
  return result;
}

bool cli::writeTraceFile(const std::string &path, llvm::StringRef who,
                         llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "klx " << who << ": " << path
                 << ": cannot write: " << ec.message() << "\n";
    return false;
  }
  write(os);
  return true;
}

int cli::runSubcommand(int argc, char **argv) {
  std::optional<Arguments> args = parseArguments(argc, argv, llvm::errs());
  if (!args)
    return kExitUsageError;
  if (args->command == "compile")
    return runCompile(*args);
  if (args->command == "pipeline")
    return runPipelineCommand(*args);
  if (args->command == "roles")
    return runRolesCommand(*args);
  if (args->command == "export")
    return runExportCommand(*args);
  if (args->command == "steps")
    return runStepsCommand(*args);
  if (args->command == "timeline")
    return runTimelineCommand(*args);
  if (args->command == "verify")
    return runVerifyCommand(*args);
  if (args->command == "sweep")
    return runSweepCommand(*args);
  llvm::outs() << kUsage;
  return args->command == "help" || args->command == "--help" ||
                 args->command == "-h"
             ? kExitSuccess
             : kExitUsageError;
}
