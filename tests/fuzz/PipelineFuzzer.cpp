//===- PipelineFuzzer.cpp - libFuzzer over the whole pipeline -------------===//
//
// Each input is a kernel's source text, optionally led by a line that
// picks the target and -D values (FuzzInput.h). It is parsed and lowered
// through every MLIR pass to PTX or AMDGCN. Whatever the input,
// runPipeline must return a run with diagnostics, never crash, hang or
// leak. Crashes found are kept in tests/fuzz/regressions and replayed by
// the unit tests.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Inputs past a sample's size only slow the search down.
  if (size > 64 * 1024)
    return 0;
  std::string source(reinterpret_cast<const char *>(data), size);
  klx::PipelineRun run = klx::runPipeline(source, "fuzz.mlir",
                                          klx::fuzz::optionsFromHeader(source));
  (void)run;
  return 0;
}
