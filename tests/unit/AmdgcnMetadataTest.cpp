//===- AmdgcnMetadataTest.cpp - Resource usage from AMDGCN assembly -------===//

#include "TestSupport.h"

#include "klx/Target/AmdgcnMetadata.h"
#include "klx/Target/InstructionClasses.h"

using namespace klx;

TEST_CASE("AMDGCN metadata of the LDS transpose sample", "[amdgcn]") {
  std::string assembly =
      test::readSource("tests/fixtures/amdgcn/lds_transpose-gfx942.s");
  AmdgcnMetadata metadata = parseAmdgcnMetadata(assembly);
  REQUIRE(metadata.kernels.size() == 1);
  const AmdgcnKernelInfo *k = metadata.find("lds_transpose");
  REQUIRE(k);
  CHECK(k->vgprs == 8);
  CHECK(k->agprs == 0);
  CHECK(k->sgprs == 21);
  CHECK(k->scratchBytes == 0);
  CHECK(k->ldsBytes == 4224);
  CHECK(k->occupancy == 8);
  CHECK(k->codeBytes == 280);
}

TEST_CASE("AMDGCN instruction classes", "[amdgcn]") {
  std::string assembly =
      test::readSource("tests/fixtures/amdgcn/lds_transpose-gfx942.s");
  InstructionCounts counts = countInstructions(EmitKind::AMDGCN, assembly);
  CHECK(counts.total == 45);
  CHECK(counts.get("s_waitcnt vmcnt(0)") == 1);
  CHECK(counts.get("s_waitcnt vmcnt(N)") == 0);
  CHECK(counts.get("s_waitcnt lgkmcnt") == 3);
  CHECK(counts.get("ds_read") == 1);
  CHECK(counts.get("ds_write") == 1);
  CHECK(counts.get("s_barrier") == 1);
  CHECK(counts.get("global/buffer load") == 1);
  CHECK(counts.get("v_mfma") == 0);
}
