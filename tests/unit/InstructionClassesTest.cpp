//===- InstructionClassesTest.cpp - Counting instructions by class --------===//

#include "TestSupport.h"

#include "klx/Target/InstructionClasses.h"

using namespace klx;

TEST_CASE("PTX: predicated instructions count, directives and labels do not",
          "[counts]") {
  std::string ptx =
      test::readSource("tests/fixtures/ptxas/setmaxnreg-c7508.ptx");
  InstructionCounts counts = countInstructions(EmitKind::PTX, ptx);
  // mov, setp, @bra, setmaxnreg.inc, bra, setmaxnreg.dec, ld.param, cvta,
  // st.global, ret.
  CHECK(counts.total == 10);
  CHECK(counts.get("setmaxnreg") == 2);
  CHECK(counts.get("ld/st.global") == 1);
  CHECK(counts.get("wgmma.mma_async") == 0);
}

TEST_CASE("PTX: comments and inline-asm braces", "[counts]") {
  const char *ptx = "  // a comment\n"
                    "\t// begin inline asm\n"
                    "\t{\n"
                    "\tmbarrier.try_wait.parity.shared.b64 P1, [%r11], %r12;\n"
                    "\t@P1 bra.uni DONE;\n"
                    "\t}\n"
                    "$L__BB0_2:\n"
                    "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile"
                    ".mbarrier::complete_tx::bytes [%rd7], [%rd9, {%r9, %r2}], "
                    "[__mbarrier]; // trailing\n"
                    "\twgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                    "{%r1}, %rd1, %rd2, p, 1, 1, 0, 1;\n";
  InstructionCounts counts = countInstructions(EmitKind::PTX, ptx);
  CHECK(counts.total == 4);
  CHECK(counts.get("mbarrier") == 1);
  CHECK(counts.get("mbarrier.try_wait") == 1);
  CHECK(counts.get("cp.async.bulk.tensor") == 1);
  CHECK(counts.get("wgmma.mma_async") == 1);
}

TEST_CASE("PTX: stmatrix and ldmatrix are shared-memory traffic", "[counts]") {
  // The 16-bit epilogue's stores: a warp's 8 x 8 matrices, one
  // instruction for four of them.
  const char *ptx =
      "\tstmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd30], {%r37, %r38, "
      "%r39, %r40};\n"
      "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, "
      "[%rd1];\n"
      "\tst.shared.b32 [%r2], %r3;\n";
  InstructionCounts counts = countInstructions(EmitKind::PTX, ptx);
  CHECK(counts.total == 3);
  CHECK(counts.get("ld/st.shared") == 3);
}

TEST_CASE("Every kind reports all of its classes, zeros included", "[counts]") {
  for (EmitKind kind : {EmitKind::PTX, EmitKind::SASS, EmitKind::AMDGCN}) {
    InstructionCounts counts = countInstructions(kind, "");
    CHECK(counts.total == 0);
    CHECK(counts.classes.size() == instructionClassNames(kind).size());
    CHECK_FALSE(counts.classes.empty());
  }
  CHECK(countInstructions(EmitKind::MLIR, "anything").classes.empty());
}

TEST_CASE("SASS of the TMA + wgmma GEMM: HGMMA, UTMALDG, SYNCS", "[counts]") {
  std::string sass =
      test::readSource("tests/fixtures/sass/gemm_tma_wgmma.sass");
  InstructionCounts counts = countInstructions(EmitKind::SASS, sass);
  CHECK(counts.total == 512);
  CHECK(counts.get("HGMMA") == 8);
  CHECK(counts.get("UTMALDG") == 6);
  CHECK(counts.get("SYNCS") == 7);
  CHECK(counts.get("BAR") == 2);
  CHECK(counts.get("STL") == 0);
  CHECK(counts.get("LDL") == 0);
  CHECK(counts.get("LDG/STG") == 128);
}

TEST_CASE("SASS of a spilling kernel: STL and LDL", "[counts]") {
  std::string sass = test::readSource("tests/fixtures/sass/spills-stack.sass");
  InstructionCounts counts = countInstructions(EmitKind::SASS, sass);
  CHECK(counts.total == 336);
  CHECK(counts.get("STL") == 81);
  CHECK(counts.get("LDL") == 107);
  CHECK(counts.get("HGMMA") == 0);
}

TEST_CASE("SASS where ptxas ignored setmaxnreg has no USETMAXREG", "[counts]") {
  std::string sass = test::readSource("tests/fixtures/sass/setmaxnreg.sass");
  InstructionCounts counts = countInstructions(EmitKind::SASS, sass);
  CHECK(counts.total == 24);
  CHECK(counts.get("USETMAXREG") == 0);
}

TEST_CASE("AMDGCN: waits inside loops, as LLVM's asm printer marks them",
          "[counts]") {
  // Block labels in both spellings, a nested loop whose header says so on
  // the line under its label, and a block after the loop.
  const char *amdgcn =
      "; %bb.0:\n"
      "\ts_waitcnt vmcnt(0)\n"
      ".LBB0_1:                                ; =>This Loop Header: Depth=1\n"
      "                                        ;     Child Loop BB0_2 Depth 2\n"
      "\ts_waitcnt vmcnt(3)\n"
      ".LBB0_2:                                ;   Parent Loop BB0_1 Depth=1\n"
      "                                        ; =>  This Inner Loop Header: "
      "Depth=2\n"
      "\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
      "\ts_cbranch_scc1 .LBB0_2\n"
      "; %bb.3:                                ;   in Loop: Header=BB0_1 "
      "Depth=1\n"
      "\ts_waitcnt vmcnt(1)\n"
      "\ts_cbranch_scc1 .LBB0_1\n"
      "; %bb.4:\n"
      "\ts_waitcnt vmcnt(0)\n"
      "\ts_endpgm\n";
  InstructionCounts counts = countInstructions(EmitKind::AMDGCN, amdgcn);
  CHECK(counts.get("s_waitcnt vmcnt(0)") == 3);
  CHECK(counts.get("s_waitcnt vmcnt(N)") == 2);
  CHECK(counts.get("loop vmcnt(0)") == 1);
  CHECK(counts.get("loop vmcnt(N)") == 2);
  CHECK(counts.get("s_waitcnt lgkmcnt") == 1);
}
