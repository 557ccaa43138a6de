//===- PtxasReportTest.cpp - Parsing what ptxas -v prints -----------------===//

#include "TestSupport.h"

#include "klx/Target/PtxasReport.h"

using namespace klx;

TEST_CASE("ptxas report: registers, smem and barriers of a TMA+wgmma kernel",
          "[ptxas]") {
  PtxasReport report = parsePtxasReport(
      test::readSource("tests/fixtures/ptxas/gemm-tma-wgmma.txt"));
  REQUIRE(report.functions.size() == 1);
  const PtxasFunctionReport *gemm = report.find("gemm_tma_wgmma");
  REQUIRE(gemm);
  CHECK(gemm->arch == "sm_90a");
  CHECK(gemm->registers == 154);
  CHECK(gemm->barriers == 1);
  CHECK(gemm->sharedBytes == 24);
  CHECK(gemm->stackFrameBytes == 0);
  CHECK(gemm->spillStoreBytes == 0);
  CHECK(report.messages.empty());
}

TEST_CASE("ptxas report: spills and a stack frame", "[ptxas]") {
  PtxasReport report = parsePtxasReport(
      test::readSource("tests/fixtures/ptxas/spills-stack.txt"));
  const PtxasFunctionReport *f = report.find("pressure");
  REQUIRE(f);
  CHECK(f->registers == 24);
  CHECK(f->stackFrameBytes == 328);
  CHECK(f->spillStoreBytes == 324);
  CHECK(f->spillLoadBytes == 428);
  CHECK(f->barriers == 0);
  // "Overriding maximum register limit" is advice without a code.
  CHECK(report.messages.empty());
}

TEST_CASE("ptxas report: C7508 is a warning even when printed as info",
          "[ptxas]") {
  PtxasReport report = parsePtxasReport(
      test::readSource("tests/fixtures/ptxas/setmaxnreg-c7508.txt"));
  REQUIRE(report.messages.size() == 1);
  CHECK_FALSE(report.messages[0].isError);
  CHECK(report.messages[0].code == "C7508");
  CHECK(report.hasWarning("C7508"));
  CHECK(report.messages[0].text.find("'setmaxnreg' ignored") !=
        std::string::npos);
  REQUIRE(report.find("roles"));
  CHECK(report.find("roles")->registers == 8);
}

TEST_CASE("ptxas report: errors keep their PTX line", "[ptxas]") {
  PtxasReport report =
      parsePtxasReport(test::readSource("tests/fixtures/ptxas/errors.txt"));
  REQUIRE(report.messages.size() == 4);
  for (const PtxasMessage &m : report.messages)
    CHECK(m.isError);
  CHECK(report.messages[1].text ==
        "bad.ptx, line 5: Not a name of any known instruction: 'foo'");
  CHECK(report.messages[3].text == "Ptx assembly aborted due to errors");
  CHECK(report.functions.empty());
}

TEST_CASE("ptxas report: unknown lines are ignored", "[ptxas]") {
  PtxasReport report = parsePtxasReport("garbage\n\nptxas info : nothing\n");
  CHECK(report.functions.empty());
  CHECK(report.messages.empty());
}
