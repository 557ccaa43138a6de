//===- HostMath.cpp - Inputs, reference results and error on the host -----===//

#include "klx/Runtime/HostMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

using namespace klx::rt;

float klx::rt::halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1F;
  uint32_t mantissa = h & 0x3FF;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000 | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal: value = mantissa x 2^-24.
    float value = std::ldexp(float(mantissa), -24);
    return sign ? -value : value;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t klx::rt::floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  if (std::isnan(value))
    return sign | 0x7E00;
  float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) // rounds to infinity
    return sign | 0x7C00;
  if (magnitude < std::ldexp(1.0f, -14)) {
    // Subnormal or zero: steps of 2^-24, nearest even.
    float steps = magnitude * float(1 << 24);
    return sign | uint16_t(std::nearbyint(steps));
  }
  int exponent;
  float fraction = std::frexp(magnitude, &exponent); // [0.5, 1)
  // 11 significant bits, nearest even.
  float significand = std::nearbyint(std::ldexp(fraction, 11));
  if (significand >= 2048.0f) {
    significand /= 2;
    ++exponent;
  }
  uint16_t e = uint16_t(exponent - 1 + 15);
  return sign | uint16_t(e << 10) | (uint16_t(significand) & 0x3FF);
}

float klx::rt::bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t klx::rt::floatToBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if (std::isnan(value))
    return uint16_t((bits >> 16) | 0x40);
  uint32_t rounding = 0x7FFF + ((bits >> 16) & 1);
  return uint16_t((bits + rounding) >> 16);
}

float klx::rt::toFloat(uint16_t bits, DType dtype) {
  return dtype == DType::BF16 ? bf16ToFloat(bits) : halfToFloat(bits);
}

namespace {

/// xorshift64*: fast enough for 10^8 elements, the same on every machine.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
  }
  /// Uniform in [-1, 1).
  float unit() { return 2.0f * (float(next() >> 40) / float(1 << 24)) - 1.0f; }

private:
  uint64_t state;
};

} // namespace

std::vector<uint16_t> klx::rt::randomMatrix(size_t count, DType dtype,
                                            uint64_t seed) {
  std::vector<uint16_t> out(count);
  Random random(seed);
  for (size_t i = 0; i < count; ++i) {
    float value = random.unit();
    out[i] = dtype == DType::BF16 ? floatToBF16(value) : floatToHalf(value);
  }
  return out;
}

void klx::rt::randomGatherInputs(const GatherProblem &gather, int64_t n,
                                 std::vector<int32_t> &idx,
                                 std::vector<float> &x) {
  Random random(3);
  idx.assign(gather.indirect ? size_t(n) : 0, 0);
  for (int32_t &i : idx)
    i = int32_t((random.next() >> 16) % uint64_t(n));
  x.resize(size_t(n + gather.offset));
  for (float &v : x)
    v = random.unit();
}

std::vector<float> klx::rt::gatherReference(const GatherProblem &gather,
                                            const std::vector<int32_t> &idx,
                                            const std::vector<float> &x,
                                            int64_t n) {
  std::vector<float> y(static_cast<size_t>(n));
  float add = float(gather.add);
  for (int64_t i = 0; i < n; ++i)
    y[i] = x[size_t((gather.indirect ? idx[i] : i) + gather.offset)] + add;
  return y;
}

std::vector<double> klx::rt::referenceRows(const std::vector<uint16_t> &a,
                                           const std::vector<uint16_t> &b,
                                           DType dtype, const ProblemSize &size,
                                           const std::vector<int64_t> &rows,
                                           unsigned threads) {
  int64_t n = size.n, k = size.k;
  std::vector<double> out(rows.size() * n, 0.0);
  // B as double once, so the inner loop streams contiguous rows of it.
  std::vector<double> bd(b.size());
  for (size_t i = 0; i < b.size(); ++i)
    bd[i] = toFloat(b[i], dtype);
  auto work = [&](size_t first, size_t last) {
    for (size_t r = first; r < last; ++r) {
      double *row = &out[r * n];
      const uint16_t *aRow = &a[rows[r] * k];
      for (int64_t kk = 0; kk < k; ++kk) {
        double av = toFloat(aRow[kk], dtype);
        const double *bRow = &bd[kk * n];
        for (int64_t j = 0; j < n; ++j)
          row[j] += av * bRow[j];
      }
    }
  };
  threads = std::max(1u, std::min<unsigned>(threads, rows.size()));
  std::vector<std::thread> pool;
  size_t chunk = (rows.size() + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    size_t first = t * chunk, last = std::min(rows.size(), first + chunk);
    if (first < last)
      pool.emplace_back(work, first, last);
  }
  for (std::thread &thread : pool)
    thread.join();
  return out;
}

ErrorStats klx::rt::compareRows(const std::vector<float> &out,
                                const std::vector<double> &ref, int64_t n,
                                const std::vector<int64_t> &rows,
                                int64_t rowStride) {
  ErrorStats stats;
  if (rowStride == 0)
    rowStride = n;
  double diff2 = 0, ref2 = 0;
  for (size_t r = 0; r < rows.size(); ++r)
    for (int64_t j = 0; j < n; ++j) {
      int64_t index = rows[r] * rowStride + j;
      double got = out[index], want = ref[r * n + j];
      ++stats.checked;
      if (!std::isfinite(got)) {
        if (stats.firstBad < 0)
          stats.firstBad = index;
        ++stats.nonFinite;
        continue;
      }
      double d = got - want;
      diff2 += d * d;
      ref2 += want * want;
      stats.maxAbsolute = std::max(stats.maxAbsolute, std::fabs(d));
    }
  stats.relative = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  return stats;
}

double klx::rt::errorThreshold(DType, DType out) {
  // f32 sums of K exact products: at most about K x 2^-24 relative in the
  // worst case (4.9e-4 at K = 8192), typically sqrt(K) x 2^-24. A missing
  // k step or tile is off by far more (1/sqrt(k steps) or 1). Rounding D
  // to bf16 or f16 adds at most 2^-9 or 2^-12 per element (half an ulp);
  // twice that leaves room.
  double rounding = out == DType::BF16  ? 0x1p-8
                    : out == DType::F16 ? 0x1p-10
                                        : 0.0;
  return 1e-3 + rounding;
}

void klx::rt::toFloats(const std::vector<uint8_t> &bytes, DType dtype,
                       std::vector<float> &out) {
  unsigned width = dtypeBytes(dtype);
  out.resize(bytes.size() / width);
  for (size_t i = 0; i < out.size(); ++i) {
    if (width == 4) {
      std::memcpy(&out[i], &bytes[4 * i], 4);
      continue;
    }
    uint16_t bits;
    std::memcpy(&bits, &bytes[2 * i], 2);
    out[i] = toFloat(bits, dtype);
  }
}

std::vector<int64_t> klx::rt::rowsToCheck(const ProblemSize &size) {
  constexpr double kCpuFlopBudget = 8.6e9; // 2MNK checked in full
  constexpr int kSampledRows = 16;
  std::vector<int64_t> rows;
  if (2.0 * size.m * size.n * size.k <= kCpuFlopBudget) {
    for (int64_t r = 0; r < size.m; ++r)
      rows.push_back(r);
  } else {
    for (int i = 0; i < kSampledRows; ++i)
      rows.push_back(i * (size.m - 1) / (kSampledRows - 1));
  }
  return rows;
}

unsigned klx::rt::referenceThreads(unsigned requested) {
  return requested ? requested
                   : std::max(1u, std::thread::hardware_concurrency());
}
