//===- RuntimeTest.cpp - klx-run without a GPU ----------------------------===//
//
// What the runner does before and around the driver: manifest parsing and
// its errors, argument packing, grids, tensor-map requests, the reference
// math, and the "no CUDA device" path.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/CriticalPath.h"
#include "klx/Runtime/CudaDriver.h"
#include "klx/Runtime/HostMath.h"
#include "klx/Runtime/Json.h"
#include "klx/Runtime/Launch.h"
#include "klx/Runtime/Manifest.h"
#include "klx/Runtime/Runner.h"
#include "klx/Runtime/Trace.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

using namespace klx::rt;

namespace {

// What klx export writes for gemm_ws_persistent (trimmed of optional
// fields).
const char *const kManifest = R"({
  "klx_bundle": 1, "target": "sm_90a", "binary": "kernel.cubin",
  "entry": "gemm", "block": [384, 1, 1], "cluster": [1, 1, 1],
  "dynamic_shared_memory": 133120, "grid": "persistent",
  "tile": [128, 128, 64],
  "problem": {"kind": "gemm", "dtype": "f16", "M": 2048, "N": 1024, "K": 512},
  "params": [
    {"name": "A", "kind": "tensor_map", "dtype": "f16", "box": [128, 64], "swizzle": 128},
    {"name": "B", "kind": "tensor_map", "dtype": "f16", "box": [64, 64], "swizzle": 128},
    {"name": "D", "kind": "memref", "dtype": "f32", "rank": 2},
    {"name": "M", "kind": "scalar"}, {"name": "N", "kind": "scalar"},
    {"name": "K", "kind": "scalar"}],
  "abi": ["ptr", "ptr", "ptr", "ptr", "i64", "i64", "i64", "i64", "i64",
          "i64", "i64", "i64"],
  "defines": {"stages": "3"},
  "resources": {"registers": 168}
})";

std::string replaced(std::string text, const std::string &from,
                     const std::string &to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string manifestError(const std::string &text) {
  std::string error;
  CHECK_FALSE(parseManifest(text, error));
  return error;
}

} // namespace

TEST_CASE("JSON: values, escapes and error positions", "[runtime]") {
  JsonError error;
  std::optional<Json> v = parseJson(
      R"({"a": [1, -2.5e1, true, null], "s": "x\n\u00e9\ud83d\ude00"})", error);
  REQUIRE(v);
  REQUIRE((*v)["a"].size() == 4);
  CHECK((*v)["a"][1].get<double>() == -25);
  CHECK(kindOf((*v)["a"][3]) == JsonKind::Null);
  CHECK((*v)["s"] == "x\n\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(member(*v, "b") == nullptr);
  CHECK(member((*v)["a"], "a") == nullptr);

  CHECK_FALSE(parseJson("{\"a\": 1,\n  \"b\" 2}", error));
  CHECK(error.line == 2);
  CHECK(error.column == 7);
  CHECK(error.message.find("expected ':'") != std::string::npos);
  CHECK_FALSE(parseJson("[1, 2", error));
  CHECK(error.column == 6);
  CHECK(error.message.find("unexpected end of input") != std::string::npos);
  CHECK_FALSE(parseJson("{\"a\": 1, \"a\": 2}", error));
  CHECK(error.message == "duplicate key \"a\"");
  CHECK_FALSE(
      parseJson(R"({"p": {"m": 1, "n": 2}, "q": {"m": 1, "m": 2}})", error));
  CHECK(error.message == "duplicate key \"q.m\"");
  // Equal keys in different objects are fine.
  CHECK(parseJson(R"({"p": {"m": 1}, "q": [{"m": 1}, {"m": 2}]})", error));
  CHECK_FALSE(parseJson(std::string(100, '['), error));
  // Past a double's range: a message, not an exception.
  CHECK_FALSE(parseJson(R"({"M": 1e400})", error));
  CHECK(error.message.find("1e400") != std::string::npos);
  // Bytes that are not UTF-8 (a child's stderr) are replaced, not thrown.
  CHECK(dumpJson(Json("a\xff")) == "\"a\xef\xbf\xbd\"");
  CHECK_FALSE(parseJson("\x01\xff", error));
  CHECK_FALSE(parseJson("", error));
  CHECK(error.line == 1);
  CHECK(error.message.find("unexpected end of input") != std::string::npos);

  std::string message;
  CHECK_FALSE(parseJsonObject("{\n\"a\": 1 x}", "manifest.json", message));
  CHECK(message.rfind("manifest.json:2:8: ", 0) == 0);
  CHECK_FALSE(parseJsonObject("[1]", "sweep.json", message));
  CHECK(message == "sweep.json: the document must be an object");

  // Members keep the order they were written in; JSON has no NaN.
  Json out;
  out["b"] = Json::array({"q\"", true});
  out["a"] = finiteOrNull(std::nan(""));
  CHECK(out.dump() == R"({"b":["q\"",true],"a":null})");
}

