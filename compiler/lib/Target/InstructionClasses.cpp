//===- InstructionClasses.cpp - Counting instructions by class ------------===//

#include "klx/Target/InstructionClasses.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace klx;

unsigned InstructionCounts::get(llvm::StringRef name) const {
  for (const InstructionClassCount &entry : classes)
    if (entry.name == name)
      return entry.count;
  return 0;
}

namespace {

/// One instruction line split into its opcode and operands.
struct Instruction {
  llvm::StringRef opcode;
  llvm::StringRef operands;
  /// In a block LLVM's asm printer marks as part of a loop (AMDGCN).
  bool inLoop = false;
};

struct InstructionClass {
  const char *name;
  bool (*matches)(const Instruction &);
};

bool startsWith(llvm::StringRef s, llvm::StringRef prefix) {
  return s.starts_with(prefix);
}

// [SECTION] PTX ------------------------------------------------------------

const InstructionClass ptxClasses[] = {
    {"wgmma.mma_async",
     [](const Instruction &i) {
       return startsWith(i.opcode, "wgmma.mma_async");
     }},
    {"cp.async.bulk.tensor",
     [](const Instruction &i) {
       return startsWith(i.opcode, "cp.async.bulk.tensor");
     }},
    {"mbarrier",
     [](const Instruction &i) { return startsWith(i.opcode, "mbarrier."); }},
    {"mbarrier.try_wait",
     [](const Instruction &i) {
       return startsWith(i.opcode, "mbarrier.try_wait");
     }},
    {"setmaxnreg",
     [](const Instruction &i) { return startsWith(i.opcode, "setmaxnreg"); }},
    {"fence.proxy.async",
     [](const Instruction &i) {
       return startsWith(i.opcode, "fence.proxy.async");
     }},
    {"bar.sync",
     [](const Instruction &i) {
       return startsWith(i.opcode, "bar.") || startsWith(i.opcode, "barrier.");
     }},
    {"ld/st.local",
     [](const Instruction &i) {
       return (startsWith(i.opcode, "ld.local") ||
               startsWith(i.opcode, "st.local"));
     }},
    // stmatrix and ldmatrix move a warp's 8 x 8 matrices through shared
    // memory: the 16-bit epilogue's stores.
    {"ld/st.shared",
     [](const Instruction &i) {
       return startsWith(i.opcode, "ld.shared") ||
              startsWith(i.opcode, "st.shared") ||
              startsWith(i.opcode, "stmatrix") ||
              startsWith(i.opcode, "ldmatrix");
     }},
    {"ld/st.global",
     [](const Instruction &i) {
       return startsWith(i.opcode, "ld.global") ||
              startsWith(i.opcode, "st.global");
     }},
};

// A PTX line holds one instruction ending in ';' unless it is a directive,
// a label, a brace or a comment. A guard predicate "@%p1" or "@!%p1" may
// precede the opcode.
bool splitPtx(llvm::StringRef line, Instruction &out) {
  line = line.split("//").first.trim();
  if (line.empty() || line.front() == '.' || line.front() == '{' ||
      line.front() == '}' || line.ends_with(":"))
    return false;
  if (line.front() == '@')
    line = line.split(' ').second.ltrim();
  line = line.rtrim(';').rtrim();
  std::tie(out.opcode, out.operands) = line.split(' ');
  out.operands = out.operands.trim();
  return !out.opcode.empty();
}

// [SECTION] SASS -----------------------------------------------------------

const InstructionClass sassClasses[] = {
    {"HGMMA",
     [](const Instruction &i) { return startsWith(i.opcode, "HGMMA"); }},
    {"UTMALDG",
     [](const Instruction &i) { return startsWith(i.opcode, "UTMALDG"); }},
    {"SYNCS",
     [](const Instruction &i) { return startsWith(i.opcode, "SYNCS"); }},
    {"USETMAXREG",
     [](const Instruction &i) { return startsWith(i.opcode, "USETMAXREG"); }},
    {"STL", [](const Instruction &i) { return startsWith(i.opcode, "STL"); }},
    {"LDL", [](const Instruction &i) { return startsWith(i.opcode, "LDL"); }},
    {"BAR", [](const Instruction &i) { return startsWith(i.opcode, "BAR"); }},
    {"HMMA", [](const Instruction &i) { return startsWith(i.opcode, "HMMA"); }},
    {"LDS/STS",
     [](const Instruction &i) {
       return i.opcode == "LDS" || startsWith(i.opcode, "LDS.") ||
              i.opcode == "STS" || startsWith(i.opcode, "STS.");
     }},
    {"LDG/STG",
     [](const Instruction &i) {
       return startsWith(i.opcode, "LDG") || startsWith(i.opcode, "STG");
     }},
};

// nvdisasm and cuobjdump print "/*0040*/  @!P0 LDG.E R2, [R2.64] ;" with the
// encoding in a trailing comment.
bool splitSass(llvm::StringRef line, Instruction &out) {
  line = line.trim();
  if (!line.starts_with("/*"))
    return false;
  size_t close = line.find("*/");
  if (close == llvm::StringRef::npos)
    return false;
  llvm::StringRef address = line.slice(2, close);
  if (address.empty() || !llvm::all_of(address, llvm::isHexDigit))
    return false;
  line = line.drop_front(close + 2).trim();
  line = line.split(';').first.trim();
  if (line.starts_with("{"))
    line = line.drop_front(1).trim();
  if (line.starts_with("@"))
    line = line.split(' ').second.ltrim();
  std::tie(out.opcode, out.operands) = line.split(' ');
  out.operands = out.operands.trim();
  return !out.opcode.empty();
}

// [SECTION] AMDGCN ---------------------------------------------------------

bool isWaitcnt(const Instruction &i) { return i.opcode == "s_waitcnt"; }

const InstructionClass amdgcnClasses[] = {
    {"s_waitcnt vmcnt(0)",
     [](const Instruction &i) {
       return isWaitcnt(i) && i.operands.contains("vmcnt(0)");
     }},
    {"s_waitcnt vmcnt(N)",
     [](const Instruction &i) {
       return isWaitcnt(i) && i.operands.contains("vmcnt(") &&
              !i.operands.contains("vmcnt(0)");
     }},
    // The hot loop's: what a kernel waits for every iteration.
    {"loop vmcnt(0)",
     [](const Instruction &i) {
       return i.inLoop && isWaitcnt(i) && i.operands.contains("vmcnt(0)");
     }},
    {"loop vmcnt(N)",
     [](const Instruction &i) {
       return i.inLoop && isWaitcnt(i) && i.operands.contains("vmcnt(") &&
              !i.operands.contains("vmcnt(0)");
     }},
    {"s_waitcnt lgkmcnt",
     [](const Instruction &i) {
       return isWaitcnt(i) && i.operands.contains("lgkmcnt(");
     }},
    {"v_mfma",
     [](const Instruction &i) { return startsWith(i.opcode, "v_mfma"); }},
    {"ds_read",
     [](const Instruction &i) {
       return startsWith(i.opcode, "ds_read") ||
              startsWith(i.opcode, "ds_load");
     }},
    {"ds_write",
     [](const Instruction &i) {
       return startsWith(i.opcode, "ds_write") ||
              startsWith(i.opcode, "ds_store");
     }},
    {"global/buffer load",
     [](const Instruction &i) {
       return startsWith(i.opcode, "global_load") ||
              startsWith(i.opcode, "buffer_load");
     }},
    {"global/buffer store",
     [](const Instruction &i) {
       return startsWith(i.opcode, "global_store") ||
              startsWith(i.opcode, "buffer_store");
     }},
    {"scratch",
     [](const Instruction &i) { return startsWith(i.opcode, "scratch_"); }},
    {"s_barrier", [](const Instruction &i) { return i.opcode == "s_barrier"; }},
};

// Instructions are lower-case mnemonics with an s_/v_/ds_/... prefix;
// directives start with '.', comments with ';', labels end in ':'.
bool splitAmdgcn(llvm::StringRef line, Instruction &out) {
  line = line.split(';').first.trim();
  if (line.empty() || line.front() == '.' || line.ends_with(":") ||
      !llvm::isAlpha(line.front()))
    return false;
  line = line.split("//").first.trim();
  std::tie(out.opcode, out.operands) = line.split(' ');
  out.operands = out.operands.trim();
  return out.opcode.contains('_');
}

llvm::ArrayRef<InstructionClass> classesFor(EmitKind kind) {
  switch (kind) {
  case EmitKind::PTX:
    return ptxClasses;
  case EmitKind::SASS:
    return sassClasses;
  case EmitKind::AMDGCN:
    return amdgcnClasses;
  default:
    return {};
  }
}

} // namespace

