//===- Manifest.cpp - Reading and checking manifest.json ------------------===//

#include "klx/Runtime/Manifest.h"

#include "klx/Runtime/Epilogue.h"
#include "klx/Runtime/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace klx::rt;
namespace bf = klx::rt::bundlefile;

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
  Reader(const Json &object, std::string path, std::string &error)
      : object_(object), path_(std::move(path)), error_(error) {}

  bool failed() const { return !error_.empty(); }

  void fail(const std::string &field, const std::string &message) {
    if (error_.empty())
      error_ = "manifest.json: " + path_ + field + " " + message;
  }

  const Json *field(const std::string &name, JsonKind kind,
                    bool required = true) {
    const Json *v = member(object_, name);
    if (!v) {
      if (required)
        fail(name, "is missing");
      return nullptr;
    }
    if (kindOf(*v) != kind) {
      fail(name, std::string("must be ") + kindName(kind) + ", not " +
                     kindName(kindOf(*v)));
      return nullptr;
    }
    return v;
  }

  std::string string(const std::string &name, bool required = true) {
    const Json *v = field(name, JsonKind::String, required);
    return v ? v->get<std::string>() : std::string();
  }

  /// An integer in [min, max].
  int64_t integer(const std::string &name, int64_t min, int64_t max,
                  bool required = true, int64_t fallback = 0) {
    const Json *v = field(name, JsonKind::Number, required);
    if (!v)
      return fallback;
    double d = v->get<double>();
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
    const Json *v = field(name, JsonKind::Array, required);
    if (!v)
      return fallback;
    if (v->size() != N) {
      fail(name, "must hold " + std::to_string(N) + " numbers");
      return fallback;
    }
    std::array<int64_t, N> out{};
    for (size_t i = 0; i < N; ++i) {
      const Json &item = (*v)[i];
      double d = item.is_number() ? item.get<double>() : -1;
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
  const Json &object_;
  std::string path_;
  std::string &error_;
};

bool readParam(const Json &value, size_t index, Param &param,
               std::string &error) {
  std::string path = "params[" + std::to_string(index) + "].";
  if (!value.is_object()) {
    error = "manifest.json: " + path.substr(0, path.size() - 1) +
            " must be an object";
    return false;
  }
  Reader r(value, path, error);
  param.name = r.string(bf::kParamName);
  std::string kind = r.string(bf::kParamKind);
  if (r.failed())
    return false;
  if (kind == bf::kTensorMap) {
    param.kind = Param::Kind::TensorMap;
    std::optional<DType> dtype = r.dtype(bf::kParamDtype);
    param.box = r.integers<2>(bf::kBox, 1, 256);
    param.swizzleBytes = r.integer(bf::kSwizzle, 0, 128);
    if (r.failed())
      return false;
    param.dtype = *dtype;
    if (param.dtype == DType::I32)
      r.fail("dtype", "must be a floating-point type for a tensor map");
    else if (param.swizzleBytes != 0 && param.swizzleBytes != 32 &&
             param.swizzleBytes != 64 && param.swizzleBytes != 128)
      r.fail(bf::kSwizzle, "must be 0, 32, 64 or 128 bytes");
    else if (param.swizzleBytes &&
             param.box[1] * dtypeBytes(param.dtype) > param.swizzleBytes)
      r.fail(bf::kBox,
             "has rows of " +
                 std::to_string(param.box[1] * dtypeBytes(param.dtype)) +
                 " bytes, wider than the " +
                 std::to_string(param.swizzleBytes) + "-byte swizzle");
  } else if (kind == bf::kMemref) {
    param.kind = Param::Kind::Memref;
    std::optional<DType> dtype = r.dtype(bf::kParamDtype);
    param.rank = r.integer(bf::kRank, 1, 8);
    if (dtype)
      param.dtype = *dtype;
  } else if (kind == bf::kScalar) {
    param.kind = Param::Kind::Scalar;
  } else if (kind == bf::kUnused) {
    param.kind = Param::Kind::Unused;
  } else if (kind == bf::kTraceBuffer) {
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
    r.fail(bf::kParams, "D is a tensor map, which AMD kernels cannot take");
    return false;
  }
  for (const Param &p : m.params)
    if (p.kind == Param::Kind::TensorMap && p.name != "A" && p.name != "B" &&
        p.name != "D") {
      r.fail(bf::kParams,
             "has tensor map \"" + p.name + "\", which is none of A, B, D");
      return false;
    }
  Param::Kind output = mapD ? Param::Kind::TensorMap : Param::Kind::Memref;
  for (auto [name, kind] :
       {std::pair{"A", operands}, {"B", operands}, {"D", output}})
    if (!findParam(m, name, kind)) {
      r.fail(bf::kParams,
             std::string("has no ") +
                 (kind == Param::Kind::TensorMap ? "tensor map" : "memref") +
                 " named " + name + " (a gemm needs A, B and D)");
      return false;
    }
  if (!findParam(m, "K", Param::Kind::Scalar) &&
      !findParam(m, "k_tiles", Param::Kind::Scalar)) {
    r.fail(bf::kParams, "has no scalar K or k_tiles (the depth of the gemm)");
    return false;
  }
  for (const Param &p : m.params)
    if (p.kind == Param::Kind::Scalar && p.name != "M" && p.name != "N" &&
        p.name != "K" && p.name != "k_tiles") {
      r.fail(bf::kParams, "has scalar \"" + p.name +
                              "\", which is none of M, N, K, k_tiles");
      return false;
    }
  const Param *memrefD = findParam(m, "D", Param::Kind::Memref);
  if (!mapD && memrefD->rank != 2) {
    r.fail(bf::kParams, "D must be a memref of rank 2");
    return false;
  }
  if (!mapD && memrefD->dtype != DType::F32) {
    r.fail(bf::kParams, std::string("D is a memref of ") +
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
      r.fail(bf::kParams, std::string("has no ") + dtypeName(dtype) +
                              " memref of rank 1 named " + name +
                              " (a gather " + m.gather->formula() +
                              " needs it)");
      return false;
    }
  }
  for (const Param &p : m.params)
    if (p.kind != Param::Kind::Memref && p.kind != Param::Kind::Unused) {
      r.fail(bf::kParams, "has \"" + p.name +
                              "\", which a gather kernel cannot take (it takes "
                              "idx, x and y)");
      return false;
    }
  if (m.block[1] != 1 || m.block[2] != 1) {
    r.fail(bf::kBlock, "must be one-dimensional for a gather");
    return false;
  }
  return true;
}

/// What every bundle says about its binary and its launch: version,
/// target, binary, entry, block, cluster, shared memory and the grid.
bool readLaunch(Reader &r, Manifest &m, std::string &grid, std::string &error) {
  m.version = int(r.integer(bf::kVersionKey, 0, 1 << 30));
  if (r.failed())
    return false;
  if (m.version != bf::kVersion) {
    error = "manifest.json: klx_bundle " + std::to_string(m.version) +
            " is not a format this klx-run reads (1)";
    return false;
  }
  m.source = r.string(bf::kSource, false);
  m.target = r.string(bf::kTarget);
  m.binary = r.string(bf::kBinary);
  m.ptx = r.string(bf::kPtx, false);
  m.entry = r.string(bf::kEntry);
  m.block = r.integers<3>(bf::kBlock, 1, 1024);
  m.cluster = r.integers<3>(bf::kCluster, 1, 16, false, {1, 1, 1});
  m.dynamicSharedBytes = r.integer(bf::kDynamicSharedMemory, 0, 1 << 20);
  grid = r.string(bf::kGrid);
  if (r.failed())
    return false;
  if (grid != bf::kGridPersistent && grid != bf::kGridTiles &&
      grid != bf::kGridElements) {
    r.fail(bf::kGrid, "must be \"persistent\", \"tiles\" or \"elements\", got "
                      "\"" +
                          grid + "\"");
    return false;
  }
  m.persistent = grid == bf::kGridPersistent;
  if (m.block[0] * m.block[1] * m.block[2] > 1024) {
    r.fail(bf::kBlock, "has more than 1024 threads");
    return false;
  }
  if (m.binary.find('/') != std::string::npos || m.binary == "..") {
    r.fail(bf::kBinary, "must name a file inside the bundle");
    return false;
  }
  return true;
}

/// problem.kind "gather": y[i] = x[idx[i] + offset] + add over N elements.
bool readGatherProblem(Reader &r, Reader &p, Manifest &m,
                       const std::string &grid) {
  if (grid != bf::kGridElements) {
    r.fail(bf::kGrid, "must be \"elements\" for a gather");
    return false;
  }
  GatherProblem gather;
  std::string index = p.string(bf::kIndex);
  gather.offset = p.integer(bf::kOffset, 0, 1 << 20);
  gather.add = p.integer(bf::kAdd, -(1 << 20), 1 << 20);
  m.problem = {p.integer(bf::kN, 1, kMaxDim - 1), 0, 0};
  if (p.failed())
    return false;
  if (index != "idx" && index != "i") {
    p.fail(bf::kIndex, "must be \"idx\" (x[idx[i] + offset]) or \"i\" "
                       "(x[i + offset]), got \"" +
                           index + "\"");
    return false;
  }
  gather.indirect = index == "idx";
  m.gather = gather;
  m.dtype = DType::F32;
  return true;
}

/// problem.kind "gemm": M x N x K of f16 or bf16, in tiles (and clusters).
bool readGemmProblem(Reader &r, Reader &p, Manifest &m,
                     const std::string &grid) {
  if (grid == bf::kGridElements) {
    r.fail(bf::kGrid, "\"elements\" is a gather's grid, not a gemm's");
    return false;
  }
  m.tile = r.integers<3>(bf::kTile, 1, 1024);
  m.clusterTiles = r.integers<2>(bf::kClusterTiles, 1, 16, false, {1, 1});
  if (!r.failed() && m.clusterTiles[0] * m.clusterTiles[1] !=
                         m.cluster[0] * m.cluster[1] * m.cluster[2]) {
    r.fail(bf::kClusterTiles, "must hold one tile per CTA of the cluster");
    return false;
  }
  std::optional<DType> dtype = p.dtype(bf::kProblemDtype);
  m.problem.m = p.integer(bf::kM, 1, kMaxDim - 1);
  m.problem.n = p.integer(bf::kN, 1, kMaxDim - 1);
  m.problem.k = p.integer(bf::kK, 1, kMaxDim - 1);
  if (p.failed() || r.failed())
    return false;
  if (*dtype == DType::F32 || *dtype == DType::I32) {
    p.fail("dtype", "must be f16 or bf16 (the inputs of wgmma)");
    return false;
  }
  m.dtype = *dtype;
  return true;
}

bool readProblem(Reader &r, Manifest &m, const std::string &grid,
                 std::string &error) {
  const Json *problem = r.field(bf::kProblem, JsonKind::Object);
  if (!problem)
    return false;
  Reader p(*problem, "problem.", error);
  std::string kind = p.string(bf::kProblemKind);
  if (p.failed())
    return false;
  if (kind == bf::kGather)
    return readGatherProblem(r, p, m, grid);
  if (kind == bf::kGemm)
    return readGemmProblem(r, p, m, grid) &&
           readProblemEpilogue(*problem, m, error);
  p.fail(bf::kProblemKind, "\"" + kind +
                               "\" is not a problem klx-run can check "
                               "(gemm, gather)");
  return false;
}

/// params, and abi: the flat kernel parameters they lower to.
bool readParams(Reader &r, Manifest &m, std::string &error) {
  const Json *params = r.field(bf::kParams, JsonKind::Array);
  if (!params)
    return false;
  for (size_t i = 0; i < params->size(); ++i) {
    Param param;
    if (!readParam((*params)[i], i, param, error))
      return false;
    m.params.push_back(param);
  }
  const Json *abi = r.field(bf::kAbi, JsonKind::Array);
  if (!abi)
    return false;
  for (const Json &slot : *abi) {
    if (!slot.is_string() ||
        (slot != "ptr" && slot != "i64" && slot != "i32")) {
      r.fail(bf::kAbi, "entries must be \"ptr\", \"i64\" or \"i32\"");
      return false;
    }
    m.abi.push_back(slot.get<std::string>());
  }
  size_t slots = 0;
  for (const Param &param : m.params)
    slots += param.abiSlots();
  if (slots != m.abi.size()) {
    r.fail(bf::kParams, "flatten to " + std::to_string(slots) +
                            " kernel parameters but abi lists " +
                            std::to_string(m.abi.size()));
    return false;
  }
  if (!(m.gather ? checkGatherParams(m, r) : checkGemmParams(m, r)))
    return false;
  if (!m.gather) {
    const Param *mapD = findParam(m, "D", Param::Kind::TensorMap);
    m.outDtype = mapD ? mapD->dtype : DType::F32;
  }
  std::string why = checkEpilogueParams(m);
  return why.empty() || (r.fail(bf::kParams, why), false);
}

std::string stringOr(const Json &value, const char *fallback) {
  return value.is_string() ? value.get<std::string>() : fallback;
}

/// What klx export adds for people, read when present and well formed:
/// the -D defines, the text's digest, ptxas's register count and the
/// simulator's verdict.
void readNotes(const Json &root, Manifest &m) {
  if (const Json *digest = member(root, bf::kSourceDigest))
    m.sourceDigest = stringOr(*digest, "");
  if (const Json *defines = member(root, bf::kDefines);
      defines && defines->is_object())
    for (const auto &[name, value] : defines->items())
      m.defines.emplace_back(name, stringOr(value, "?"));
  if (const Json *resources = member(root, bf::kResources))
    if (const Json *registers = member(*resources, bf::kRegisters);
        registers && registers->is_number())
      m.registers = registers->get<int64_t>();
  const Json *sim = member(root, bf::kSimulated);
  if (!sim || !sim->is_object())
    return;
  Manifest::Simulated simulated;
  if (const Json *c = member(*sim, bf::kCompletes))
    simulated.completes = !c->is_boolean() || c->get<bool>();
  for (const char *key : {bf::kFindings, bf::kBlocked})
    if (const Json *list = member(*sim, key); list && list->is_array())
      for (const Json &item : *list)
        if (item.is_string())
          (std::string(key) == bf::kFindings ? simulated.findings
                                             : simulated.blocked)
              .push_back(item.get<std::string>());
  m.simulated = std::move(simulated);
}

/// trace: the instrumented build klx-run --trace launches instead.
bool readTraceSection(Reader &r, const Json &trace, Manifest &m,
                      std::string &error) {
  if (!trace.is_object()) {
    r.fail(bf::kTrace, "must be an object");
    return false;
  }
  Reader t(trace, "trace.", error);
  TraceSection section;
  section.binary = t.string(bf::kBinary);
  int64_t format = t.integer(bf::kFormat, 0, 1 << 30, false, 1);
  if (!t.failed() && (format < kOldestTraceFormat || format > kTraceFormat)) {
    bool older = format < kOldestTraceFormat;
    t.fail(bf::kFormat, "is " + std::to_string(format) +
                            ": the bundle's trace buffer is laid out as " +
                            (older ? "an older" : "a newer") +
                            " klx wrote it; this klx-run reads formats " +
                            std::to_string(kOldestTraceFormat) + " to " +
                            std::to_string(kTraceFormat) +
                            (older ? " (export the bundle again)"
                                   : " (run it with that klx's klx-run)"));
    return false;
  }
  section.ctas = t.integer(bf::kCtas, 0, kMaxTraceCtas);
  section.warps = t.integer(bf::kWarps, 1, 32);
  // The kernel has its list built in; the buffer needs a slot for each.
  if (const Json *list = member(trace, bf::kCtaList)) {
    bool wellFormed = list->is_array() && list->size() <= kMaxTraceCtaList;
    for (const Json &id : wellFormed ? *list : Json::array())
      wellFormed &= id.is_number_integer() && id.get<int64_t>() >= 0;
    if (!wellFormed) {
      t.fail(bf::kCtaList, "must hold at most " +
                               std::to_string(kMaxTraceCtaList) +
                               " block ids (whole numbers from 0)");
      return false;
    }
    for (const Json &id : *list) {
      // The kernel writes a listed block into the last slot naming it.
      int64_t value = id.get<int64_t>();
      if (std::find(section.ctaList.begin(), section.ctaList.end(), value) !=
          section.ctaList.end()) {
        t.fail(bf::kCtaList, "names block " + std::to_string(value) +
                                 " twice (klx export lists each once)");
        return false;
      }
      section.ctaList.push_back(value);
    }
  }
  const Json *params = t.field(bf::kParams, JsonKind::Array);
  const Json *abi = t.field(bf::kAbi, JsonKind::Array);
  if (t.failed())
    return false;
  if (section.binary.find('/') != std::string::npos) {
    t.fail(bf::kBinary, "must name a file inside the bundle");
    return false;
  }
  for (size_t i = 0; i < params->size(); ++i) {
    Param param;
    if (!readParam((*params)[i], i, param, error)) {
      error.insert(std::string("manifest.json: ").size(), "trace.");
      return false;
    }
    section.params.push_back(param);
  }
  for (const Json &slot : *abi)
    section.abi.push_back(stringOr(slot, "?"));
  size_t slots = 0, buffers = 0;
  for (const Param &param : section.params) {
    slots += param.abiSlots();
    buffers += param.kind == Param::Kind::Trace;
  }
  if (slots != section.abi.size() || buffers != 1) {
    t.fail(bf::kParams, "must flatten to abi and hold one trace buffer");
    return false;
  }
  if (const Json *roles = member(trace, bf::kWarpRoles);
      roles && roles->is_array())
    for (const Json &role : *roles)
      section.warpRoles.push_back(stringOr(role, ""));
  m.trace = std::move(section);
  return true;
}

} // namespace

