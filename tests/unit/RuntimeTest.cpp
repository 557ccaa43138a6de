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

namespace {

/// A passed gemm with every part of the report: cuBLAS checked and timed,
/// a trace recorded twice with its roles' waits.
LaunchResult tracedGemmResult() {
  LaunchResult r;
  r.device = "NVIDIA H100 80GB HBM3";
  r.capability = 90;
  r.smCount = 132;
  r.clockKHz = 1980000;
  r.peakTflops = 1070.4;
  r.peakFormula = "132 SMs x 4096 flop/clk x 1980 MHz";
  r.entry = "gemm";
  r.size = {2048, 2048, 2048};
  r.dtype = DType::BF16;
  r.grid = {132, 1, 1};
  r.block = {384, 1, 1};
  r.dynamicSharedBytes = 197632;
  r.inputSets = 4;
  r.threshold = 1e-3;
  r.cpuCheck.checked = 2048 * 64;
  r.cpuCheck.relative = 2e-7;
  r.cpuRows = 64;
  r.blasChecked = true;
  r.blasCheck.checked = 2048 * 2048;
  r.kernel = {{0.03, 0.029, 0.031}, 0.0300, 0.0290, 0.0310};
  r.blasTimed = true;
  r.blas = {{0.028}, 0.0280, 0.0280, 0.0280};
  r.kernelAlternating = {{0.0301}, 0.0301, 0.0301, 0.0301};
  r.traced = true;
  r.tracePath = "/tmp/t.json";
  r.traceEvents = 36296;
  r.traceDropped = 3;
  r.traceWarps = 1536;
  r.traceCtas = 128;
  r.traceSms = 128;
  r.traceCapacity = 216;
  r.traceFirstCapacity = 120;
  r.traceRecordedAgain = true;
  r.tracedKernel = {{0.0306}, 0.0306, 0.0306, 0.0306};
  r.traceOutputChecked = 2048 * 2048;
  r.waitingShare = {{"consumer", 0.19}, {"producer", 0.11}};
  return r;
}

/// A gather that hung, with what the simulator said of it.
LaunchResult hungGatherResult() {
  LaunchResult r;
  r.status = RunStatus::Hang;
  r.message = "the kernel did not finish within 10000 ms";
  r.simulated = {"completes in 812 cycles"};
  r.device = "NVIDIA H100 80GB HBM3";
  r.capability = 90;
  r.smCount = 132;
  r.clockKHz = 1980000;
  r.peakGBs = 3352;
  r.entry = "gather";
  r.gather = "y[i] = x[idx[i] + 2] + 1";
  r.gatherBytes = 12 << 20;
  r.size = {1 << 20, 1, 1};
  r.grid = {4096, 1, 1};
  r.block = {256, 1, 1};
  r.cpuCheck.checked = 1 << 20;
  r.kernel = {{0.01}, 0.0100, 0.0100, 0.0100};
  return r;
}

} // namespace

