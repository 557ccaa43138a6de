//===- FuzzRegressionTest.cpp - What the fuzzer found, replayed -----------===//
//
// Every input scripts/fuzz.sh kept in tests/fuzz/regressions goes through
// the pipeline again the way the fuzzer ran it (FuzzInput.h), and must end in a
// run with diagnostics, not a crash.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "../fuzz/FuzzInput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace klx;

TEST_CASE("fuzzer regressions run to a verdict", "[fuzz]") {
  std::string dir = test::sourcePath("tests/fuzz/regressions");
  std::error_code ec;
  unsigned replayed = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::filename(it->path()).starts_with("."))
      continue;
    INFO(it->path());
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    REQUIRE(buffer);
    std::string source = (*buffer)->getBuffer().str();
    PipelineRun run =
        runPipeline(source, it->path(), fuzz::optionsFromHeader(source));
    // Whatever the verdict, a failed run says why.
    if (!run.succeeded())
      CHECK_FALSE(run.allDiagnostics().empty());
    ++replayed;
  }
  SUCCEED(replayed << " regressions replayed");
}
