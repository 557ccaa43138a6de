//===- Manifest.cpp - Reading and checking manifest.json ------------------===//

#include "klx/Runtime/Manifest.h"

#include "klx/Runtime/Json.h"

#include <cmath>
#include <cstdlib>

using namespace klx::rt;

const char *klx::rt::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::I32:
    return "i32";
  }
  return "?";
}

unsigned klx::rt::dtypeBytes(DType dtype) {
  return dtype == DType::F32 || dtype == DType::I32 ? 4 : 2;
}

std::string GatherProblem::formula() const {
  return std::string("y[i] = x[") + (indirect ? "idx[i]" : "i") + " + " +
         std::to_string(offset) + "] + " + std::to_string(add);
}

int Manifest::requiredCapability() const {
  // "sm_90a" -> 90
  std::string digits;
  for (char c : target)
    if (c >= '0' && c <= '9')
      digits += c;
  return digits.empty() ? 0 : std::atoi(digits.c_str());
}

namespace {

/// Reads fields of one JSON object, remembering the first problem.
class Reader {
public:
  Reader(const JsonValue &object, std::string path, std::string &error)
      : object_(object), path_(std::move(path)), error_(error) {}

  bool failed() const { return !error_.empty(); }

  void fail(const std::string &field, const std::string &message) {
    if (error_.empty())
      error_ = "manifest.json: " + path_ + field + " " + message;
  }

  const JsonValue *field(const std::string &name, JsonValue::Kind kind,
                         bool required = true) {
    const JsonValue *v = object_.get(name);
    if (!v) {
      if (required)
        fail(name, "is missing");
      return nullptr;
    }
    if (v->kind() != kind) {
      fail(name, std::string("must be ") + kindName(kind) + ", not " +
                     kindName(v->kind()));
      return nullptr;
    }
    return v;
  }

  std::string string(const std::string &name, bool required = true) {
    const JsonValue *v = field(name, JsonValue::Kind::String, required);
    return v ? v->asString() : std::string();
  }