TEST_CASE("runner: the text report, line by line", "[runtime]") {
  CHECK(
      formatText(tracedGemmResult()) ==
      "device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 1980 MHz)\n"
      "launch: gemm 2048x2048x2048 bf16, grid (132,1,1), block 384, 197632 "
      "bytes dynamic shared memory, 4 input set(s) rotated\n"
      "check: 64 of 2048 rows vs CPU (double): rel. error 2.00e-07, max abs "
      "0.00e+00, 0 non-finite of 131072\n"
      "check: every element vs cuBLAS: rel. error 0.00e+00, max abs 0.00e+00, "
      "0 non-finite of 4194304\n"
      "check: threshold 1.0e-03 (f32 sums of exact products)\n"
      "time: median 0.0300 ms (min 0.0290, max 0.0310, 3 runs)\n"
      "throughput: 572.7 TFLOP/s, 1118.5 GB/s, 53.5% of peak 1070 TFLOP/s (132 "
      "SMs x 4096 flop/clk x 1980 MHz)\n"
      "cuBLAS: median 0.0280 ms, 613.6 TFLOP/s; alternating launch by launch, "
      "klx 570.8 TFLOP/s: klx / cuBLAS = 0.93x\n"
      "trace: 36296 events from 1536 warps of 128 CTAs on 128 SMs -> "
      "/tmp/t.json\n"
      "trace: the instrumented build's D equals the kernel's, bit for bit "
      "(4194304 elements, the tiles' padding included)\n"
      "trace: buffers of 216 events per warp (a warp filled the first "
      "estimate, 120, so the kernel was recorded again with room for the most "
      "one warp recorded); 3 events past a full buffer were counted, not "
      "written\n"
      "trace: instrumentation overhead +2.0% (median 0.0306 ms vs 0.0300 ms)\n"
      "trace: consumer waits on barriers 19% of its time\n"
      "trace: producer waits on barriers 11% of its time\n"
      "result: passed\n");
  CHECK(formatText(hungGatherResult()) ==
        "device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 1980 MHz)\n"
        "launch: gather 1048576x1x1 f16, grid (4096,1,1), block 256, 0 bytes "
        "dynamic shared memory, 1 input set(s) rotated\n"
        "gather: y[i] = x[idx[i] + 2] + 1\n"
        "check: every element vs CPU (f32, exact): rel. error 0.00e+00, max "
        "abs 0.00e+00, 0 non-finite of 1048576\n"
        "time: median 0.0100 ms (min 0.0100, max 0.0100, 1 runs)\n"
        "throughput: 1258.3 GB/s (13 MB read and written per launch), 37.5% of "
        "the DRAM peak 3352 GB/s\n"
        "result: hang: the kernel did not finish within 10000 ms\n"
        "simulator: completes in 812 cycles\n");
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

namespace {

/// An event word as the kernel writes it: clock64's low 32 bits, stage,
/// kind.
int64_t eventWord(int64_t clock, TraceKind kind, int stage, int pipeline = 0) {
  return int64_t(uint64_t(clock) << 32) | int64_t(pipeline) << 24 |
         int64_t(stage) << 8 | int64_t(kind);
}

/// A CTA's header (BundleFormat.h): stamps at start and end, SM, id + 1.
std::vector<int64_t> ctaHeader(int64_t startNs, int64_t startClock,
                               int64_t endNs, int64_t endClock, int sm,
                               int cta) {
  return {startNs, startClock, endNs, endClock, sm, cta + 1};
}

} // namespace

TEST_CASE("trace: decoding a buffer and writing Chrome trace JSON",
          "[runtime]") {
  // 2 CTA slots of 2 warps, room for 3 events each. CTA 4 on SM 7 ran
  // 1000 cycles in 2000 ns (2 ns a cycle); its warp 0 waited 50 cycles on
  // full[1], then issued its MMA; warp 1 recorded 5 events (2 past the
  // buffer: its count word says 5), one of an unknown kind. CTA 9 on SM 3
  // started 500 ns later, its clock near 2^32 (the low 32 bits wrap), and
  // has no end stamp (the device's 1 GHz clock is used). globaltimer
  // counts nanoseconds since 1970: at that size a double holds only
  // multiples of 256 ns, so the times must be made relative first.
  const int64_t epoch = int64_t(1764250000123456789);
  TraceLayout layout{2, 2, 3};
  CHECK(layout.ctaWords() == kTraceHeaderWords + 2 * 4);
  std::vector<int64_t> buffer;
  auto append = [&](std::vector<int64_t> words) {
    buffer.insert(buffer.end(), words.begin(), words.end());
  };
  append(ctaHeader(epoch + 10000, 5000, epoch + 12000, 6000, 7, 4));
  append({0, eventWord(5050, TraceKind::WaitFullBegin, 1),
          eventWord(5100, TraceKind::WaitFullEnd, 1),
          eventWord(5160, TraceKind::MmaIssue, 1)});
  append({5, eventWord(5200, TraceKind::CopyIssue, 2),
          int64_t(uint64_t(5210) << 32 | 99),
          eventWord(5220, TraceKind::ReleaseEmpty, 0)});
  int64_t late = (int64_t(1) << 32) - 10;
  append(ctaHeader(epoch + 10500, late, 0, 0, 3, 9));
  append({0, eventWord(late + 20, TraceKind::WaitEmptyBegin, 0), 0, 0});
  append({0, 0, 0, 0}); // warp 1 recorded nothing
  REQUIRE(buffer.size() == size_t(layout.words()));

  DecodedTrace trace =
      decodeTrace(buffer, layout, {"consumer", "producer"}, 1e6);
  CHECK(trace.unknown == 1);
  CHECK(trace.mostRecorded == 5);
  CHECK(trace.dropped() == 2);
  REQUIRE(trace.ctas.size() == 2);
  CHECK(trace.ctas[0].cta == 4);
  CHECK(trace.ctas[0].sm == 7);
  CHECK(trace.ctas[0].startNs == 0);
  CHECK(trace.ctas[0].endNs == 2000);
  CHECK(trace.ctas[0].nsPerCycle == 2);
  CHECK(trace.ctas[1].cta == 9);
  CHECK_FALSE(trace.ctas[1].ended);
  CHECK(trace.ctas[1].startNs == 500);
  CHECK(trace.ctas[1].nsPerCycle == 1);
  const std::vector<WarpTrace> &warps = trace.warps;
  REQUIRE(warps.size() == 3);
  CHECK(warps[0].role == "consumer");
  CHECK(warps[0].sm == 7);
  REQUIRE(warps[0].events.size() == 3);
  CHECK(warps[0].events[0].kind == TraceKind::WaitFullBegin);
  CHECK(warps[0].events[0].stage == 1);
  CHECK(warps[0].events[0].ns == 100); // 50 cycles at 2 ns
  CHECK(warps[1].dropped == 2);
  CHECK(warps[1].events.size() == 2);
  // Past the 32-bit wrap, widened against the CTA's start.
  REQUIRE(warps[2].events.size() == 1);
  CHECK(warps[2].cta == 9);
  CHECK(warps[2].events[0].clock == late + 20);
  CHECK(warps[2].events[0].ns == 520);

  TraceSummary summary = summarizeTrace(warps);
  CHECK(summary.events == 6);
  CHECK(summary.dropped == 2);
  // How long each role waited: the critical path's rows, summed.
  std::vector<std::pair<std::string, double>> waiting =
      analyzeCriticalPath(trace).waitingByRole;
  REQUIRE(waiting.size() == 2);
  CHECK(waiting[0].first == "consumer");
  CHECK(waiting[0].second == Approx(50.0 / 110.0));
  std::string json = chromeTraceJson(trace, 1e6, "gemm", "a note");
  JsonError error;
  std::optional<Json> parsed = parseJson(json, error);
  INFO(error.message);
  REQUIRE(parsed);
  const Json *wait = nullptr;
  size_t instants = 0;
  for (const Json &e : (*parsed)["traceEvents"]) {
    if (e["ph"] == "X" && e["name"] == "wait full[1]")
      wait = &e;
    instants += e["ph"] == "i";
  }
  REQUIRE(wait);
  CHECK((*wait)["name"] == "wait full[1]");
  CHECK((*wait)["ts"].get<double>() == Approx(0.1)); // microseconds
  CHECK((*wait)["dur"].get<double>() == Approx(0.1));
  CHECK(json.find("\"CTA 4 (SM 7)\"") != std::string::npos);
  CHECK(json.find("\"SM 3\"") != std::string::npos);
  CHECK(instants == 3); // mma[1], copy[2], arrive empty[0]
  CHECK(json.find("\"warp 1 (producer)\"") != std::string::npos);
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
        "out as an older klx wrote it; this klx-run reads format 2 (export "
        "the bundle again)");

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
}

