//===- CompileCommand.cpp - klx compile -----------------------------------===//

#include "CommandLine.h"

#include "klx/Pipeline/RunJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace klx;
using namespace klx::cli;

static std::string dumpFileName(size_t index, const Snapshot &snapshot,
                                size_t moduleCount) {
  std::string name = llvm::formatv("{0:2}-{1}", index, snapshot.displayName());
  std::replace(name.begin(), name.end(), '#', '-');
  std::replace(name.begin(), name.end(), ' ', '0');
  // Backend steps run once per gpu.module; name the module when there are
  // several so files do not overwrite each other.
  if (snapshot.kind != EmitKind::MLIR && moduleCount > 1)
    name += "." + snapshot.moduleName().str();
  llvm::StringRef ext = snapshot.kind == EmitKind::Cubin
                            ? llvm::StringRef("log")
                            : emitKindExtension(snapshot.kind);
  return name + "." + ext.str();
}

static bool writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << path << ": error: cannot write: " << ec.message() << "\n";
    return false;
  }
  os << contents;
  return true;
}

static bool dumpSnapshots(const PipelineRun &run, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << dir << ": error: cannot create the folder: " << ec.message()
                 << "\n";
    return false;
  }
  for (size_t i = 0; i < run.snapshots.size(); ++i) {
    const Snapshot &snapshot = run.snapshots[i];
    if (!snapshot.skippedReason.empty())
      continue;
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path,
                            dumpFileName(i, snapshot, run.artifacts.size()));
    if (!writeFile(path, snapshot.text))
      return false;
    if (snapshot.kind != EmitKind::Cubin)
      continue;
    for (const DeviceArtifacts &artifacts : run.artifacts) {
      if (artifacts.cubin.empty() ||
          snapshot.moduleName() != artifacts.moduleName)
        continue;
      path.resize(path.size() - strlen("log"));
      path += "cubin";
      if (!writeFile(path, artifacts.cubin))
        return false;
    }
  }
  return true;
}

/// The output of `kind` from the run: the text of the last step of that
/// kind, or the cubin bytes, of the gpu.module named `module` (or of the
/// whole module for MLIR).
static std::string collectOutput(const PipelineRun &run, EmitKind kind,
                                 llvm::StringRef stepName,
                                 llvm::StringRef module) {
  if (kind == EmitKind::Cubin) {
    for (const DeviceArtifacts &artifacts : run.artifacts)
      if (artifacts.moduleName == module)
        return artifacts.cubin;
    return "";
  }
  if (kind == EmitKind::MLIR) {
    for (auto it = run.snapshots.rbegin(); it != run.snapshots.rend(); ++it)
      if (it->kind == EmitKind::MLIR)
        return it->text;
    return "";
  }
  for (const Snapshot &snapshot : run.snapshots)
    if (snapshot.name == stepName && snapshot.moduleName() == module)
      return snapshot.text;
  return "";
}

/// "@a, @b".
static std::string moduleList(const PipelineRun &run) {
  std::string names;
  llvm::ListSeparator sep(", ");
  for (const DeviceArtifacts &artifacts : run.artifacts)
    names += (llvm::Twine(sep) + "@" + artifacts.moduleName).str();
  return names;
}

/// The gpu.modules whose output is written: the one --module names, else
/// every one. Empty after a message when --module names none of them.
static std::vector<std::string> chosenModules(const PipelineRun &run,
                                              const Arguments &args) {
  std::vector<std::string> names;
  std::optional<std::string> wanted = args.get("module");
  for (const DeviceArtifacts &artifacts : run.artifacts)
    if (!wanted || artifacts.moduleName == llvm::StringRef(*wanted).ltrim('@'))
      names.push_back(artifacts.moduleName);
  if (names.empty())
    llvm::errs() << "klx compile: no gpu.module named '" << *wanted
                 << "'; the file has " << moduleList(run) << "\n";
  return names;
}

/// `-o DIR/` (or an existing folder): one file per module.
static bool isFolderOutput(llvm::StringRef output) {
  return !output.empty() &&
         (output.ends_with("/") || llvm::sys::fs::is_directory(output));
}

/// Writes each module's output to DIR/NAME.EXT and says which files.
static bool writePerModule(const PipelineRun &run, EmitKind kind,
                           llvm::StringRef stepName,
                           llvm::ArrayRef<std::string> modules,
                           llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << dir << ": error: cannot create the folder: " << ec.message()
                 << "\n";
    return false;
  }
  for (const std::string &module : modules) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, module + "." + emitKindExtension(kind).str());
    if (!writeFile(path, collectOutput(run, kind, stepName, module)))
      return false;
    llvm::errs() << "klx compile: wrote " << path << "\n";
  }
  return true;
}

