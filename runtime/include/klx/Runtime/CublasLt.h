//===- CublasLt.h - cuBLASLt's fused epilogues, loaded at run time -*- C++
//-*-===//
//
// The like-for-like reference of a kernel that computes on its
// accumulators: one cuBLASLt matmul with the same epilogue (a bias per
// column, then ReLU or GELU) and D in the kernel's type. Optional, as
// cuBLAS is: without it klx-run checks on the CPU and times nothing
// against it.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_CUBLASLT_H
#define KLX_RUNTIME_CUBLASLT_H

#include "klx/Runtime/CudaDriver.h"
#include "klx/Runtime/Epilogue.h"
#include "klx/Runtime/Manifest.h"

#include <memory>
#include <string>

namespace klx::rt {

class CublasLt {
public:
  /// Opens $KLX_CUBLASLT, else libcublasLt.so.13/.12 from the loader's path
  /// or /usr/local/cuda, and plans D (M x N of `out`, rows `ldd` apart) =
  /// epilogue(A x B + bias): null with the reason when it cannot.
  static std::unique_ptr<CublasLt>
  load(cu::Stream stream, const ProblemSize &size, DType dtype, DType out,
       int64_t ldd, LtEpilogue epilogue, const cu::Driver &driver,
       std::string &error);
  ~CublasLt();

  /// The bias's type cuBLASLt takes: f32, or where it takes no f32 bias
  /// with this D, D's type.
  DType biasType() const { return biasType_; }

  /// One launch on the stream; an empty string or the cuBLASLt status.
  std::string matmul(uint64_t a, uint64_t b, uint64_t bias, uint64_t d);
  const std::string &libraryPath() const { return path_; }

private:
  CublasLt() = default;
  struct Api;
  std::unique_ptr<Api> api_;
  void *library_ = nullptr;
  std::string path_;
  cu::Stream stream_ = nullptr;
  const cu::Driver *driver_ = nullptr;
  cu::DevicePtr workspace_ = 0;
  DType biasType_ = DType::F32;
};

} // namespace klx::rt

#endif // KLX_RUNTIME_CUBLASLT_H