TEST_CASE("trace: the critical path of a measured kernel", "[runtime]") {
  // Three CTAs; CTA 2 on SM 9 ends last, at 10 us, when the median CTA had
  // ended at 7 us. Its consumer waited 1 us on full and issued MMAs from 2
  // to 8 us; its producer waited 0.5 us on empty.
  DecodedTrace trace;
  trace.ctas = {{0, 1, 0, 6000, true, 1},
                {1, 4, 0, 7000, true, 1},
                {2, 9, 500, 10000, true, 1}};
  WarpTrace consumer;
  consumer.cta = 2;
  consumer.role = "consumer";
  consumer.events = {{0, 1000, TraceKind::WaitFullBegin, 0},
                     {0, 2000, TraceKind::WaitFullEnd, 0},
                     {0, 2000, TraceKind::MmaIssue, 0},
                     {0, 8000, TraceKind::MmaIssue, 1},
                     {0, 9000, TraceKind::ReleaseEmpty, 1}};
  WarpTrace producer;
  producer.cta = 2;
  producer.warp = 8;
  producer.role = "producer";
  producer.events = {{0, 600, TraceKind::WaitEmptyBegin, 0},
                     {0, 1100, TraceKind::WaitEmptyEnd, 0},
                     {0, 1600, TraceKind::CopyIssue, 0}};
  trace.warps = {consumer, producer};

  CriticalPath path = analyzeCriticalPath(trace);
  REQUIRE(path.known());
  CHECK(path.end.cta == 2);
  CHECK(path.end.sm == 9);
  CHECK(path.end.medianEndNs == 7000);
  CHECK(path.end.tailNs() == 3000);
  CHECK(path.end.beforeMmaNs() == 1500);
  CHECK(path.end.mainLoopNs() == 6000);
  CHECK(path.end.afterMmaNs() == 2000);
  REQUIRE(path.waits.size() == 2);
  CHECK(path.waits[0].role == "consumer"); // the longest first
  CHECK(path.waits[0].barrier == "full");
  CHECK(path.waits[0].share == Approx(1000.0 / 8000.0));
  CHECK(path.waits[1].role == "producer");
  CHECK(path.waits[1].barrier == "empty");
  CHECK(path.waits[1].share == Approx(0.5));
  std::string text = formatCriticalPath(path);
  CHECK(text.find("the kernel ended with CTA 2 on SM 9 at 10.00 us; half "
                  "the CTAs had ended by 7.00 us (tail 3.00 us)") !=
        std::string::npos);
  CHECK(text.find("1.50 us before its first MMA") != std::string::npos);
  CHECK(text.find("consumer waits on full 12.5% of its time") !=
        std::string::npos);
  CHECK(formatCriticalPath(CriticalPath()).empty());

  // The chain, walked back from CTA 2's end: the consumer's epilogue and
  // work back to its wait on full[0], which the producer's copy at 1.6 us
  // ended; the producer back to its wait on empty[0], which no release in
  // the trace ended; its start.
  REQUIRE(path.chain.size() == 6);
  auto link = [&](size_t i) { return path.chain[i]; };
  CHECK(link(0).part == ChainPart::Setup);
  CHECK(link(0).startNs == 500);
  CHECK(link(1).part == ChainPart::Unrecorded);
  CHECK(link(1).warp == 8);
  CHECK(link(2).part == ChainPart::Work);
  CHECK(link(2).role == "producer");
  CHECK(link(3).part == ChainPart::Load);
  CHECK(link(3).startNs == 1600);
  CHECK(link(3).endNs == 2000);
  CHECK(link(4).part == ChainPart::Work);
  CHECK(link(4).role == "consumer");
  CHECK(link(4).ns() == 7000);
  CHECK(link(5).part == ChainPart::Epilogue);
  CHECK(link(5).endNs == 10000);
  for (size_t i = 1; i < path.chain.size(); ++i)
    CHECK(link(i).startNs == link(i - 1).endNs); // no gaps
  CHECK(text.find("what set CTA 2's end: consumer working 7.00 us (74%), "
                  "after the last event (the epilogue) 1.00 us (11%)") !=
        std::string::npos);
  CHECK(text.find("(1 waits that blocked, 1.00 us each)") != std::string::npos);
}