  /// An integer in [min, max].
  int64_t integer(const std::string &name, int64_t min, int64_t max,
                  bool required = true, int64_t fallback = 0) {
    const JsonValue *v = field(name, JsonValue::Kind::Number, required);
    if (!v)
      return fallback;
    double d = v->asNumber();
    if (d != std::floor(d) || d < double(min) || d > double(max)) {
      fail(name, "must be a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", got " + std::to_string(d));
      return fallback;
    }
    return int64_t(d);
  }

  template <size_t N>
  std::array<int64_t, N> integers(const std::string &name, int64_t min,
                                  int64_t max, bool required = true,
                                  std::array<int64_t, N> fallback = {}) {
    const JsonValue *v = field(name, JsonValue::Kind::Array, required);
    if (!v)
      return fallback;
    if (v->items().size() != N) {
      fail(name, "must hold " + std::to_string(N) + " numbers");
      return fallback;
    }
    std::array<int64_t, N> out{};
    for (size_t i = 0; i < N; ++i) {
      const JsonValue &item = v->items()[i];
      double d = item.isNumber() ? item.asNumber() : -1;
      if (d != std::floor(d) || d < double(min) || d > double(max)) {
        fail(name, "must hold whole numbers from " + std::to_string(min) +
                       " to " + std::to_string(max));
        return fallback;
      }
      out[i] = int64_t(d);
    }
    return out;
  }

  std::optional<DType> dtype(const std::string &name) {
    std::string s = string(name);
    if (s == "f16")
      return DType::F16;
    if (s == "bf16")
      return DType::BF16;
    if (s == "f32")
      return DType::F32;
    if (s == "i32")
      return DType::I32;
    if (!failed())
      fail(name,
           "must be \"f16\", \"bf16\", \"f32\" or \"i32\", got \"" + s + "\"");
    return std::nullopt;
  }

private:
  const JsonValue &object_;
  std::string path_;
  std::string &error_;
};

constexpr int64_t kMaxDim = int64_t(1) << 31;

bool readParam(const JsonValue &value, size_t index, Param &param,
               std::string &error) {
  std::string path = "params[" + std::to_string(index) + "].";
  if (!value.isObject()) {
    error = "manifest.json: " + path.substr(0, path.size() - 1) +
            " must be an object";
    return false;
  }
  Reader r(value, path, error);
  param.name = r.string("name");
  std::string kind = r.string("kind");
  if (r.failed())
    return false;
  if (kind == "tensor_map") {
    param.kind = Param::Kind::TensorMap;
    std::optional<DType> dtype = r.dtype("dtype");
    param.box = r.integers<2>("box", 1, 256);
    param.swizzleBytes = r.integer("swizzle", 0, 128);
    if (r.failed())
      return false;
    param.dtype = *dtype;
    if (param.dtype == DType::I32)
      r.fail("dtype", "must be a floating-point type for a tensor map");
    else if (param.swizzleBytes != 0 && param.swizzleBytes != 32 &&
             param.swizzleBytes != 64 && param.swizzleBytes != 128)
      r.fail("swizzle", "must be 0, 32, 64 or 128 bytes");
    else if (param.swizzleBytes &&
             param.box[1] * dtypeBytes(param.dtype) > param.swizzleBytes)
      r.fail("box", "has rows of " +
                        std::to_string(param.box[1] * dtypeBytes(param.dtype)) +
                        " bytes, wider than the " +
                        std::to_string(param.swizzleBytes) + "-byte swizzle");
  } else if (kind == "memref") {
    param.kind = Param::Kind::Memref;
    std::optional<DType> dtype = r.dtype("dtype");
    param.rank = r.integer("rank", 1, 8);
    if (dtype)
      param.dtype = *dtype;
  } else if (kind == "scalar") {
    param.kind = Param::Kind::Scalar;
  } else if (kind == "unused") {
    param.kind = Param::Kind::Unused;
  } else if (kind == "trace") {
    param.kind = Param::Kind::Trace;
  } else {
    r.fail("kind", "must be tensor_map, memref, scalar or unused, got \"" +
                       kind + "\"");
  }
  return !r.failed();
}

const Param *findParam(const Manifest &m, const std::string &name,
                       Param::Kind kind) {
  for (const Param &p : m.params)
    if (p.name == name && p.kind == kind)
      return &p;
  return nullptr;
}

/// A, B and D, and the scalars a gemm kernel may take.
bool checkGemmParams(const Manifest &m, Reader &r) {
  // NVIDIA kernels read A and B through TMA; AMD kernels as memrefs. D is
  // a memref of f32, or a tensor map (f32, bf16 or f16) when the epilogue
  // stores by TMA.
  Param::Kind operands = m.amd() ? Param::Kind::Memref : Param::Kind::TensorMap;
  const Param *mapD = findParam(m, "D", Param::Kind::TensorMap);
  if (mapD && m.amd()) {
    r.fail("params", "D is a tensor map, which AMD kernels cannot take");
    return false;
  }
  for (const Param &p : m.params)
    if (p.kind == Param::Kind::TensorMap && p.name != "A" && p.name != "B" &&
        p.name != "D") {
      r.fail("params",
             "has tensor map \"" + p.name + "\", which is none of A, B, D");
      return false;
    }
  Param::Kind output = mapD ? Param::Kind::TensorMap : Param::Kind::Memref;
  for (auto [name, kind] :
       {std::pair{"A", operands}, {"B", operands}, {"D", output}})
    if (!findParam(m, name, kind)) {
      r.fail("params",
             std::string("has no ") +
                 (kind == Param::Kind::TensorMap ? "tensor map" : "memref") +
                 " named " + name + " (a gemm needs A, B and D)");
      return false;
    }
  if (!findParam(m, "K", Param::Kind::Scalar) &&
      !findParam(m, "k_tiles", Param::Kind::Scalar)) {
    r.fail("params", "has no scalar K or k_tiles (the depth of the gemm)");
    return false;
  }
  for (const Param &p : m.params)
    if (p.kind == Param::Kind::Scalar && p.name != "M" && p.name != "N" &&
        p.name != "K" && p.name != "k_tiles") {
      r.fail("params", "has scalar \"" + p.name +
                           "\", which is none of M, N, K, k_tiles");
      return false;
    }
  const Param *memrefD = findParam(m, "D", Param::Kind::Memref);
  if (!mapD && memrefD->rank != 2) {
    r.fail("params", "D must be a memref of rank 2");
    return false;
  }
  if (!mapD && memrefD->dtype != DType::F32) {
    r.fail("params", std::string("D is a memref of ") +
                         dtypeName(memrefD->dtype) +
                         "; a memref D holds f32 (each thread stores its "
                         "accumulators)");
    return false;
  }
  return true;
}

/// x and y (f32) and, for an indirect gather, idx (i32): vectors only.
bool checkGatherParams(const Manifest &m, Reader &r) {
  std::vector<std::pair<const char *, DType>> needed = {{"x", DType::F32},
                                                        {"y", DType::F32}};
  if (m.gather->indirect)
    needed.insert(needed.begin(), {"idx", DType::I32});
  for (auto [name, dtype] : needed) {
    const Param *p = findParam(m, name, Param::Kind::Memref);
    if (!p || p->rank != 1 || p->dtype != dtype) {
      r.fail("params", std::string("has no ") + dtypeName(dtype) +
                           " memref of rank 1 named " + name + " (a gather " +
                           m.gather->formula() + " needs it)");
      return false;
    }
  }
  for (const Param &p : m.params)
    if (p.kind != Param::Kind::Memref && p.kind != Param::Kind::Unused) {
      r.fail("params", "has \"" + p.name +
                           "\", which a gather kernel cannot take (it takes "
                           "idx, x and y)");
      return false;
    }
  if (m.block[1] != 1 || m.block[2] != 1) {
    r.fail("block", "must be one-dimensional for a gather");
    return false;
  }
  return true;
}

} // namespace

std::optional<Manifest> klx::rt::parseManifest(std::string_view text,
                                               std::string &error) {
  error.clear();
  std::optional<JsonValue> root = parseJsonObject(text, "manifest.json", error);
  if (!root)
    return std::nullopt;
  Manifest m;
  Reader r(*root, "", error);
  m.version = int(r.integer("klx_bundle", 0, 1 << 30));
  if (r.failed())
    return std::nullopt;
  if (m.version != 1) {
    error = "manifest.json: klx_bundle " + std::to_string(m.version) +
            " is not a format this klx-run reads (1)";
    return std::nullopt;
  }
  m.source = r.string("source", false);
  m.target = r.string("target");
  m.binary = r.string("binary");
  m.ptx = r.string("ptx", false);
  m.entry = r.string("entry");
  m.block = r.integers<3>("block", 1, 1024);
  m.cluster = r.integers<3>("cluster", 1, 16, false, {1, 1, 1});
  m.dynamicSharedBytes = r.integer("dynamic_shared_memory", 0, 1 << 20);
  std::string grid = r.string("grid");
  if (r.failed())
    return std::nullopt;
  if (grid != "persistent" && grid != "tiles" && grid != "elements") {
    r.fail("grid", "must be \"persistent\", \"tiles\" or \"elements\", got "
                   "\"" +
                       grid + "\"");
    return std::nullopt;
  }
  m.persistent = grid == "persistent";
  if (m.block[0] * m.block[1] * m.block[2] > 1024) {
    r.fail("block", "has more than 1024 threads");
    return std::nullopt;
  }
  if (m.binary.find('/') != std::string::npos || m.binary == "..") {
    r.fail("binary", "must name a file inside the bundle");
    return std::nullopt;
  }

  const JsonValue *problem = r.field("problem", JsonValue::Kind::Object);
  if (!problem)
    return std::nullopt;
  Reader p(*problem, "problem.", error);
  std::string kind = p.string("kind");
  if (p.failed())
    return std::nullopt;
  if (kind == "gather") {
    if (grid != "elements") {
      r.fail("grid", "must be \"elements\" for a gather");
      return std::nullopt;
    }
    GatherProblem gather;
    std::string index = p.string("index");
    gather.offset = p.integer("offset", 0, 1 << 20);
    gather.add = p.integer("add", -(1 << 20), 1 << 20);
    m.problem = {p.integer("N", 1, kMaxDim), 0, 0};
    if (p.failed())
      return std::nullopt;
    if (index != "idx" && index != "i") {
      p.fail("index", "must be \"idx\" (x[idx[i] + offset]) or \"i\" "
                      "(x[i + offset]), got \"" +
                          index + "\"");
      return std::nullopt;
    }
    gather.indirect = index == "idx";
    m.gather = gather;
    m.dtype = DType::F32;
  } else if (kind == "gemm") {
    if (grid == "elements") {
      r.fail("grid", "\"elements\" is a gather's grid, not a gemm's");
      return std::nullopt;
    }
    m.tile = r.integers<3>("tile", 1, 1024);
    m.clusterTiles = r.integers<2>("cluster_tiles", 1, 16, false, {1, 1});
    if (!r.failed() && m.clusterTiles[0] * m.clusterTiles[1] !=
                           m.cluster[0] * m.cluster[1] * m.cluster[2]) {
      r.fail("cluster_tiles", "must hold one tile per CTA of the cluster");
      return std::nullopt;
    }
    std::optional<DType> dtype = p.dtype("dtype");
    m.problem.m = p.integer("M", 1, kMaxDim);
    m.problem.n = p.integer("N", 1, kMaxDim);
    m.problem.k = p.integer("K", 1, kMaxDim);
    if (p.failed() || r.failed())
      return std::nullopt;
    if (*dtype == DType::F32 || *dtype == DType::I32) {
      p.fail("dtype", "must be f16 or bf16 (the inputs of wgmma)");
      return std::nullopt;
    }
    m.dtype = *dtype;
  } else {
    p.fail("kind", "\"" + kind +
                       "\" is not a problem klx-run can check "
                       "(gemm, gather)");
    return std::nullopt;
  }

  const JsonValue *params = r.field("params", JsonValue::Kind::Array);
  if (!params)
    return std::nullopt;
  for (size_t i = 0; i < params->items().size(); ++i) {
    Param param;
    if (!readParam(params->items()[i], i, param, error))
      return std::nullopt;
    m.params.push_back(param);
  }
  const JsonValue *abi = r.field("abi", JsonValue::Kind::Array);
  if (!abi)
    return std::nullopt;
  for (const JsonValue &slot : abi->items()) {
    if (!slot.isString() ||
        (slot.asString() != "ptr" && slot.asString() != "i64" &&
         slot.asString() != "i32")) {
      r.fail("abi", "entries must be \"ptr\", \"i64\" or \"i32\"");
      return std::nullopt;
    }
    m.abi.push_back(slot.asString());
  }
  size_t slots = 0;
  for (const Param &param : m.params)
    slots += param.abiSlots();
  if (slots != m.abi.size()) {
    r.fail("params", "flatten to " + std::to_string(slots) +
                         " kernel parameters but abi lists " +
                         std::to_string(m.abi.size()));
    return std::nullopt;
  }
  if (!(m.gather ? checkGatherParams(m, r) : checkGemmParams(m, r)))
    return std::nullopt;
  if (!m.gather) {
    const Param *mapD = findParam(m, "D", Param::Kind::TensorMap);
    m.outDtype = mapD ? mapD->dtype : DType::F32;
  }
  if (const JsonValue *defines = root->get("defines");
      defines && defines->isObject())
    for (const auto &[name, value] : defines->members())
      m.defines.emplace_back(name, value.isString() ? value.asString() : "?");
  if (const JsonValue *resources = root->get("resources"))
    if (const JsonValue *registers = resources->get("registers");
        registers && registers->isNumber())
      m.registers = int64_t(registers->asNumber());
  if (const JsonValue *sim = root->get("simulated"); sim && sim->isObject()) {
    Manifest::Simulated simulated;
    if (const JsonValue *c = sim->get("completes"))
      simulated.completes = c->kind() != JsonValue::Kind::Bool || c->asBool();
    for (const char *key : {"findings", "blocked"})
      if (const JsonValue *list = sim->get(key); list && list->isArray())
        for (const JsonValue &item : list->items())
          if (item.isString())
            (std::string(key) == "findings" ? simulated.findings
                                            : simulated.blocked)
                .push_back(item.asString());
    m.simulated = std::move(simulated);
  }
  if (const JsonValue *trace = root->get("trace")) {
    if (!trace->isObject()) {
      r.fail("trace", "must be an object");
      return std::nullopt;
    }
    Reader t(*trace, "trace.", error);
    TraceSection section;
    section.binary = t.string("binary");
    section.ctas = t.integer("ctas", 1, 1 << 16);
    section.warps = t.integer("warps", 1, 32);
    section.events = t.integer("events", 1, 1 << 24);
    const JsonValue *params = t.field("params", JsonValue::Kind::Array);
    const JsonValue *abi = t.field("abi", JsonValue::Kind::Array);
    if (t.failed())
      return std::nullopt;
    if (section.binary.find('/') != std::string::npos) {
      t.fail("binary", "must name a file inside the bundle");
      return std::nullopt;
    }
    for (size_t i = 0; i < params->items().size(); ++i) {
      Param param;
      if (!readParam(params->items()[i], i, param, error)) {
        error.insert(std::string("manifest.json: ").size(), "trace.");
        return std::nullopt;
      }
      section.params.push_back(param);
    }
    for (const JsonValue &slot : abi->items())
      section.abi.push_back(slot.isString() ? slot.asString() : "?");
    size_t slots = 0, buffers = 0;
    for (const Param &param : section.params) {
      slots += param.abiSlots();
      buffers += param.kind == Param::Kind::Trace;
    }
    if (slots != section.abi.size() || buffers != 1) {
      t.fail("params", "must flatten to abi and hold one trace buffer");
      return std::nullopt;
    }
    if (const JsonValue *roles = trace->get("warp_roles");
        roles && roles->isArray())
      for (const JsonValue &role : roles->items())
        section.warpRoles.push_back(role.isString() ? role.asString() : "");
    m.trace = std::move(section);
  }
  if (std::string why = checkProblemSize(m, m.problem); !why.empty()) {
    error = "manifest.json: problem " + why;
    return std::nullopt;
  }
  return m;
}

std::string klx::rt::checkProblemSize(const Manifest &m,
                                      const ProblemSize &size) {
  if (m.gather) {
    std::string n = std::to_string(size.m);
    if (size.n != 0 || size.k != 0)
      return std::to_string(size.m) + "x" + std::to_string(size.n) + "x" +
             std::to_string(size.k) +
             ": a gather takes one size, the element count N";
    if (size.m <= 0 || size.m % m.block[0])
      return n + ": N must be a positive multiple of the block (" +
             std::to_string(m.block[0]) + " threads, one element each)";
    if (size.m + m.gather->offset >= kMaxDim)
      return n + ": N + offset must be below 2^31";
    return "";
  }
  if (size.n == 0 && size.k == 0)
    return std::to_string(size.m) + ": a gemm takes MxNxK";
  std::string shape = std::to_string(size.m) + "x" + std::to_string(size.n) +
                      "x" + std::to_string(size.k);
  if (size.m <= 0 || size.n <= 0 || size.k <= 0)
    return shape + ": sizes must be positive";
  if (m.amd()) {
    // klx-to-amdgpu masks neither its copies nor its stores.
    if (size.m % m.tile[0] || size.n % m.tile[1] || size.k % m.tile[2])
      return shape + ": M, N and K must be multiples of the tile " +
             std::to_string(m.tile[0]) + "x" + std::to_string(m.tile[1]) + "x" +
             std::to_string(m.tile[2]) + " on " + m.target;
    if (size.m >= kMaxDim || size.n >= kMaxDim || size.k >= kMaxDim)
      return shape + ": each size must be below 2^31";
    return "";
  }
  // TMA needs every row stride (K elements of A, N of B) to be a
  // multiple of 16 bytes; ragged tiles are fine (zeros past the edge on
  // load, padding on store).
  unsigned bytes = dtypeBytes(m.dtype);
  if ((size.k * bytes) % 16 || (size.n * bytes) % 16)
    return shape + ": N and K must be multiples of " +
           std::to_string(16 / bytes) +
           " (TMA needs row strides of A and "
           "B in multiples of 16 bytes)";
  if (size.m >= kMaxDim || size.n >= kMaxDim || size.k >= kMaxDim)
    return shape + ": each size must be below 2^31 (TMA dimensions)";
  return "";
}

std::optional<ProblemSize> klx::rt::parseProblemSize(std::string_view text) {
  ProblemSize size;
  if (text.find('x') == std::string_view::npos) {
    if (text.empty() || text.size() > 12)
      return std::nullopt;
    for (char c : text) {
      if (c < '0' || c > '9')
        return std::nullopt;
      size.m = size.m * 10 + (c - '0');
    }
    return size.m > 0 ? std::optional(size) : std::nullopt;
  }
  int64_t *dims[3] = {&size.m, &size.n, &size.k};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t end = i < 2 ? text.find('x', start) : text.size();
    if (end == std::string_view::npos || end == start || end - start > 12)
      return std::nullopt;
    int64_t value = 0;
    for (size_t j = start; j < end; ++j) {
      if (text[j] < '0' || text[j] > '9')
        return std::nullopt;
      value = value * 10 + (text[j] - '0');
    }
    if (value <= 0)
      return std::nullopt;
    *dims[i] = value;
    start = end + 1;
  }
  return size;
}
