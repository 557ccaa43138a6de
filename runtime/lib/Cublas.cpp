//===- Cublas.cpp - cuBLAS through dlopen ---------------------------------===//

#include "klx/Runtime/Cublas.h"

#include "OpenLibrary.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace klx::rt;

namespace {
// cudaDataType and cublasComputeType_t values from library_types.h and
// cublas_api.h.
constexpr int kR16F = 2, kR16BF = 14, kR32F = 0;
constexpr int kCompute32F = 68;
constexpr int kGemmDefault = -1;
constexpr int kOpN = 0;
} // namespace

std::unique_ptr<Cublas> Cublas::load(cu::Stream stream, std::string &error) {
  OpenedLibrary opened = openFirstLibrary(
      "KLX_CUBLAS", {"libcublas.so.13", "libcublas.so.12", "libcublas.so",
                     "/usr/local/cuda/lib64/libcublas.so.13",
                     "/usr/local/cuda/lib64/libcublas.so.12",
                     "/usr/local/cuda/lib64/libcublas.so"});
  if (!opened.handle) {
    error = "no cuBLAS (tried $KLX_CUBLAS, else libcublas.so.13, .12 and "
            "/usr/local/cuda/lib64; " +
            opened.why + ")";
    return nullptr;
  }
  std::unique_ptr<Cublas> blas(new Cublas());
  blas->library_ = opened.handle;
  blas->path_ = opened.path;
  auto create = reinterpret_cast<int (*)(void **)>(
      dlsym(blas->library_, "cublasCreate_v2"));
  auto setStream = reinterpret_cast<int (*)(void *, void *)>(
      dlsym(blas->library_, "cublasSetStream_v2"));
  blas->destroy_ = reinterpret_cast<int (*)(void *)>(
      dlsym(blas->library_, "cublasDestroy_v2"));
  blas->gemmEx_ = reinterpret_cast<decltype(blas->gemmEx_)>(
      dlsym(blas->library_, "cublasGemmEx"));
  if (!create || !setStream || !blas->destroy_ || !blas->gemmEx_) {
    error = blas->path_ + " lacks cublasCreate_v2, cublasSetStream_v2 or "
                          "cublasGemmEx";
    return nullptr;
  }
  if (int status = create(&blas->handle_)) {
    error = "cublasCreate_v2 failed with status " + std::to_string(status);
    blas->handle_ = nullptr;
    return nullptr;
  }
  if (int status = setStream(blas->handle_, stream)) {
    error = "cublasSetStream_v2 failed with status " + std::to_string(status);
    return nullptr;
  }
  return blas;
}

Cublas::~Cublas() {
  if (handle_ && destroy_)
    destroy_(handle_);
  // The library stays loaded: cuBLAS registers exit handlers.
}

std::string Cublas::gemm(const ProblemSize &size, DType dtype, DType out,
                         uint64_t a, uint64_t b, uint64_t d, int64_t ldd) {
  // Column-major cuBLAS sees row-major D^T = B^T x A^T: an N x M result
  // from B (N x K, leading dimension N) and A (K x M, leading dimension K).
  float alpha = 1.0f, beta = 0.0f;
  int type = dtype == DType::BF16 ? kR16BF : kR16F;
  int outType = out == DType::BF16 ? kR16BF : out == DType::F16 ? kR16F : kR32F;
  int status = gemmEx_(handle_, kOpN, kOpN, int(size.n), int(size.m),
                       int(size.k), &alpha, reinterpret_cast<void *>(b), type,
                       int(size.n), reinterpret_cast<void *>(a), type,
                       int(size.k), &beta, reinterpret_cast<void *>(d), outType,
                       int(ldd), kCompute32F, kGemmDefault);
  return status ? "cublasGemmEx failed with status " + std::to_string(status)
                : "";
}