TEST_CASE("trace: the critical chain follows turns, releases and loads",
          "[runtime]") {
  // Ping-pong: consumer 1 (warp 4) waits for its turn until 3 us, passed
  // by consumer 0 (warp 0) at 2.9 us; consumer 0 had waited on full[1]
  // until 2 us, filled by the producer's copy at 1.5 us, issued once
  // consumer 1's release of stage 1 at 1 us let the producer on.
  DecodedTrace trace;
  trace.ctas = {{0, 3, 0, 5000, true, 1}};
  WarpTrace c0, c1, producer;
  c0.warp = 0;
  c0.role = "consumer";
  c0.events = {{0, 1200, TraceKind::WaitFullBegin, 1},
               {0, 2000, TraceKind::WaitFullEnd, 1},
               {0, 2000, TraceKind::MmaIssue, 1},
               {0, 2900, TraceKind::PassTurn, 0}};
  c1.warp = 4;
  c1.role = "consumer";
  c1.events = {{0, 900, TraceKind::ReleaseEmpty, 1},
               {0, 1000, TraceKind::WaitTurnBegin, 0},
               {0, 3000, TraceKind::WaitTurnEnd, 0},
               {0, 3000, TraceKind::MmaIssue, 0},
               {0, 4000, TraceKind::ReleaseEmpty, 0}};
  producer.warp = 8;
  producer.role = "producer";
  producer.events = {{0, 300, TraceKind::WaitEmptyBegin, 1},
                     {0, 1100, TraceKind::WaitEmptyEnd, 1},
                     {0, 1500, TraceKind::CopyIssue, 1}};
  trace.warps = {c0, c1, producer};
  std::vector<ChainLink> chain = traceCriticalChain(trace, 0);
  std::vector<std::pair<int, ChainPart>> parts;
  for (const ChainLink &link : chain)
    parts.push_back({link.warp, link.part});
  std::vector<std::pair<int, ChainPart>> expected = {
      {4, ChainPart::Setup}, {4, ChainPart::Release}, {8, ChainPart::Work},
      {8, ChainPart::Load},  {0, ChainPart::Work},    {0, ChainPart::Turn},
      {4, ChainPart::Work},  {4, ChainPart::Epilogue}};
  CHECK(parts == expected);
  REQUIRE(chain.size() == expected.size());
  CHECK(chain[1].startNs == 900); // the release ...
  CHECK(chain[1].endNs == 1100);  // ... to the producer's wait's end
  CHECK(chain[5].startNs == 2900);
  CHECK(chain[5].endNs == 3000);
  CHECK(traceCriticalChain(trace, 7).empty()); // no such CTA
}

