//===- CommandLine.h - The klx subcommands and their arguments --*- C++ -*-===//
//
// The spellings are fixed by the command-line contract (docs/cli.md); tests
// and docs rely on them. Exit codes: 0 success, 1 the input is wrong, 2
// usage or environment, 3 a deadlock or hang was found.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CLI_COMMANDLINE_H
#define KLX_APP_CLI_COMMANDLINE_H

#include "klx/Pipeline/Compiler.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace klx::cli {

enum ExitCode {
  kExitSuccess = 0,
  kExitInputError = 1,
  kExitUsageError = 2,
  kExitDeadlock = 3,
};

/// Arguments shared by the subcommands; each one reads what it needs and
/// rejects flags that are not its own.
struct Arguments {
  std::string command;
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> flags; // --name=value
  std::vector<std::pair<std::string, std::string>> defines;
  std::string output; // -o

  bool has(llvm::StringRef name) const;
  std::optional<std::string> get(llvm::StringRef name) const;
};

/// Splits argv after the subcommand. Fails with a message on stray input.
std::optional<Arguments> parseArguments(int argc, char **argv,
                                        llvm::raw_ostream &errs);

/// True if argv[1] names a subcommand (compile, pipeline, ...).
bool isSubcommand(llvm::StringRef word);

/// Runs a subcommand and returns its exit code.
int runSubcommand(int argc, char **argv);

/// Reads FILE and the options every compiling subcommand takes (--target,
/// -D, --ptxas, --nvdisasm). Prints the problem and returns nullopt on a
/// usage error.
struct LoadedInput {
  std::string fileName;
  std::string source;
  CompileOptions options;
};
/// The input, or (after a message) the exit code that says why not: 1
/// for a source klx refuses, 2 for a path or option that is wrong.
struct InputOrExit {
  std::optional<LoadedInput> input;
  int exitCode = kExitUsageError;
  explicit operator bool() const { return input.has_value(); }
  LoadedInput &operator*() { return *input; }
  LoadedInput *operator->() { return &*input; }
};
/// Arms the --timeout watchdog for `timeoutScale` x --timeout seconds
/// (a sweep compiles many variants under one).
InputOrExit loadInput(const Arguments &args,
                      llvm::ArrayRef<llvm::StringRef> ownFlags,
                      llvm::raw_ostream &errs, double timeoutScale = 1);

/// The compile watchdog: past `seconds` the process says the compile did
/// not finish and ends with exit 3. Disarming stops every watchdog armed
/// so far (what follows a compile, a GPU run, is bounded elsewhere).
void armCompileTimeout(double seconds);
void disarmCompileTimeout();

/// Prints every diagnostic of the run as file:line:col: severity: message.
void printDiagnostics(const PipelineRun &run, llvm::raw_ostream &os);

/// The step of `run` named `name` ("canonicalize#2"), or null after
/// saying "klx WHO: no step named 'NAME' ran (see `klx pipeline FILE`)".
const Snapshot *namedStep(const PipelineRun &run, llvm::StringRef name,
                          llvm::StringRef who, llvm::raw_ostream &errs);

/// Exit code for a finished run.
int exitCodeFor(const PipelineRun &run);

/// What `klx timeline` and `klx verify` read: the run of FILE to its last
/// MLIR step with the models sized by --tiles and --k-steps, and the step
/// whose barrier protocols they read (PipelineRun::timelineStep). Null
/// `snapshot` after saying why there is none, with `exitCode`: 2 for a
/// bad bound or no protocol klx can read (and why), the run's own when it
/// failed.
/// --tiles=T and --k-steps=N into `size` (the bound of the protocol
/// models); false after a message naming `who`.
bool readModelSize(const Arguments &args, llvm::StringRef who, ModelSize &size,
                   llvm::raw_ostream &errs);

struct ProtocolRun {
  PipelineRun run;
  const Snapshot *snapshot = nullptr;
  int exitCode = kExitSuccess;
};
ProtocolRun runForProtocols(const Arguments &args, LoadedInput &input,
                            llvm::StringRef who);

/// --NAME=N, a positive integer, into `value` when given; false after a
/// message.
bool readPositive(const Arguments &args, llvm::StringRef name,
                  llvm::StringRef who, int64_t &value, llvm::raw_ostream &errs);

/// Writes a file through `write`; false after "klx WHO: PATH: cannot
/// write: ...".
bool writeTraceFile(const std::string &path, llvm::StringRef who,
                    llvm::function_ref<void(llvm::raw_ostream &)> write);

int runCompile(const Arguments &args);
int runPipelineCommand(const Arguments &args);
int runRolesCommand(const Arguments &args);
int runExportCommand(const Arguments &args);
int runTimelineCommand(const Arguments &args);
int runVerifyCommand(const Arguments &args);
int runStepsCommand(const Arguments &args);
/// `klx compile FILE --compare VARIANT [VARIANT]`.
int runCompareCommand(const Arguments &args);
/// `klx sweep FILE -D NAME=V1,V2,... [--size=MxNxK ...]`.
int runSweepCommand(const Arguments &args);

} // namespace klx::cli

#endif // KLX_APP_CLI_COMMANDLINE_H