TEST_CASE("manifest: a bundle klx export writes", "[runtime]") {
  std::string error;
  std::optional<Manifest> m = parseManifest(kManifest, error);
  INFO(error);
  REQUIRE(m);
  CHECK(m->entry == "gemm");
  CHECK(m->persistent);
  CHECK(m->requiredCapability() == 90);
  CHECK(m->problem.m == 2048);
  CHECK(m->params.size() == 6);
  CHECK(m->params[2].abiSlots() == 7);
  CHECK(m->registers == 168);
  REQUIRE(m->defines.size() == 1);
  CHECK(m->defines[0].second == "3");
}

TEST_CASE("manifest: corrupt, missing and wrong fields", "[runtime]") {
  CHECK(manifestError(std::string(kManifest).substr(0, 60))
            .rfind("manifest.json:", 0) == 0);
  CHECK(manifestError(replaced(kManifest, R"("entry": "gemm",)", "")) ==
        "manifest.json: entry is missing");
  CHECK(manifestError(
            replaced(kManifest, R"("grid": "persistent")", R"("grid": 1)")) ==
        "manifest.json: grid must be a string, not a number");
  CHECK(manifestError(
            replaced(kManifest, R"("klx_bundle": 1)", R"("klx_bundle": 2)")) ==
        "manifest.json: klx_bundle 2 is not a format this klx-run reads (1)");
  CHECK(manifestError(replaced(kManifest, R"("block": [384, 1, 1])",
                               R"("block": [384, 1])")) ==
        "manifest.json: block must hold 3 numbers");
  CHECK(
      manifestError(replaced(kManifest, R"("abi": ["ptr", )", R"("abi": [)")) ==
      "manifest.json: params flatten to 12 kernel parameters but abi lists "
      "11");
  CHECK(manifestError(replaced(kManifest, R"("box": [128, 64])",
                               R"("box": [128, 128])")) ==
        "manifest.json: params[0].box has rows of 256 bytes, wider than the "
        "128-byte swizzle");
  CHECK(manifestError(replaced(kManifest, R"({"name": "K", "kind": "scalar"})",
                               R"({"name": "L", "kind": "scalar"})")) ==
        "manifest.json: params has no scalar K or k_tiles (the depth of the "
        "gemm)");
  CHECK(manifestError(replaced(kManifest, R"({"name": "N", "kind": "scalar"})",
                               R"({"name": "L", "kind": "scalar"})")) ==
        "manifest.json: params has scalar \"L\", which is none of M, N, K, "
        "k_tiles");
  CHECK(manifestError(replaced(kManifest, R"("name": "D", "kind": "memref")",
                               R"("name": "E", "kind": "memref")")) ==
        "manifest.json: params has no memref named D (a gemm needs A, B and "
        "D)");
  CHECK(manifestError(replaced(kManifest, R"("N": 1024)", R"("N": 1020)")) ==
        "manifest.json: problem 2048x1020x512: N and K must be multiples of "
        "8 (TMA needs row strides of A and B in multiples of 16 bytes)");
  CHECK(manifestError(replaced(kManifest, R"("binary": "kernel.cubin")",
                               R"("binary": "../x.cubin")")) ==
        "manifest.json: binary must name a file inside the bundle");
}