std::optional<Manifest> klx::rt::parseManifest(std::string_view text,
                                               std::string &error) {
  error.clear();
  std::optional<Json> root = parseJsonObject(text, "manifest.json", error);
  if (!root)
    return std::nullopt;
  Manifest m;
  Reader r(*root, "", error);
  std::string grid;
  if (!readLaunch(r, m, grid, error) || !readProblem(r, m, grid, error) ||
      !readParams(r, m, error))
    return std::nullopt;
  readNotes(*root, m);
  if (const Json *trace = member(*root, bf::kTrace);
      trace && !readTraceSection(r, *trace, m, error))
    return std::nullopt;
  if (std::string why = checkProblemSize(m, m.problem); !why.empty()) {
    error = "manifest.json: problem " + why;
    return std::nullopt;
  }
  return m;
}

std::string klx::rt::checkProblemSize(const Manifest &m,
                                      const ProblemSize &size) {
  ProblemLimits limits;
  limits.entry = m.entry;
  limits.target = m.target;
  limits.gather = bool(m.gather);
  limits.block = m.block[0];
  limits.gatherOffset = m.gather ? m.gather->offset : 0;
  limits.tile = m.tile;
  limits.elementBytes = dtypeBytes(m.dtype);
  limits.reducesRowsInATile = m.epilogue && m.epilogue->reducesRows();
  return checkProblemSize(limits, size);
}