TEST_CASE("trace: two pipelines' events", "[runtime]") {
  // The pipeline is the byte above the stage; the Chrome name says it.
  TraceLayout layout{1, 1, 2};
  std::vector<int64_t> buffer = ctaHeader(1000, 0, 2000, 1000, 2, 0);
  buffer.insert(buffer.end(), {0, eventWord(10, TraceKind::CopyIssue, 3, 1),
                               eventWord(20, TraceKind::CopyIssue, 3)});
  DecodedTrace decoded = decodeTrace(buffer, layout, {"producer"}, 1e6);
  REQUIRE(decoded.warps.size() == 1);
  REQUIRE(decoded.warps[0].events.size() == 2);
  CHECK(decoded.warps[0].events[0].stage == 3);
  CHECK(decoded.warps[0].events[0].pipeline == 1);
  CHECK(decoded.warps[0].events[1].pipeline == 0);
  std::string json = chromeTraceJson(decoded, 1e6, "gemm", "");
  CHECK(json.find("\"copy[3] of pipeline 1\"") != std::string::npos);
  CHECK(json.find("\"copy[3]\"") != std::string::npos);

  // Two producers: the consumer's wait on stage 0 of pipeline 1 was ended
  // by warp 9's copy, though warp 8 copied into its own stage 0 later.
  // Warp 9 had waited on empty[0] of pipeline 1 from 300 to 700 ns; the
  // consumer's first thread released that stage at 200 (the barrier
  // completes with its warpgroup's last arrive, which is not recorded: the
  // release is the latest event in the trace that can have ended it).
  DecodedTrace trace;
  trace.ctas = {{0, 1, 0, 3000, true, 1}};
  WarpTrace consumer, a, b;
  consumer.warp = 0;
  consumer.role = "consumer";
  consumer.events = {{0, 200, TraceKind::ReleaseEmpty, 0, 1},
                     {0, 1000, TraceKind::WaitFullBegin, 0, 1},
                     {0, 2000, TraceKind::WaitFullEnd, 0, 1},
                     {0, 2000, TraceKind::MmaIssue, 0}};
  a.warp = 8;
  a.role = "producer_a";
  a.events = {{0, 1800, TraceKind::CopyIssue, 0, 0}};
  b.warp = 9;
  b.role = "producer_b";
  b.events = {{0, 300, TraceKind::WaitEmptyBegin, 0, 1},
              {0, 700, TraceKind::WaitEmptyEnd, 0, 1},
              {0, 1500, TraceKind::CopyIssue, 0, 1}};
  trace.warps = {consumer, a, b};
  std::vector<ChainLink> chain = traceCriticalChain(trace, 0);
  std::vector<std::pair<int, ChainPart>> parts;
  for (const ChainLink &link : chain)
    parts.push_back({link.warp, link.part});
  std::vector<std::pair<int, ChainPart>> expected = {{0, ChainPart::Setup},
                                                     {0, ChainPart::Release},
                                                     {9, ChainPart::Work},
                                                     {9, ChainPart::Load},
                                                     {0, ChainPart::Epilogue}};
  CHECK(parts == expected);
}

