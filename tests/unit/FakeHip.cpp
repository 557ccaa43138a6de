//===- FakeHip.cpp - A stand-in for libamdhip64.so in tests ---------------===//
//
// Exports the HIP entry points klx-run resolves, with host memory for
// device memory and a CPU GEMM for the kernel, so that the AMD runner's
// paths run where there is no AMD GPU. $KLX_FAKE_HIP picks the behaviour:
// "runs" (D = A x B from the kernel's memref arguments, f16), "wrong"
// (D = 0), "no_device", "bad_image" (the code object is refused), "hang"
// (the stream never drains).
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/HipRuntime.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string mode() {
  const char *m = std::getenv("KLX_FAKE_HIP");
  return m ? m : "runs";
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 31, mantissa = h & 1023;
  float value;
  if (exponent == 0)
    value = std::ldexp(float(mantissa), -24);
  else if (exponent == 31)
    value = mantissa ? NAN : INFINITY;
  else
    value = std::ldexp(float(mantissa | 1024), int(exponent) - 25);
  return sign ? -value : value;
}

int moduleToken, functionToken, streamToken;

} // namespace

// The declarations klx-run calls through (HipRuntime.h), so that each
// call matches its callee's type exactly (UBSan's function check).
using namespace klx::rt::hip;

extern "C" {

int hipInit(unsigned) { return mode() == "no_device" ? 100 : 0; }
int hipGetDeviceCount(int *count) {
  *count = 1;
  return 0;
}
int hipSetDevice(int) { return 0; }
int hipDeviceGetName(char *name, int length, int) {
  std::strncpy(name, "Fake AMD GPU (klx tests)", size_t(length));
  return 0;
}
int hipModuleLoadData(Module *module, const void *image) {
  if (mode() == "bad_image")
    return 200;
  if (std::memcmp(image,
                  "\x7f"
                  "ELF",
                  4) != 0)
    return 200;
  *module = reinterpret_cast<Module>(&moduleToken);
  return 0;
}
int hipModuleUnload(Module) { return 0; }
int hipModuleGetFunction(Function *function, Module, const char *) {
  *function = reinterpret_cast<Function>(&functionToken);
  return 0;
}
int hipMalloc(void **ptr, size_t bytes) {
  *ptr = std::malloc(bytes);
  return *ptr ? 0 : 2;
}
int hipFree(void *ptr) {
  std::free(ptr);
  return 0;
}
int hipMemcpyHtoD(DevicePtr dst, void *src, size_t bytes) {
  std::memcpy(dst, src, bytes);
  return 0;
}
int hipMemcpyDtoH(void *dst, DevicePtr src, size_t bytes) {
  std::memcpy(dst, src, bytes);
  return 0;
}
int hipMemsetD32(DevicePtr dst, int value, size_t count) {
  for (size_t i = 0; i < count; ++i)
    std::memcpy(static_cast<char *>(dst) + 4 * i, &value, 4);
  return 0;
}
int hipStreamCreate(Stream *stream) {
  *stream = reinterpret_cast<Stream>(&streamToken);
  return 0;
}
int hipStreamDestroy(Stream) { return 0; }
int hipStreamQuery(Stream) { return mode() == "hang" ? 600 : 0; }
int hipEventCreate(Event *event) {
  *event = reinterpret_cast<Event>(new double(0));
  return 0;
}
int hipEventDestroy(Event event) {
  delete reinterpret_cast<double *>(event);
  return 0;
}
int hipEventRecord(Event event, Stream) {
  *reinterpret_cast<double *>(event) =
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count();
  return 0;
}
int hipEventSynchronize(Event) { return 0; }
int hipEventElapsedTime(float *ms, Event start, Event end) {
  *ms = float(*reinterpret_cast<double *>(end) -
              *reinterpret_cast<double *>(start));
  return 0;
}
/// The klx-to-amdgpu kernel's signature: A, B, D as memrefs of rank 2
/// (allocated, aligned, offset, 2 sizes, 2 strides), then M, N, K.
int hipModuleLaunchKernel(Function, unsigned, unsigned, unsigned, unsigned,
                          unsigned, unsigned, unsigned, Stream, void **params,
                          void **) {
  auto word = [&](int i) { return *static_cast<uint64_t *>(params[i]); };
  auto *a = reinterpret_cast<const uint16_t *>(word(1));
  auto *b = reinterpret_cast<const uint16_t *>(word(8));
  auto *d = reinterpret_cast<float *>(word(15));
  int64_t lda = int64_t(word(5)), ldb = int64_t(word(12)),
          ldd = int64_t(word(19));
  int64_t m = int64_t(word(21)), n = int64_t(word(22)), k = int64_t(word(23));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      double sum = 0;
      if (mode() != "wrong")
        for (int64_t i = 0; i < k; ++i)
          sum += double(halfToFloat(a[r * lda + i])) *
                 double(halfToFloat(b[i * ldb + c]));
      d[r * ldd + c] = float(sum);
    }
  return 0;
}
const char *hipGetErrorName(int error) {
  switch (error) {
  case 100:
    return "hipErrorNoDevice";
  case 200:
    return "hipErrorInvalidImage";
  default:
    return "hipErrorUnknown";
  }
}
const char *hipGetErrorString(int error) {
  return error == 200 ? "device kernel image is invalid" : "fake error";
}

} // extern "C"
