//===- CublasLt.cpp - cuBLASLt through dlopen -----------------------------===//

#include "klx/Runtime/CublasLt.h"

#include "OpenLibrary.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <vector>

using namespace klx::rt;

namespace {
// Values from library_types.h and cublasLt.h (CUDA 13).
constexpr int kR16F = 2, kR16BF = 14, kR32F = 0;
constexpr int kCompute32F = 68;
constexpr int kDescEpilogue = 7, kDescBiasPointer = 8, kDescBiasType = 26;
constexpr int kPrefMaxWorkspace = 1;
constexpr int kEpilogueBias = 4, kEpilogueReluBias = 6, kEpilogueGeluBias = 36;
constexpr size_t kWorkspaceBytes = 32u << 20;

// cublasLtMatmulHeuristicResult_t: the algorithm (64 bytes), its
// workspace, status, waves and reserved words.
struct HeuristicResult {
  uint64_t algo[8];
  size_t workspaceSize;
  int state;
  float wavesCount;
  int reserved[4];
};

int typeOf(DType t) {
  return t == DType::BF16 ? kR16BF : t == DType::F16 ? kR16F : kR32F;
}

int epilogueCode(LtEpilogue e) {
  return e == LtEpilogue::GeluBias   ? kEpilogueGeluBias
         : e == LtEpilogue::ReluBias ? kEpilogueReluBias
                                     : kEpilogueBias;
}
} // namespace

struct CublasLt::Api {
  using Handle = void *;
  int (*create)(Handle *) = nullptr;
  int (*destroy)(Handle) = nullptr;
  int (*descCreate)(Handle *, int, int) = nullptr;
  int (*descDestroy)(Handle) = nullptr;
  int (*descSet)(Handle, int, const void *, size_t) = nullptr;
  int (*layoutCreate)(Handle *, int, uint64_t, uint64_t, int64_t) = nullptr;
  int (*layoutDestroy)(Handle) = nullptr;
  int (*prefCreate)(Handle *) = nullptr;
  int (*prefDestroy)(Handle) = nullptr;
  int (*prefSet)(Handle, int, const void *, size_t) = nullptr;
  int (*heuristic)(Handle, Handle, Handle, Handle, Handle, Handle, Handle, int,
                   HeuristicResult *, int *) = nullptr;
  int (*matmul)(Handle, Handle, const void *, const void *, Handle,
                const void *, Handle, const void *, const void *, Handle,
                void *, Handle, const void *, void *, size_t, void *) = nullptr;
  Handle handle = nullptr, desc = nullptr, pref = nullptr;
  Handle layoutA = nullptr, layoutB = nullptr, layoutD = nullptr;
  HeuristicResult chosen{};

  template <typename F> bool bind(void *library, F &fn, const char *name) {
    fn = reinterpret_cast<F>(dlsym(library, name));
    return fn != nullptr;
  }
  bool bindAll(void *l) {
    return bind(l, create, "cublasLtCreate") &&
           bind(l, destroy, "cublasLtDestroy") &&
           bind(l, descCreate, "cublasLtMatmulDescCreate") &&
           bind(l, descDestroy, "cublasLtMatmulDescDestroy") &&
           bind(l, descSet, "cublasLtMatmulDescSetAttribute") &&
           bind(l, layoutCreate, "cublasLtMatrixLayoutCreate") &&
           bind(l, layoutDestroy, "cublasLtMatrixLayoutDestroy") &&
           bind(l, prefCreate, "cublasLtMatmulPreferenceCreate") &&
           bind(l, prefDestroy, "cublasLtMatmulPreferenceDestroy") &&
           bind(l, prefSet, "cublasLtMatmulPreferenceSetAttribute") &&
           bind(l, heuristic, "cublasLtMatmulAlgoGetHeuristic") &&
           bind(l, matmul, "cublasLtMatmul");
  }
};