TEST_CASE("manifest: the simulator's verdict rides along", "[runtime]") {
  std::string error;
  std::optional<Manifest> m =
      parseManifest(replaced(kManifest, R"("defines": {"stages": "3"},)",
                             R"("defines": {"stages": "3"},
  "simulated": {"completes": false, "protocol_error": true,
                "findings": ["full: 2 arrivals per phase"],
                "blocked": ["consumer waits on full[0] for parity 0"]},)"),
                    error);
  INFO(error);
  REQUIRE(m);
  REQUIRE(m->simulated);
  CHECK_FALSE(m->simulated->completes);
  CHECK(m->simulated->findings ==
        std::vector<std::string>{"full: 2 arrivals per phase"});
  CHECK(m->simulated->blocked.size() == 1);
  CHECK_FALSE(parseManifest(kManifest, error)->simulated);
}

TEST_CASE("problem sizes: parsing and limits", "[runtime]") {
  std::optional<ProblemSize> s = parseProblemSize("8192x4096x72");
  REQUIRE(s);
  CHECK(s->m == 8192);
  CHECK(s->n == 4096);
  CHECK(s->k == 72);
  CHECK_FALSE(parseProblemSize("8192x4096"));
  CHECK_FALSE(parseProblemSize("8192x-1x64"));
  CHECK_FALSE(parseProblemSize("0x128x64"));
  CHECK_FALSE(parseProblemSize("1x2x3x4"));
  std::string error;
  Manifest m = *parseManifest(kManifest, error);
  CHECK(checkProblemSize(m, {256, 128, 72}).empty());
  CHECK(checkProblemSize(m, {1000, 136, 72}).empty()); // ragged tiles
  CHECK(checkProblemSize(m, {256, 128, 70}) ==
        "256x128x70: N and K must be multiples of 8 (TMA needs row strides "
        "of A and B in multiples of 16 bytes)");
}

TEST_CASE("arguments: memrefs flatten, sizes by name", "[runtime]") {
  std::string error;
  Manifest m = *parseManifest(kManifest, error);
  PackedArguments packed =
      packArguments(m, {2048, 1024, 512}, {0x1000, 0x1080, 0x20000});
  REQUIRE(packed.values.size() == m.abi.size());
  std::vector<uint64_t> expected = {0x1000, 0x1080, 0x20000, 0x20000,
                                    0,      2048,   1024,    1024,
                                    1,      2048,   1024,    512};
  CHECK(packed.values == expected);
  CHECK(packed.names[4] == "D.offset");
  CHECK(packed.names[7] == "D.strides[0]");
  std::vector<void *> pointers = packed.pointers();
  CHECK(*static_cast<uint64_t *>(pointers[11]) == 512);

  // A hand-written kernel may take the number of k tiles instead of K.
  Manifest counted =
      *parseManifest(replaced(kManifest, R"({"name": "K", "kind": "scalar"})",
                              R"({"name": "k_tiles", "kind": "scalar"})"),
                     error);
  CHECK(packArguments(counted, {2048, 1024, 520}, {}).values[11] == 9);

  // A ragged size: D keeps its sizes, its rows are whole tiles apart in a
  // buffer of whole tiles.
  OutputLayout layout = outputLayout(m, {1000, 136, 72});
  CHECK(layout.rows == 1024);
  CHECK(layout.rowStride == 256);
  PackedArguments ragged = packArguments(m, {1000, 136, 72}, {1, 2, 3});
  CHECK(ragged.values[5] == 1000);
  CHECK(ragged.values[6] == 136);
  CHECK(ragged.values[7] == 256);
  CHECK(ragged.values[8] == 1);
}

TEST_CASE("grids: persistent and one CTA per tile", "[runtime]") {
  std::string error;
  Manifest m = *parseManifest(kManifest, error);
  CHECK(gridFor(m, {2048, 1024, 512}, 132) ==
        std::array<unsigned, 3>{128, 1, 1});
  CHECK(gridFor(m, {8192, 8192, 512}, 132) ==
        std::array<unsigned, 3>{132, 1, 1});
  CHECK(gridFor(m, {130, 136, 64}, 132) == std::array<unsigned, 3>{4, 1, 1});
  m.persistent = false;
  CHECK(gridFor(m, {512, 768, 64}, 132) == std::array<unsigned, 3>{6, 4, 1});
  CHECK(gridFor(m, {513, 776, 64}, 132) == std::array<unsigned, 3>{7, 5, 1});
}

