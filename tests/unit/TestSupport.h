//===- TestSupport.h - Helpers shared by the unit tests ---------*- C++ -*-===//

#ifndef KLX_TESTS_UNIT_TESTSUPPORT_H
#define KLX_TESTS_UNIT_TESTSUPPORT_H

#include "llvm/Support/MemoryBuffer.h"

#include <catch2/catch.hpp>

#include <string>

namespace klx::test {

inline std::string sourcePath(const std::string &relative) {
  return std::string(KLX_SOURCE_DIR) + "/" + relative;
}

inline std::string readSource(const std::string &relative) {
  auto buffer = llvm::MemoryBuffer::getFile(sourcePath(relative));
  REQUIRE(buffer);
  return (*buffer)->getBuffer().str();
}

} // namespace klx::test

#endif // KLX_TESTS_UNIT_TESTSUPPORT_H