/// Writes the output of `kind` (made by `stepName`) where the arguments
/// say: standard output, -o FILE, -o DIR/ (one file per gpu.module) or
/// the JSON report.
static int writeOutput(const PipelineRun &run, const Arguments &args,
                       EmitKind kind, llvm::StringRef stepName) {
  bool json = args.has("json");
  // Backend output is per gpu.module; MLIR is one module whatever it holds.
  std::vector<std::string> modules = {""};
  if (kind != EmitKind::MLIR) {
    modules = chosenModules(run, args);
    if (modules.empty())
      return kExitUsageError;
    if (isFolderOutput(args.output))
      return writePerModule(run, kind, stepName, modules, args.output)
                 ? kExitSuccess
                 : kExitUsageError;
  }
  // JSON holds each module's text apart; one file or stream cannot.
  bool jsonOutputs = json && args.output.empty() && kind != EmitKind::Cubin;
  if (modules.size() > 1 && !jsonOutputs) {
    llvm::errs() << "klx compile: the file has " << modules.size()
                 << " gpu.modules (" << moduleList(run) << ") and their "
                 << emitKindName(kind)
                 << " cannot share one file or stream; choose one with "
                    "--module=NAME, or write one file per module with -o "
                    "DIR/\n";
    return kExitUsageError;
  }
  // Several modules reach here only for JSON, which collects each below.
  std::string output = modules.size() == 1
                           ? collectOutput(run, kind, stepName, modules.front())
                           : std::string();
  if (!args.output.empty()) {
    if (!writeFile(args.output, output))
      return kExitUsageError;
  } else if (kind == EmitKind::Cubin && !json &&
             llvm::sys::Process::StandardOutIsDisplayed()) {
    llvm::errs() << "klx compile: not writing a binary cubin to a terminal; "
                    "use -o FILE or redirect the output\n";
    return kExitUsageError;
  }
  if (!json) {
    if (args.output.empty())
      llvm::outs() << output;
    return kExitSuccess;
  }
  llvm::json::OStream j(llvm::outs(), 2);
  writeRunJson(j, run, [&](llvm::json::OStream &j) {
    j.attribute("emit", emitKindName(kind));
    if (!jsonOutputs)
      return;
    if (modules.size() == 1) {
      j.attribute("output", output);
      return;
    }
    j.attributeObject("outputs", [&] {
      for (const std::string &module : modules)
        j.attribute(module, collectOutput(run, kind, stepName, module));
    });
  });
  llvm::outs() << "\n";
  return kExitSuccess;
}

int cli::runCompile(const Arguments &args) {
  if (args.has("compare"))
    return runCompareCommand(args);
  static const llvm::StringRef ownFlags[] = {"emit", "stop-after", "dump-dir",
                                             "json", "module"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;

  std::optional<EmitKind> emit;
  if (std::optional<std::string> name = args.get("emit")) {
    emit = parseEmitKind(*name);
    if (!emit) {
      llvm::errs() << "klx compile: unknown --emit=" << *name
                   << " (mlir, llvm, ptx, cubin, sass, amdgcn)\n";
      return kExitUsageError;
    }
  }
  input->options.stopAfter = args.get("stop-after").value_or("");
  input->options.emitGoal = emit;
  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  // What is wrong with the file comes first, whatever was asked of it.
  printDiagnostics(run, llvm::errs());
  if (run.succeeded() && emit && !targetProduces(run.target, *emit)) {
    llvm::errs() << "klx compile: " << targetName(run.target) << " produces no "
                 << emitKindName(*emit) << "\n";
    return kExitUsageError;
  }
  if (std::optional<std::string> dir = args.get("dump-dir"))
    if (!dir->empty() && !dumpSnapshots(run, *dir))
      return kExitUsageError;
  if (!run.succeeded()) {
    if (args.has("json")) {
      llvm::json::OStream json(llvm::outs(), 2);
      writeRunJson(json, run);
      llvm::outs() << "\n";
    }
    return exitCodeFor(run);
  }

  // Which output: --emit's kind, else whatever the last step produced.
  const Snapshot &last = run.snapshots.back();
  EmitKind kind = emit.value_or(last.kind);
  llvm::StringRef stepName =
      emit ? producingStep(kind) : llvm::StringRef(last.name);
  bool reached = kind == EmitKind::MLIR ||
                 llvm::any_of(run.snapshots, [&](const Snapshot &s) {
                   return s.name == stepName;
                 });
  if (!reached) {
    llvm::errs() << "klx compile: --emit=" << emitKindName(kind)
                 << " needs the '" << stepName
                 << "' step, which comes after --stop-after="
                 << input->options.stopAfter << "\n";
    return kExitUsageError;
  }
  for (const Snapshot &snapshot : run.snapshots)
    if (snapshot.name == stepName && !snapshot.skippedReason.empty()) {
      llvm::errs() << "klx compile: no " << emitKindName(kind) << ": "
                   << snapshot.skippedReason << "\n";
      return kExitUsageError;
    }
  return writeOutput(run, args, kind, stepName);
}