TEST_CASE("grids: whole clusters, as many as fit at once", "[runtime]") {
  std::string error;
  Manifest m = *parseManifest(kManifest, error);
  m.cluster = {2, 1, 1};
  m.clusterTiles = {2, 1}; // a column of two 128 x 256 tiles
  // 8192^2: 64 x 32 tiles, 32 x 32 groups; 66 clusters fit on 132 SMs.
  CHECK(gridFor(m, {8192, 8192, 512}, 132, 66) ==
        std::array<unsigned, 3>{132, 1, 1});
  // Where the driver cannot say: one cluster per smCount / size.
  CHECK(gridFor(m, {8192, 8192, 512}, 132) ==
        std::array<unsigned, 3>{132, 1, 1});
  // Fewer fit than SMs allow (GPCs): the grid is what fits, so no
  // cluster waits for a second wave.
  m.cluster = {4, 1, 1};
  m.clusterTiles = {4, 1};
  CHECK(gridFor(m, {8192, 8192, 512}, 132, 30) ==
        std::array<unsigned, 3>{120, 1, 1});
  // At most one cluster per group of tiles: 3 x 2 tiles of 128 x 128 are
  // two groups of four rows (each group's last tile lies past D, which a
  // TMA store clips).
  CHECK(gridFor(m, {300, 200, 64}, 132, 30) ==
        std::array<unsigned, 3>{8, 1, 1});
}

TEST_CASE("manifest: the cluster's tiles match its CTAs", "[runtime]") {
  std::string text = kManifest;
  std::string withCluster =
      replaced(text, "\"cluster\": [1, 1, 1],",
               "\"cluster\": [2, 1, 1], \"cluster_tiles\": [1, 2],");
  std::string error;
  std::optional<Manifest> m = parseManifest(withCluster, error);
  REQUIRE(m);
  CHECK(m->clusterTiles == std::array<int64_t, 2>{1, 2});
  std::string wrong = withCluster;
  wrong.replace(wrong.find("[1, 2]"), 6, "[2, 2]");
  CHECK_FALSE(parseManifest(wrong, error));
  CHECK(error == "manifest.json: cluster_tiles must hold one tile per CTA of "
                 "the cluster");
  // Without the key (a bundle from before clusters): one tile.
  CHECK(parseManifest(text, error)->clusterTiles ==
        std::array<int64_t, 2>{1, 1});
}

TEST_CASE("tensor maps: innermost dimension first", "[runtime]") {
  std::string error;
  Manifest m = *parseManifest(kManifest, error);
  TensorMapRequest a = tensorMapFor(m, m.params[0], {2048, 1024, 512});
  CHECK(a.dims == std::array<uint64_t, 2>{512, 2048});
  CHECK(a.rowStrideBytes == 1024);
  CHECK(a.box == std::array<unsigned, 2>{64, 128});
  CHECK(a.swizzle == cu::kSwizzle128B);
  CHECK(a.dataType == cu::kTensorFloat16);
  TensorMapRequest b = tensorMapFor(m, m.params[1], {2048, 1024, 512});
  CHECK(b.dims == std::array<uint64_t, 2>{1024, 512});
  CHECK(b.rowStrideBytes == 2048);
  CHECK(b.box == std::array<unsigned, 2>{64, 64});
}

