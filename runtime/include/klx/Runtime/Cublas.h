//===- Cublas.h - cuBLAS, loaded at run time when it is there ---*- C++ -*-===//
//
// The reference for sizes too large to check on the CPU, and the baseline
// klx's kernels are timed against. Optional: without it klx-run checks
// sampled rows on the CPU and prints no ratio.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CUBLAS_H
#define KLX_RUNTIME_CUBLAS_H

#include "klx/Runtime/CudaDriver.h"
#include "klx/Runtime/Manifest.h"

#include <memory>
#include <string>

namespace klx::rt {

class Cublas {
public:
  /// Opens $KLX_CUBLAS, else libcublas.so.13/.12 from the loader's path or
  /// /usr/local/cuda; null with the reason when none opens.
  static std::unique_ptr<Cublas> load(cu::Stream stream, std::string &error);
  ~Cublas();

  /// D (M x N of `out`, rows `ldd` apart) = A (M x K) x B (K x N),
  /// row-major, f32 accumulate, rounded to `out` as klx's kernel rounds it.
  /// Returns an empty string or the cuBLAS status.
  std::string gemm(const ProblemSize &size, DType dtype, DType out, uint64_t a,
                   uint64_t b, uint64_t d, int64_t ldd);
  const std::string &libraryPath() const { return path_; }

private:
  Cublas() = default;
  void *library_ = nullptr;
  void *handle_ = nullptr;
  std::string path_;
  int (*destroy_)(void *) = nullptr;
  int (*gemmEx_)(void *, int, int, int, int, int, const void *, const void *,
                 int, int, const void *, int, int, const void *, void *, int,
                 int, int, int) = nullptr;
};

} // namespace klx::rt

#endif // KLX_RUNTIME_CUBLAS_H
