//===- EpilogueOps.h - The ops klx-run evaluates in an epilogue -*- C++ -*-===//
//
// What the compiler may write into a bundle's problem.epilogue and expect
// klx-run to evaluate: one table (Epilogue.cpp's, name and arithmetic)
// that both ask, so that a kernel whose map uses an op the runner cannot
// check is told so when it compiles (DescribeEpilogue.cpp), not when it
// runs.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_EPILOGUEOPS_H
#define KLX_RUNTIME_EPILOGUEOPS_H

#include <string>
#include <string_view>

namespace klx::rt {

/// Whether klx-run evaluates the arith or math op `name` ("arith.addf").
bool evaluatesEpilogueOp(std::string_view name);

/// The ops it evaluates, by name, for a message: "arith.addf, ...".
std::string evaluatedEpilogueOps();

} // namespace klx::rt

#endif // KLX_RUNTIME_EPILOGUEOPS_H