TEST_CASE("tensor maps: D of the TMA-store epilogue", "[runtime]") {
  // D is a tensor map of 64 x 32 f32 boxes over the padded output buffer:
  // its dims are M x N (the TMA store clips there), its row stride the
  // buffer's (N rounded up to the tile).
  std::string withMapD = replaced(
      replaced(kManifest,
               R"({"name": "D", "kind": "memref", "dtype": "f32", "rank": 2})",
               R"({"name": "D", "kind": "tensor_map", "dtype": "f32",)"
               R"( "box": [64, 32], "swizzle": 128})"),
      R"("abi": ["ptr", "ptr", "ptr", "ptr", "i64", "i64", "i64", "i64", "i64",
          "i64", "i64", "i64"])",
      R"("abi": ["ptr", "ptr", "ptr", "i64", "i64", "i64"])");
  std::string error;
  std::optional<Manifest> m = parseManifest(withMapD, error);
  INFO(error);
  REQUIRE(m);
  TensorMapRequest d = tensorMapFor(*m, m->params[2], {1000, 1000, 512});
  CHECK(d.dims == std::array<uint64_t, 2>{1000, 1000});
  CHECK(d.rowStrideBytes == 1024 * 4);
  CHECK(d.box == std::array<unsigned, 2>{32, 64});
  CHECK(d.swizzle == cu::kSwizzle128B);
  CHECK(d.dataType == cu::kTensorFloat32);
  DeviceOperands operands;
  operands.tensorMapA = 0x100;
  operands.tensorMapB = 0x200;
  operands.tensorMapD = 0x300;
  operands.d = 0xdead;
  PackedArguments packed = packArguments(*m, {1000, 1000, 512}, operands);
  REQUIRE(packed.values.size() == 6);
  CHECK(packed.names[2] == "D");
  CHECK(packed.values[2] == 0x300);
  CHECK(m->outDtype == DType::F32);
  // out_dtype = bf16: 64-byte rows of 32 bf16 under a 64-byte swizzle,
  // the row stride in bf16.
  std::optional<Manifest> bf16 = parseManifest(
      replaced(withMapD, R"("dtype": "f32", "box": [64, 32], "swizzle": 128)",
               R"("dtype": "bf16", "box": [64, 32], "swizzle": 64)"),
      error);
  INFO(error);
  REQUIRE(bf16);
  CHECK(bf16->outDtype == DType::BF16);
  TensorMapRequest half =
      tensorMapFor(*bf16, bf16->params[2], {1000, 1000, 512});
  CHECK(half.rowStrideBytes == 1024 * 2);
  CHECK(half.swizzle == cu::kSwizzle64B);
  CHECK(half.dataType == cu::kTensorBFloat16);
  // D holds f32, bf16 or f16: an integer tensor map is the bundle's
  // error, and so is a memref D of anything but f32.
  CHECK(manifestError(replaced(withMapD, R"("dtype": "f32", "box")",
                               R"("dtype": "i32", "box")")) ==
        "manifest.json: params[2].dtype must be a floating-point type for a "
        "tensor map");
  CHECK(
      manifestError(replaced(
          kManifest,
          R"({"name": "D", "kind": "memref", "dtype": "f32", "rank": 2})",
          R"({"name": "D", "kind": "memref", "dtype": "bf16", "rank": 2})")) ==
      "manifest.json: params D is a memref of bf16; a memref D holds f32 "
      "(each thread stores its accumulators)");
  CHECK(manifestError(replaced(withMapD, R"("name": "D", "kind": "tensor_map")",
                               R"("name": "E", "kind": "tensor_map")")) ==
        "manifest.json: params has tensor map \"E\", which is none of A, B, D");
}

TEST_CASE("host math: f16 and bf16 round trips", "[runtime]") {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t h = uint16_t(bits);
    float f = halfToFloat(h);
    if (std::isnan(f))
      continue;
    INFO(bits);
    REQUIRE(floatToHalf(f) == h);
    REQUIRE(floatToBF16(bf16ToFloat(h)) == h);
  }
  CHECK(halfToFloat(floatToHalf(1.0f / 3)) == Approx(0.333251953125));
  CHECK(floatToHalf(1e6f) == 0x7C00);        // overflows to infinity
  CHECK(floatToBF16(1.00390625f) == 0x3F80); // a tie rounds to even
  std::vector<uint16_t> r = randomMatrix(4096, DType::F16, 7);
  float lo = 1, hi = -1;
  size_t zeros = 0;
  for (uint16_t v : r) {
    lo = std::min(lo, halfToFloat(v));
    hi = std::max(hi, halfToFloat(v));
    zeros += halfToFloat(v) == 0;
  }
  CHECK(lo >= -1.0f);
  CHECK(hi <= 1.0f);
  CHECK(hi - lo > 1.9f);
  CHECK(zeros < 8);
  CHECK(randomMatrix(16, DType::F16, 7) ==
        std::vector<uint16_t>(r.begin(), r.begin() + 16));
}

