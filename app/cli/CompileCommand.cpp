//===- CompileCommand.cpp - klx compile -----------------------------------===//

#include "CommandLine.h"

#include "klx/Pipeline/RunJson.h"

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
  if (snapshot.kind != EmitKind::MLIR && moduleCount > 1) {
    llvm::StringRef anchor = snapshot.anchor;
    name += "." + anchor.rsplit('@').second.str();
  }
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
          !llvm::StringRef(snapshot.anchor)
               .ends_with("@" + artifacts.moduleName))
        continue;
      path.resize(path.size() - strlen("log"));
      path += "cubin";
      if (!writeFile(path, artifacts.cubin))
        return false;
    }
  }
  return true;
}

/// The output of `kind` from the run: text of the last step of that kind on
/// each module, or the cubin bytes.
static std::string collectOutput(const PipelineRun &run, EmitKind kind,
                                 llvm::StringRef stepName) {
  std::string output;
  if (kind == EmitKind::Cubin) {
    for (const DeviceArtifacts &artifacts : run.artifacts)
      output += artifacts.cubin;
    return output;
  }
  if (kind == EmitKind::MLIR) {
    for (auto it = run.snapshots.rbegin(); it != run.snapshots.rend(); ++it)
      if (it->kind == EmitKind::MLIR)
        return it->text;
    return output;
  }
  for (const Snapshot &snapshot : run.snapshots)
    if (snapshot.name == stepName)
      output += snapshot.text;
  return output;
}

int cli::runCompile(const Arguments &args) {
  if (args.has("compare"))
    return runCompareCommand(args);
  static const llvm::StringRef ownFlags[] = {"emit", "stop-after", "dump-dir",
                                             "json"};
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
  std::string output = collectOutput(run, kind, stepName);

  if (!args.output.empty()) {
    if (!writeFile(args.output, output))
      return kExitUsageError;
  } else if (kind == EmitKind::Cubin && !args.has("json") &&
             llvm::sys::Process::StandardOutIsDisplayed()) {
    llvm::errs() << "klx compile: not writing a binary cubin to a terminal; "
                    "use -o FILE or redirect the output\n";
    return kExitUsageError;
  }

  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    writeRunJson(json, run, [&](llvm::json::OStream &j) {
      j.attribute("emit", emitKindName(kind));
      if (kind != EmitKind::Cubin && args.output.empty())
        j.attribute("output", output);
    });
    llvm::outs() << "\n";
  } else if (args.output.empty()) {
    llvm::outs() << output;
  }
  return kExitSuccess;
}
