//===- UnitTestMain.cpp - Catch2 entry point for klx unit tests -----------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
