//===- InstructionClasses.h - Counting instructions by class ----*- C++ -*-===//
//
// The lessons are told in instruction counts: HGMMA and UTMALDG in SASS,
// STL/LDL when a register array spills, s_waitcnt vmcnt(0) against vmcnt(N)
// on AMD. Each assembly kind has a fixed list of classes, always reported
// (a zero is information too).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_TARGET_INSTRUCTIONCLASSES_H
#define KLX_TARGET_INSTRUCTIONCLASSES_H

#include "klx/Support/Stages.h"

#include <string>
#include <vector>

namespace klx {

struct InstructionClassCount {
  std::string name;
  unsigned count = 0;
};

struct InstructionCounts {
  unsigned total = 0; // instructions, not directives, labels or comments
  std::vector<InstructionClassCount> classes;

  unsigned get(llvm::StringRef name) const;
};

/// Counts the instructions of an assembly text (PTX, SASS or AMDGCN).
InstructionCounts countInstructions(EmitKind kind, llvm::StringRef assembly);

/// The class names reported for a kind, in display order.
std::vector<std::string> instructionClassNames(EmitKind kind);

} // namespace klx

#endif // KLX_TARGET_INSTRUCTIONCLASSES_H
