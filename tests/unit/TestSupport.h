//===- TestSupport.h - Helpers shared by the unit tests ---------*- C++ -*-===//

#ifndef KLX_TESTS_UNIT_TESTSUPPORT_H
#define KLX_TESTS_UNIT_TESTSUPPORT_H

#include "klx/Runtime/Trace.h"

#include "llvm/Support/MemoryBuffer.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace klx::test {

inline std::string sourcePath(const std::string &relative) {
  return std::string(KLX_SOURCE_DIR) + "/" + relative;
}

inline std::string readSource(const std::string &relative) {
  auto buffer = llvm::MemoryBuffer::getFile(sourcePath(relative));
  REQUIRE(buffer);
  return (*buffer)->getBuffer().str();
}

/// A warp of a decoded trace, made by hand: CTA, warp, SM, role, events.
inline rt::WarpTrace warpTrace(int cta, int warp, int sm, const char *role,
                               std::vector<rt::TraceEvent> events) {
  rt::WarpTrace w;
  w.cta = cta;
  w.warp = warp;
  w.sm = sm;
  w.role = role;
  w.events = std::move(events);
  return w;
}

} // namespace klx::test

#endif // KLX_TESTS_UNIT_TESTSUPPORT_H