TEST_CASE("host math: reference and relative error", "[runtime]") {
  // A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]]: D = [[19, 22], [43, 50]].
  std::vector<uint16_t> a, b;
  for (float v : {1, 2, 3, 4})
    a.push_back(floatToHalf(v));
  for (float v : {5, 6, 7, 8})
    b.push_back(floatToHalf(v));
  std::vector<double> ref =
      referenceRows(a, b, DType::F16, {2, 2, 2}, {0, 1}, 2);
  CHECK(ref == std::vector<double>{19, 22, 43, 50});
  std::vector<double> second =
      referenceRows(a, b, DType::F16, {2, 2, 2}, {1}, 1);
  CHECK(second == std::vector<double>{43, 50});

  std::vector<float> out = {19, 22, 43, 50};
  ErrorStats exact = compareRows(out, ref, 2, {0, 1});
  CHECK(exact.relative == 0);
  CHECK(exact.checked == 4);
  out[3] = 51; // off by 1 of norm sqrt(19^2 + 22^2 + 43^2 + 50^2)
  ErrorStats off = compareRows(out, ref, 2, {0, 1});
  CHECK(off.relative ==
        Approx(1 / std::sqrt(19.0 * 19 + 22 * 22 + 43 * 43 + 50 * 50)));
  CHECK(off.maxAbsolute == 1);
  out[1] = std::nanf("");
  ErrorStats poisoned = compareRows(out, ref, 2, {0, 1});
  CHECK(poisoned.nonFinite == 1);
  CHECK(poisoned.firstBad == 1);
  // Rows 3 apart, the padding poisoned: only the 2 x 2 inside counts.
  std::vector<float> padded = {19, 22, std::nanf(""), 43, 50, std::nanf("")};
  ErrorStats strided = compareRows(padded, ref, 2, {0, 1}, 3);
  CHECK(strided.nonFinite == 0);
  CHECK(strided.relative == 0);
  CHECK(errorThreshold(DType::BF16) == 1e-3);
  // D rounded to bf16 (8 significant bits) or f16 (11): twice half an ulp
  // more.
  CHECK(errorThreshold(DType::BF16, DType::BF16) == 1e-3 + 0x1p-8);
  CHECK(errorThreshold(DType::F16, DType::F16) == 1e-3 + 0x1p-10);
  std::vector<float> values;
  toFloats({0x80, 0x3F, 0x00, 0xC0}, DType::BF16, values); // 1, -2
  CHECK(values == std::vector<float>{1.0f, -2.0f});
  toFloats({0x00, 0x3C, 0x00, 0x38}, DType::F16, values); // 1, 0.5
  CHECK(values == std::vector<float>{1.0f, 0.5f});
}

TEST_CASE("runner: bundle errors come before the driver", "[runtime]") {
  RunOptions options;
  LaunchResult missing = runBundle("/nonexistent/bundle", options);
  CHECK(missing.status == RunStatus::BundleError);
  CHECK(exitCodeFor(missing) == 1);
  CHECK(formatText(missing).find("result: bundle_error: /nonexistent/bundle/"
                                 "manifest.json: cannot read it") !=
        std::string::npos);
}