std::unique_ptr<CublasLt>
CublasLt::load(cu::Stream stream, const ProblemSize &size, DType dtype,
               DType out, int64_t ldd, LtEpilogue epilogue,
               const cu::Driver &driver, std::string &error) {
  OpenedLibrary opened = openFirstLibrary(
      "KLX_CUBLASLT",
      {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so",
       "/usr/local/cuda/lib64/libcublasLt.so.13",
       "/usr/local/cuda/lib64/libcublasLt.so.12"});
  if (!opened.handle) {
    error = "no cuBLASLt (tried $KLX_CUBLASLT, else libcublasLt.so.13, .12 "
            "and /usr/local/cuda/lib64; " +
            opened.why + ")";
    return nullptr;
  }
  std::unique_ptr<CublasLt> lt(new CublasLt());
  lt->api_ = std::make_unique<Api>();
  lt->stream_ = stream;
  lt->driver_ = &driver;
  lt->library_ = opened.handle;
  lt->path_ = opened.path;
  Api &api = *lt->api_;
  if (!api.bindAll(lt->library_)) {
    error = lt->path_ + " lacks a cublasLt function klx-run calls";
    return nullptr;
  }
  int code = epilogueCode(epilogue);
  int64_t workspace = kWorkspaceBytes;
  // Column-major cuBLASLt sees row-major D^T = B^T x A^T: N x M from B (N x
  // K, leading dimension N) and A (K x M, leading dimension K); its bias
  // runs along D^T's rows, D's columns.
  // The bias in f32, as klx's kernels read it; where cuBLASLt takes no f32
  // bias with this D, in D's type (the caller converts it: biasType()).
  int status = 0, found = 0;
  for (DType bias : {DType::F32, out}) {
    status = 0;
    found = 0;
    auto step = [&](int s) { return status == 0 ? (status = s) : status; };
    int biasType = typeOf(bias);
    if (!api.handle)
      step(api.create(&api.handle));
    if (!api.desc) {
      step(api.descCreate(&api.desc, kCompute32F, kR32F));
      step(api.layoutCreate(&api.layoutA, typeOf(dtype), uint64_t(size.n),
                            uint64_t(size.k), size.n));
      step(api.layoutCreate(&api.layoutB, typeOf(dtype), uint64_t(size.k),
                            uint64_t(size.m), size.k));
      step(api.layoutCreate(&api.layoutD, typeOf(out), uint64_t(size.n),
                            uint64_t(size.m), ldd));
      step(api.prefCreate(&api.pref));
      step(api.prefSet(api.pref, kPrefMaxWorkspace, &workspace,
                       sizeof workspace));
    }
    step(api.descSet(api.desc, kDescEpilogue, &code, sizeof code));
    step(api.descSet(api.desc, kDescBiasType, &biasType, sizeof biasType));
    step(api.heuristic(api.handle, api.desc, api.layoutA, api.layoutB,
                       api.layoutD, api.layoutD, api.pref, 1, &api.chosen,
                       &found));
    lt->biasType_ = bias;
    if (status == 0 && found > 0)
      break;
  }
  if (status != 0 || found == 0) {
    error = "cuBLASLt has no " + std::string(ltEpilogueName(epilogue)) +
            " matmul for this problem (status " + std::to_string(status) +
            ", " + std::to_string(found) + " algorithms, bias in f32 or " +
            dtypeName(out) + ")";
    return nullptr;
  }
  if (driver.memAlloc(&lt->workspace_, kWorkspaceBytes) != 0) {
    error = "cannot allocate cuBLASLt's workspace";
    return nullptr;
  }
  return lt;
}

CublasLt::~CublasLt() {
  if (!api_)
    return;
  Api &api = *api_;
  if (workspace_ && driver_)
    driver_->memFree(workspace_);
  for (auto [destroy, handle] : {std::pair{api.layoutDestroy, api.layoutA},
                                 {api.layoutDestroy, api.layoutB},
                                 {api.layoutDestroy, api.layoutD},
                                 {api.prefDestroy, api.pref},
                                 {api.descDestroy, api.desc},
                                 {api.destroy, api.handle}})
    if (destroy && handle)
      destroy(handle);
  // The library stays loaded, as cuBLAS does.
}

std::string CublasLt::matmul(uint64_t a, uint64_t b, uint64_t bias,
                             uint64_t d) {
  Api &api = *api_;
  float alpha = 1.0f, beta = 0.0f;
  void *biasPointer = reinterpret_cast<void *>(bias);
  int status =
      api.descSet(api.desc, kDescBiasPointer, &biasPointer, sizeof biasPointer);
  if (status == 0)
    status = api.matmul(
        api.handle, api.desc, &alpha, reinterpret_cast<void *>(b), api.layoutA,
        reinterpret_cast<void *>(a), api.layoutB, &beta,
        reinterpret_cast<void *>(d), api.layoutD, reinterpret_cast<void *>(d),
        api.layoutD, api.chosen.algo, reinterpret_cast<void *>(workspace_),
        kWorkspaceBytes, stream_);
  return status ? "cublasLtMatmul failed with status " + std::to_string(status)
                : "";
}
