//===- PipelineFuzzer.cpp - libFuzzer over the whole pipeline -------------===//
//
// Each input is a kernel's source text. It is parsed and lowered through
// every MLIR pass to PTX (the in-process LLVM backend; ptxas, an external
// process, is left out for speed), for sm_90a, or for gfx942 when the
// text starts with "// gfx". Whatever the input, runPipeline must return
// a run with diagnostics, never crash, hang or leak. Crashes found are
// kept in tests/fuzz/regressions and replayed by the unit tests.
//
//===----------------------------------------------------------------------===//

#include "klx/Pipeline/Compiler.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Inputs past a sample's size only slow the search down.
  if (size > 64 * 1024)
    return 0;
  std::string source(reinterpret_cast<const char *>(data), size);
  klx::CompileOptions options;
  options.emitGoal = klx::EmitKind::PTX;
  if (source.rfind("// gfx", 0) == 0) {
    options.target = klx::Target::GFX942;
    options.emitGoal = klx::EmitKind::AMDGCN;
  }
  klx::PipelineRun run = klx::runPipeline(source, "fuzz.mlir", options);
  (void)run;
  return 0;
}
