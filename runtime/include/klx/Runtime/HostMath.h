//===- HostMath.h - Inputs, references and errors ---------------*- C++ -*-===//

#ifndef KLX_RUNTIME_HOSTMATH_H
#define KLX_RUNTIME_HOSTMATH_H

#include "klx/Runtime/Manifest.h"

#include <cstdint>
#include <vector>

namespace klx::rt {

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value); // round to nearest even
float bf16ToFloat(uint16_t bits);
uint16_t floatToBF16(float value); // round to nearest even
float toFloat(uint16_t bits, DType dtype);

/// Uniform values in [-1, 1], rounded to `dtype`, from a fixed seed, so a
/// run can be repeated; zeros are rare, never a whole input.
std::vector<uint16_t> randomMatrix(size_t count, DType dtype, uint64_t seed);

/// D[r, :] = A[r, :] x B in double, for each row in `rows` (A is MxK, B
/// is KxN, both row-major 16-bit); `threads` CPU threads share the rows.
std::vector<double> referenceRows(const std::vector<uint16_t> &a,
                                  const std::vector<uint16_t> &b, DType dtype,
                                  const ProblemSize &size,
                                  const std::vector<int64_t> &rows,
                                  unsigned threads);

/// A gather's inputs from a fixed seed: idx uniform in [0, n), x of
/// n + offset floats in [-1, 1].
void randomGatherInputs(const GatherProblem &gather, int64_t n,
                        std::vector<int32_t> &idx, std::vector<float> &x);

/// y = x[src(i) + offset] + add in f32, as the kernel computes it.
std::vector<float> gatherReference(const GatherProblem &gather,
                                   const std::vector<int32_t> &idx,
                                   const std::vector<float> &x, int64_t n);

/// A quiet NaN in every f32: what D holds before a checked launch, so an
/// element the kernel never writes shows as non-finite.
inline constexpr unsigned kPoisonBits = 0x7FC00000;
/// The same for 16-bit D, two elements per word: quiet NaNs of bf16 and
/// of f16.
inline constexpr unsigned kPoisonBitsBF16 = 0x7FC07FC0;
inline constexpr unsigned kPoisonBitsF16 = 0x7E007E00;

/// The rows of D the CPU checks: every row while 2MNK <= 8.6e9, else 16
/// spread over M.
std::vector<int64_t> rowsToCheck(const ProblemSize &size);

/// CPU threads for the reference: `requested`, or all of them when 0.
unsigned referenceThreads(unsigned requested);

struct ErrorStats {
  double relative = 0; // ||out - ref|| / ||ref||
  double maxAbsolute = 0;
  int64_t nonFinite = 0; // NaN or Inf in the output (the poison survived)
  int64_t checked = 0;
  int64_t firstBad = -1; // index of the first non-finite element
};

/// Compares `out` at `rows` (each a full row of N, rows `rowStride` apart;
/// 0: N) with `ref` (the same rows, in order, N apart).
ErrorStats compareRows(const std::vector<float> &out,
                       const std::vector<double> &ref, int64_t n,
                       const std::vector<int64_t> &rows, int64_t rowStride = 0);

/// The relative error a correct kernel stays under: the products of f16
/// or bf16 inputs are exact in f32, so only the f32 sums of K terms round,
/// and D's rounding to `out` when it is bf16 or f16.
double errorThreshold(DType inputs, DType out = DType::F32);

/// D as it came back from the device (f32, bf16 or f16 elements) as
/// floats.
void toFloats(const std::vector<uint8_t> &bytes, DType dtype,
              std::vector<float> &out);

} // namespace klx::rt

#endif // KLX_RUNTIME_HOSTMATH_H