TEST_CASE("trace: the chain tile by tile", "[runtime]") {
  // Two k steps a tile. Consumers that split a tile's rows (warps 0 and 4)
  // multiply side by side: two tiles. Ping-pong consumers take turns: three.
  auto mmas = [](int warp, std::vector<double> at) {
    WarpTrace w;
    w.warp = warp;
    w.role = "consumer";
    for (double ns : at)
      w.events.push_back({0, ns, TraceKind::MmaIssue, 0});
    return w;
  };
  DecodedTrace shared;
  shared.ctas = {{0, 1, 0, 3000, true, 1}};
  shared.warps = {mmas(0, {100, 200, 1000, 1100}),
                  mmas(4, {110, 210, 1010, 1110})};
  std::vector<ChainLink> chain = {
      {0, "consumer", 0, 500, ChainPart::Load, 0},
      {0, "consumer", 500, 3000, ChainPart::Work, 0}};
  TileBreakdown tiles = splitByTile(shared, 0, 2, chain);
  REQUIRE(tiles.tiles.size() == 2);
  CHECK(tiles.tiles[0].startNs == 100);
  CHECK(tiles.tiles[0].lastMmaNs == 210);
  CHECK(tiles.tiles[0].endNs == 1000); // the next tile's first MMA
  CHECK(tiles.tiles[1].endNs == 3000); // the chain's (the CTA's) end
  REQUIRE(tiles.tiles[0].chain.size() == 2);
  CHECK(tiles.tiles[0].chain[0].what == "consumer working");
  CHECK(tiles.tiles[0].chain[0].ns == 500);
  CHECK(tiles.tiles[0].chain[1].what == "loads in flight");
  CHECK(tiles.tiles[0].chain[1].ns == 400);

  DecodedTrace pingpong = shared;
  pingpong.warps = {mmas(0, {100, 200, 2000, 2100}), mmas(4, {1000, 1100})};
  tiles = splitByTile(pingpong, 0, 2, chain);
  REQUIRE(tiles.tiles.size() == 3);
  CHECK(tiles.tiles[1].startNs == 1000);
  CHECK(tiles.tiles[1].endNs == 2000);

  tiles = splitByTile(pingpong, 0, 3, chain);
  CHECK(tiles.tiles.empty());
  CHECK(tiles.unknown ==
        "warp 0 recorded 4 MMAs, not a multiple of the 3 k steps of a tile");
  CHECK(splitByTile(pingpong, 0, 0, chain).tiles.empty()); // k unknown

  // klx-run's line: the tiles' median, shortest and longest.
  DecodedTrace ended = shared;
  CriticalPath path = analyzeCriticalPath(ended, 2);
  REQUIRE(path.tiles.tiles.size() == 2);
  std::string text = formatCriticalPath(path);
  CHECK(text.find("CTA 0's 2 tiles, first MMA to the next tile's: median") !=
        std::string::npos);
  CHECK(text.find("longest 2.00 us (tile 1") != std::string::npos);
  // Four k steps: the two consumers' MMAs are one tile.
  text = formatCriticalPath(analyzeCriticalPath(ended, 4));
  CHECK(text.find("CTA 0's one tile, first MMA to its end: 2.90 us (") !=
        std::string::npos);
}
