//===- EpilogueCheck.h - Inputs and references of an epilogue ---*- C++ -*-===//
//
// Private to runtime/lib: what GemmRunner.cpp needs to run and check a
// kernel that computes on its accumulators (Epilogue.h says what it
// stores).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LIB_EPILOGUECHECK_H
#define KLX_RUNTIME_LIB_EPILOGUECHECK_H

#include "klx/Runtime/Epilogue.h"
#include "klx/Runtime/Manifest.h"

#include <map>
#include <vector>

namespace klx::rt {

/// The typical magnitude of an element of A x B for inputs uniform in
/// [-1, 1]: sqrt(K / 9).
double gemmMagnitude(const ProblemSize &size);

/// sqrt(mean(x^2)) of `values`: the scale of an epilogue's output (a
/// GELU's is A x B's, a softmax's 1 / N), below which ulps are judged at
/// a 64th of it.
double rootMeanSquare(const std::vector<double> &values);

/// The kernel's vector arguments, random, of A x B's magnitude (a bias of
/// the output's size), M or N long, from a fixed seed; each value is a
/// bf16 number.
std::map<int64_t, std::vector<float>> epilogueVectors(const Manifest &m,
                                                      const ProblemSize &size);

/// What the evaluation reads: sizes by argument #, the tile, the vectors.
EpilogueInputs epilogueInputs(const Manifest &m, const ProblemSize &size,
                              std::map<int64_t, std::vector<float>> vectors);

/// D's rows `rows` from the same rows of A x B (`gemm`, N apart), with
/// `threads` CPU threads.
std::vector<double> epilogueRows(const EpilogueProgram &program,
                                 const EpilogueInputs &inputs,
                                 const std::vector<double> &gemm,
                                 const std::vector<int64_t> &rows,
                                 unsigned threads);

} // namespace klx::rt

#endif // KLX_RUNTIME_LIB_EPILOGUECHECK_H