std::vector<std::string> klx::instructionClassNames(EmitKind kind) {
  std::vector<std::string> names;
  for (const InstructionClass &cls : classesFor(kind))
    names.push_back(cls.name);
  return names;
}

InstructionCounts klx::countInstructions(EmitKind kind,
                                         llvm::StringRef assembly) {
  InstructionCounts counts;
  llvm::ArrayRef<InstructionClass> classes = classesFor(kind);
  for (const InstructionClass &cls : classes)
    counts.classes.push_back({cls.name, 0});
  bool (*split)(llvm::StringRef, Instruction &) =
      kind == EmitKind::PTX    ? splitPtx
      : kind == EmitKind::SASS ? splitSass
                               : splitAmdgcn;
  if (classes.empty())
    return counts;
  llvm::SmallVector<llvm::StringRef> lines;
  assembly.split(lines, '\n');
  // LLVM's asm printer says which blocks are loops, in comments on a
  // block's label (".LBB0_4:" or "; %bb.10:") or the lines under it:
  // "=>This Inner Loop Header", "Parent Loop ...", "in Loop: Header=...".
  bool inLoop = false;
  auto mentionsLoop = [](llvm::StringRef line) {
    return line.contains("Loop Header") || line.contains("in Loop:") ||
           line.contains("Parent Loop");
  };
  for (llvm::StringRef line : lines) {
    llvm::StringRef code = line.split(';').first.trim();
    bool blockStart = code.ends_with(":") || line.trim().starts_with("; %bb.");
    if (blockStart)
      inLoop = mentionsLoop(line);
    else if (code.empty() && mentionsLoop(line))
      inLoop = true;
    Instruction instruction;
    instruction.inLoop = inLoop;
    if (!split(line, instruction))
      continue;
    ++counts.total;
    for (size_t i = 0; i < classes.size(); ++i)
      if (classes[i].matches(instruction))
        ++counts.classes[i].count;
  }
  return counts;
}
