//===- FuzzInput.h - How a fuzz input chooses its compile -------*- C++ -*-===//
//
// A first line of the form "// fuzz: TOKEN TOKEN ..." chooses how an input is
// compiled: a target name (sm_90a, gfx942, gfx950) picks the target and
// NAME=VALUE is a -D value, so mutations reach the schedule parameters and
// the AMD path as well as the text. The fuzzer and the unit test that
// replays its findings read inputs through this one function.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_TESTS_FUZZ_FUZZINPUT_H
#define KLX_TESTS_FUZZ_FUZZINPUT_H

#include "klx/Pipeline/Compiler.h"

#include "llvm/ADT/StringExtras.h"

namespace klx::fuzz {

/// Lowers to the target's assembly in-process (ptxas, an external process,
/// is left out for speed).
inline CompileOptions optionsFromHeader(llvm::StringRef source) {
  CompileOptions options;
  if (source.consume_front("// fuzz:")) {
    llvm::SmallVector<llvm::StringRef> tokens;
    llvm::SplitString(source.split('\n').first, tokens);
    for (llvm::StringRef token : tokens) {
      if (std::optional<Target> target = parseTarget(token))
        options.target = target;
      else if (token.contains('='))
        options.defines.emplace_back(token.split('=').first.str(),
                                     token.split('=').second.str());
    }
  }
  options.emitGoal = options.target && isAmd(*options.target) ? EmitKind::AMDGCN
                                                              : EmitKind::PTX;
  return options;
}

} // namespace klx::fuzz

#endif // KLX_TESTS_FUZZ_FUZZINPUT_H
