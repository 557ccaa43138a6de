//===- PathCompletionTest.cpp - Completing a typed file path --------------===//

#include "TestSupport.h"

#include "core/PathCompletion.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

using namespace klx::app;

namespace {

/// A directory of kernels, traces, a note, a hidden kernel and two
/// subdirectories, removed when the test ends.
struct Fixture {
  std::string dir;

  Fixture() {
    llvm::SmallString<128> path;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-paths", path));
    dir = path.str().str();
    for (const char *sub : {"kernels", "kept"})
      REQUIRE_FALSE(llvm::sys::fs::create_directory(dir + "/" + sub));
    for (const char *file :
         {"kernel_a.mlir", "kernel_b.mlir", "trace.json", "proton.chrome_trace",
          "notes.txt", ".hidden.mlir", "kernels/gemm.mlir"}) {
      std::error_code error;
      llvm::raw_fd_ostream out(dir + "/" + file, error);
      REQUIRE_FALSE(error);
    }
  }
  ~Fixture() { llvm::sys::fs::remove_directories(dir); }
};

/// HOME and the working directory as they were, whatever the test did.
struct RestoreEnvironment {
  std::optional<std::string> home;
  llvm::SmallString<256> cwd;
  RestoreEnvironment() {
    if (const char *value = std::getenv("HOME"))
      home = value;
    llvm::sys::fs::current_path(cwd);
  }
  ~RestoreEnvironment() {
    if (home)
      setenv("HOME", home->c_str(), 1);
    else
      unsetenv("HOME");
    llvm::sys::fs::set_current_path(cwd);
  }
};

std::string names(const PathCompletion &c) {
  std::string out;
  for (const PathCandidate &candidate : c.candidates)
    out += candidate.name + (candidate.directory ? "/ " : " ");
  return out;
}

} // namespace

TEST_CASE("path completion: what a typed prefix can go on to name",
          "[app][paths]") {
  Fixture f;
  PathCompletion c = completePath(f.dir + "/ke");
  CHECK(c.problem.empty());
  CHECK(c.directoryPart == f.dir + "/");
  // Directories first, then the files klx opens, each by name.
  CHECK(names(c) == "kept/ kernels/ kernel_a.mlir kernel_b.mlir ");
  CHECK(c.completed == f.dir + "/ke"); // "kept" and "kernel" part at "ke"

  c = completePath(f.dir + "/ker");
  CHECK(names(c) == "kernels/ kernel_a.mlir kernel_b.mlir ");
  CHECK(c.completed == f.dir + "/kernel");

  // One directory left: Tab completes it and steps inside.
  c = completePath(f.dir + "/kernels");
  CHECK(names(c) == "kernels/ ");
  CHECK(c.completed == f.dir + "/kernels/");
  c = completePath(c.completed);
  CHECK(names(c) == "gemm.mlir ");
  CHECK(c.completed == f.dir + "/kernels/gemm.mlir");

  // One file left: the whole name.
  c = completePath(f.dir + "/kernel_b");
  CHECK(c.completed == f.dir + "/kernel_b.mlir");
  CHECK(chosenPath(c, c.candidates.front()) == f.dir + "/kernel_b.mlir");
}

TEST_CASE("path completion: which entries are listed", "[app][paths]") {
  Fixture f;
  // Everything klx opens, not the note; the hidden kernel only when the
  // typed name starts with a dot.
  PathCompletion c = completePath(f.dir + "/");
  CHECK(names(c) == "kept/ kernels/ kernel_a.mlir kernel_b.mlir "
                    "proton.chrome_trace trace.json ");
  c = completePath(f.dir + "/.");
  CHECK(names(c) == "../ .hidden.mlir ");
  // ".." the iterator skips; typed, it is offered and completed.
  c = completePath(f.dir + "/..");
  CHECK(names(c) == "../ ");
  CHECK(c.completed == f.dir + "/../");
  // A field for traces lists no kernels.
  c = completePath(f.dir + "/", PathKinds::Traces);
  CHECK(names(c) == "kept/ kernels/ proton.chrome_trace trace.json ");
  // Where to save: folders alone.
  c = completePath(f.dir + "/k", PathKinds::Folders);
  CHECK(names(c) == "kept/ kernels/ ");
  // Nothing matches: nothing to add, and no problem either.
  c = completePath(f.dir + "/zzz");
  CHECK(c.candidates.empty());
  CHECK(c.problem.empty());
  CHECK(c.completed == f.dir + "/zzz");
  // Past the limit: the first ones, and how many more there are.
  c = completePath(f.dir + "/", PathKinds::KernelsAndTraces, 3);
  CHECK(names(c) == "kept/ kernels/ kernel_a.mlir ");
  CHECK(c.more == 3);
  CHECK_FALSE(c.scanStopped);
  // A folder read in part says so.
  c = completePath(f.dir + "/", PathKinds::KernelsAndTraces, 200, 2);
  CHECK(c.candidates.size() <= 2);
  CHECK(c.scanStopped);
  // A directory that is not there says so.
  c = completePath(f.dir + "/nowhere/ker");
  CHECK(c.candidates.empty());
  CHECK(c.problem == "no such folder: " + f.dir + "/nowhere/");
  CHECK(c.completed == f.dir + "/nowhere/ker");
  // Nor is a file a folder.
  c = completePath(f.dir + "/notes.txt/x");
  CHECK(c.problem == "not a folder: " + f.dir + "/notes.txt/");
}

TEST_CASE("path completion: ~ is the home directory, and a bare name is in "
          "the working directory",
          "[app][paths]") {
  Fixture f;
  RestoreEnvironment restore;
  setenv("HOME", f.dir.c_str(), 1);
  PathCompletion c = completePath("~");
  CHECK(c.completed == "~/");
  CHECK(names(c) == "kept/ kernels/ kernel_a.mlir kernel_b.mlir "
                    "proton.chrome_trace trace.json ");
  c = completePath("~/kernel_a");
  CHECK(c.directoryPart == "~/");
  CHECK(c.completed == "~/kernel_a.mlir");
  // What the field opens: the home folder put in.
  CHECK(expandHome("~/kernel_a.mlir") == f.dir + "/kernel_a.mlir");
  CHECK(expandHome("~") == f.dir);
  CHECK(expandHome("~someone/x.mlir") == "~someone/x.mlir");
  CHECK(expandHome("/a/~/b.mlir") == "/a/~/b.mlir");

  REQUIRE_FALSE(llvm::sys::fs::set_current_path(f.dir));
  c = completePath("trace");
  CHECK(c.directoryPart.empty());
  CHECK(names(c) == "trace.json ");
  CHECK(c.completed == "trace.json");
}
