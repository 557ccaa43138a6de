//===- RolesCommand.cpp - klx roles ---------------------------------------===//
//
// The warp-role tree after warp specialization: by default from the last
// step before nvgpu is lowered to nvvm (roles and named barriers), or from
// the step --pass names. Checks that fail are errors of the input (exit 1).
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Analysis/RoleTree/RoleTreeFormat.h"

using namespace klx;
using namespace klx::cli;

/// The step to read the roles from: the one named, else the last with a
/// tree; null (with a message) when there is none.
static const Snapshot *pickSnapshot(const PipelineRun &run,
                                    const std::optional<std::string> &pass,
                                    llvm::raw_ostream &errs) {
  if (pass) {
    const Snapshot *named = namedStep(run, *pass, "roles", errs);
    if (!named)
      return nullptr;
    if (named->facts.roles.empty())
      errs << "klx roles: no kernel at step '" << *pass
           << "' has roles klx can read: before klx-warp-specialize a tile "
              "program has none, and once scf is lowered to cf the branches "
              "are gone\n";
    return named->facts.roles.empty() ? nullptr : named;
  }
  // The last step before nvgpu is lowered to nvvm still names its barriers
  // (nvvm's take bare pointers); failing that, the last step with roles.
  if (int step = run.rolesStep(); step >= 0)
    return &run.snapshots[step];
  // A run that stopped before the roles existed has said why already.
  if (!run.succeeded())
    return nullptr;
  if (isAmd(run.target))
    errs << "klx roles: " << run.fileName << ": warp roles (warpgroups, "
         << "setmaxnreg) are NVIDIA's; " << targetName(run.target)
         << " kernels have none\n";
  else
    errs << "klx roles: " << run.fileName
         << ": no kernel with a known block size and structured control "
            "flow at any step (a gpu.func needs known_block_size, a "
            "gpu.launch constant block sizes)\n";
  return nullptr;
}

int cli::runRolesCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"json", "pass"};
  InputOrExit input = loadInput(args, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  // The roles live in the MLIR steps; the backend adds nothing to them.
  input->options.emitGoal = EmitKind::MLIR;
  PipelineRun run = runPipeline(input->source, input->fileName, input->options);
  printDiagnostics(run, llvm::errs());
  const Snapshot *snapshot = pickSnapshot(run, args.get("pass"), llvm::errs());
  // Nothing klx can read is exit 2, as in klx steps, timeline and verify;
  // 1 is for a failed role check.
  if (!snapshot)
    return run.succeeded() ? kExitUsageError : exitCodeFor(run);

  bool checksFailed = false;
  for (const RoleTree &tree : snapshot->facts.roles)
    checksFailed |= tree.hasErrors();
  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", run.fileName);
      json.attribute("step", snapshot->label(run.severalModules()));
      json.attributeArray("kernels", [&] {
        for (const RoleTree &tree : snapshot->facts.roles)
          writeRoleTreeJson(json, tree);
      });
    });
    llvm::outs() << "\n";
  } else {
    llvm::outs() << run.fileName << ": roles after "
                 << snapshot->label(run.severalModules()) << "\n";
    for (const RoleTree &tree : snapshot->facts.roles)
      printRoleTree(llvm::outs(), tree);
  }
  if (!run.succeeded())
    return exitCodeFor(run);
  return checksFailed ? kExitInputError : kExitSuccess;
}