TEST_CASE("runner: no driver means no CUDA device, exit 2", "[runtime]") {
  setenv("KLX_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
  std::string error;
  CHECK(cu::loadDriver(error) == nullptr);
  CHECK(error.rfind("no CUDA device: the driver does not load: "
                    "/nonexistent/libcuda.so.1",
                    0) == 0);
  unsetenv("KLX_LIBCUDA");
  LaunchResult result;
  result.status = RunStatus::NoDevice;
  CHECK(exitCodeFor(result) == 2);
  result.status = RunStatus::Hang;
  CHECK(exitCodeFor(result) == 3);
  result.status = RunStatus::KernelFault;
  CHECK(exitCodeFor(result) == 1);
}

TEST_CASE("timing summary: median and spread", "[runtime]") {
  Timing t = summarize({3, 1, 2, 10});
  CHECK(t.median == 2.5);
  CHECK(t.min == 1);
  CHECK(t.max == 10);
  CHECK(summarize({4, 1, 2}).median == 2);
}

TEST_CASE("manifest: the instrumented build", "[runtime]") {
  std::string withTrace = replaced(kManifest, R"("defines": {"stages": "3"},)",
                                   R"("defines": {"stages": "3"},
  "trace": {"binary": "kernel.trace.cubin", "format": 2, "ctas": 0,
            "cta_list": [], "warps": 12, "clock": "clock64",
            "warp_roles": ["consumer", "producer"],
            "params": [
    {"name": "A", "kind": "tensor_map", "dtype": "f16", "box": [128, 64], "swizzle": 128},
    {"name": "B", "kind": "tensor_map", "dtype": "f16", "box": [64, 64], "swizzle": 128},
    {"name": "D", "kind": "memref", "dtype": "f32", "rank": 2},
    {"name": "M", "kind": "scalar"}, {"name": "N", "kind": "scalar"},
    {"name": "K", "kind": "scalar"},
    {"name": "trace", "kind": "trace", "ctas": 0, "warps": 12, "format": 2}],
            "abi": ["ptr", "ptr", "ptr", "ptr", "i64", "i64", "i64", "i64",
                    "i64", "i64", "i64", "i64", "ptr", "i64"]},)");
  std::string error;
  std::optional<Manifest> m = parseManifest(withTrace, error);
  INFO(error);
  REQUIRE(m);
  REQUIRE(m->trace);
  CHECK(m->trace->ctas == 0); // every CTA
  CHECK(m->trace->warps == 12);
  CHECK(m->trace->warpRoles.size() == 2);
  DeviceOperands operands{1, 2, 3, 0xbeef};
  operands.traceEvents = 777;
  PackedArguments packed =
      packArguments(*m, m->trace->params, {2048, 1024, 512}, operands);
  REQUIRE(packed.values.size() == 14);
  CHECK(packed.values[12] == 0xbeef);
  CHECK(packed.values[13] == 777);
  CHECK(packed.names[13] == "trace.events");
  CHECK(
      manifestError(replaced(withTrace, R"("ptr", "i64"]},)", R"("ptr"]},)")) ==
      "manifest.json: trace.params must flatten to abi and hold one trace "
      "buffer");
  // The kernel writes a slot per listed CTA: a list klx-run cannot size
  // the buffer from is refused.
  CHECK(manifestError(replaced(withTrace, R"("cta_list": [],)",
                               R"("cta_list": [3, -1],)")) ==
        "manifest.json: trace.cta_list must hold at most 64 block ids (whole "
        "numbers from 0)");
  // A bundle exported before the whole-kernel layout says to export again.
  CHECK(manifestError(replaced(withTrace, R"("format": 2, )", "")) ==
        "manifest.json: trace.format is 1: the bundle's trace buffer is laid "
        "out as an older klx wrote it; this klx-run reads formats 2 to 3 "
        "(export the bundle again)");
  // Format 3 (releases stamped late) is read as well.
  CHECK(parseManifest(
      replaced(withTrace, R"("format": 2, )", R"("format": 3, )"), error));
  // One from a newer klx: its klx-run reads it.
  CHECK(manifestError(
            replaced(withTrace, R"("format": 2, )", R"("format": 4, )")) ==
        "manifest.json: trace.format is 4: the bundle's trace buffer is laid "
        "out as a newer klx wrote it; this klx-run reads formats 2 to 3 (run "
        "it with that klx's klx-run)");

  // The buffer: every CTA of the grid, room for each CTA's tiles' k steps.
  m->tile = {128, 256, 64};
  TraceLayout layout =
      traceLayoutFor(*m, *m->trace, {8192, 8192, 8192}, {132, 1, 1});
  CHECK(layout.slots == 132);
  CHECK(layout.warps == 12);
  CHECK(layout.capacity == traceCapacityFor(16, 128)); // 2048 tiles
  m->trace->ctas = 2;
  CHECK(traceLayoutFor(*m, *m->trace, {8192, 8192, 8192}, {132, 1, 1}).slots ==
        2);
  m->trace->ctaList = {5, 9, 200};
  CHECK(traceLayoutFor(*m, *m->trace, {8192, 8192, 8192}, {132, 1, 1}).slots ==
        3);
  CHECK(manifestError(
            replaced(withTrace, R"("binary": "kernel.trace.cubin",)", "")) ==
        "manifest.json: trace.binary is missing");
  CHECK(manifestError(replaced(withTrace, R"("cta_list": [],)",
                               R"("cta_list": [3, 7, 3],)")) ==
        "manifest.json: trace.cta_list names block 3 twice (klx export "
        "lists each once)");
}
