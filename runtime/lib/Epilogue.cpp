//===- Epilogue.cpp - Evaluating a kernel's epilogue on the CPU -----------===//

#include "klx/Runtime/Epilogue.h"
#include "klx/Runtime/EpilogueOps.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

namespace bf = klx::rt::bundlefile;
using namespace klx::rt;

namespace {

// [SECTION] Reading -------------------------------------------------------

bool compareFloats(int predicate, double x, double y) {
  bool unordered = std::isnan(x) || std::isnan(y);
  switch (predicate) {
  case 0:
    return false;
  case 1:
    return !unordered && x == y;
  case 2:
    return !unordered && x > y;
  case 3:
    return !unordered && x >= y;
  case 4:
    return !unordered && x < y;
  case 5:
    return !unordered && x <= y;
  case 6:
    return !unordered && x != y;
  case 7:
    return !unordered;
  case 8:
    return unordered || x == y;
  case 9:
    return unordered || x > y;
  case 10:
    return unordered || x >= y;
  case 11:
    return unordered || x < y;
  case 12:
    return unordered || x <= y;
  case 13:
    return unordered || x != y;
  case 14:
    return unordered;
  default:
    return true;
  }
}

bool compareIntegers(int predicate, double x, double y) {
  switch (predicate) {
  case 0:
    return x == y;
  case 1:
    return x != y;
  case 2:
  case 6:
    return x < y;
  case 3:
  case 7:
    return x <= y;
  case 4:
  case 8:
    return x > y;
  default:
    return x >= y;
  }
}

using Apply = double (*)(const double *a, int predicate);

/// The ops klx-run evaluates, as DescribeEpilogue.cpp names them, and
/// their arithmetic in double (casts and conversions keep the number).
const std::pair<const char *, Apply> kOps[] = {
    {"arith.addf", [](const double *a, int) { return a[0] + a[1]; }},
    {"arith.addi", [](const double *a, int) { return a[0] + a[1]; }},
    {"arith.subf", [](const double *a, int) { return a[0] - a[1]; }},
    {"arith.subi", [](const double *a, int) { return a[0] - a[1]; }},
    {"arith.mulf", [](const double *a, int) { return a[0] * a[1]; }},
    {"arith.muli", [](const double *a, int) { return a[0] * a[1]; }},
    {"arith.divf", [](const double *a, int) { return a[0] / a[1]; }},
    {"arith.divsi",
     [](const double *a, int) {
       return a[1] == 0 ? 0 : std::trunc(a[0] / a[1]);
     }},
    {"arith.divui",
     [](const double *a, int) {
       return a[1] == 0 ? 0 : std::trunc(a[0] / a[1]);
     }},
    {"arith.remsi", [](const double *a,
                       int) { return a[1] == 0 ? 0 : std::fmod(a[0], a[1]); }},
    {"arith.remui", [](const double *a,
                       int) { return a[1] == 0 ? 0 : std::fmod(a[0], a[1]); }},
    {"arith.negf", [](const double *a, int) { return -a[0]; }},
    {"arith.maximumf",
     [](const double *a, int) { return std::max(a[0], a[1]); }},
    {"arith.maxnumf",
     [](const double *a, int) { return std::max(a[0], a[1]); }},
    {"arith.minimumf",
     [](const double *a, int) { return std::min(a[0], a[1]); }},
    {"arith.minnumf",
     [](const double *a, int) { return std::min(a[0], a[1]); }},
    {"arith.cmpf", [](const double *a,
                      int p) { return double(compareFloats(p, a[0], a[1])); }},
    {"arith.cmpi",
     [](const double *a, int p) {
       return double(compareIntegers(p, a[0], a[1]));
     }},
    {"arith.select",
     [](const double *a, int) { return a[0] != 0 ? a[1] : a[2]; }},
    {"arith.index_cast", [](const double *a, int) { return a[0]; }},
    {"arith.index_castui", [](const double *a, int) { return a[0]; }},
    {"arith.sitofp", [](const double *a, int) { return a[0]; }},
    {"arith.uitofp", [](const double *a, int) { return a[0]; }},
    {"arith.extf", [](const double *a, int) { return a[0]; }},
    {"arith.truncf", [](const double *a, int) { return a[0]; }},
    {"math.tanh", [](const double *a, int) { return std::tanh(a[0]); }},
    {"math.exp", [](const double *a, int) { return std::exp(a[0]); }},
    {"math.exp2", [](const double *a, int) { return std::exp2(a[0]); }},
    {"math.sqrt", [](const double *a, int) { return std::sqrt(a[0]); }},
    {"math.rsqrt", [](const double *a, int) { return 1 / std::sqrt(a[0]); }},
    {"math.absf", [](const double *a, int) { return std::fabs(a[0]); }},
    {"math.fma", [](const double *a, int) { return a[0] * a[1] + a[2]; }},
};

} // namespace

bool klx::rt::evaluatesEpilogueOp(std::string_view name) {
  return std::any_of(std::begin(kOps), std::end(kOps),
                     [&](const auto &op) { return name == op.first; });
}

std::string klx::rt::evaluatedEpilogueOps() {
  std::string names;
  for (const auto &op : kOps)
    names += (names.empty() ? "" : ", ") + std::string(op.first);
  return names;
}

namespace {

/// Resolves `instruction.op` into its source and arithmetic; false when
/// klx-run does not evaluate it.
bool resolve(EpilogueInstruction &instruction) {
  using Source = EpilogueInstruction::Source;
  const std::string &op = instruction.op;
  for (auto [name, source] : {std::pair{"arg", Source::Arg},
                              {"const", Source::Const},
                              {"param", Source::Param},
                              {"tile", Source::Tile}})
    if (op == name) {
      instruction.source = source;
      return true;
    }
  for (auto [name, apply] : kOps)
    if (op == name) {
      instruction.apply = apply;
      return instruction.args.size() <= 3;
    }
  return false;
}

/// Reads a body: each instruction's operands name earlier ones.
bool readBody(const Json &body, std::vector<EpilogueInstruction> &out,
              const std::string &where, std::string &error) {
  if (!body.is_array()) {
    error = where + ": body must be an array";
    return false;
  }
  for (const Json &item : body) {
    EpilogueInstruction instruction;
    const Json *op = member(item, "op");
    if (!op || !op->is_string()) {
      error = where + ": each instruction needs an op";
      return false;
    }
    instruction.op = op->get<std::string>();
    if (const Json *args = member(item, "args"); args && args->is_array())
      for (const Json &arg : *args) {
        int index = arg.is_number_integer() ? arg.get<int>() : -1;
        if (index < 0 || index >= int(out.size())) {
          error = where + ": " + instruction.op +
                  " names an instruction that is not before it";
          return false;
        }
        instruction.args.push_back(index);
      }
    if (const Json *v = member(item, "value"); v && v->is_number())
      instruction.value = v->get<double>();
    else if (v && v->is_string()) // JSON has no infinities
      instruction.value = *v == "inf"    ? INFINITY
                          : *v == "-inf" ? -INFINITY
                                         : NAN;
    for (const char *key : {"index", "argument"})
      if (const Json *v = member(item, key); v && v->is_number_integer())
        instruction.index = v->get<int64_t>();
    if (const Json *axis = member(item, "axis"); axis && axis->is_string())
      instruction.rows = axis->get<std::string>() == "rows";
    if (const Json *p = member(item, "predicate"); p && p->is_number_integer())
      instruction.predicate = p->get<int>();
    if (!resolve(instruction)) {
      error = where + ": klx-run does not evaluate " + instruction.op +
              ", so it cannot check this kernel";
      return false;
    }
    out.push_back(std::move(instruction));
  }
  return true;
}

EpilogueValue::Shape shapeNamed(const std::string &axis) {
  return axis == "rows"   ? EpilogueValue::Shape::Row
         : axis == "cols" ? EpilogueValue::Shape::Column
                          : EpilogueValue::Shape::Tile;
}

std::string stringAt(const Json &object, const char *key) {
  const Json *v = member(object, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

int64_t integerAt(const Json &object, const char *key) {
  const Json *v = member(object, key);
  return v && v->is_number_integer() ? v->get<int64_t>() : -1;
}

bool readValue(const Json &item, size_t index, EpilogueProgram &program,
               std::string &error) {
  std::string where = "problem.epilogue.values[" + std::to_string(index) + "]";
  EpilogueValue value;
  std::string op = stringAt(item, "op");
  auto earlier = [&](int64_t i) { return i >= 0 && i < int64_t(index); };
  if (op == "acc") {
    value.kind = EpilogueValue::Kind::Acc;
  } else if (op == "vector") {
    value.kind = EpilogueValue::Kind::Vector;
    value.shape = shapeNamed(stringAt(item, "axis"));
    value.argument = integerAt(item, "argument");
    program.vectors[value.argument] = value.shape == EpilogueValue::Shape::Row;
  } else if (op == "map" || op == "splat") {
    value.kind =
        op == "map" ? EpilogueValue::Kind::Map : EpilogueValue::Kind::Splat;
    value.shape = shapeNamed(stringAt(item, op == "map" ? "result" : "axis"));
    if (const Json *inputs = member(item, "inputs");
        inputs && inputs->is_array())
      for (const Json &input : *inputs)
        value.inputs.push_back(input.is_number_integer() ? input.get<int>()
                                                         : -1);
    const Json *body = member(item, "body");
    if (!body || !readBody(*body, value.body, where, error))
      return error.empty() ? (error = where + ": needs a body", false) : false;
    value.yield = int(integerAt(item, "yield"));
    if (value.yield < 0 || value.yield >= int(value.body.size())) {
      error = where + ": yield names no instruction of its body";
      return false;
    }
  } else if (op == "reduce") {
    value.kind = EpilogueValue::Kind::Reduce;
    value.shape = shapeNamed(stringAt(item, "axis"));
    value.reduce = stringAt(item, "kind");
    value.inputs.push_back(int(integerAt(item, "input")));
    if (value.shape != EpilogueValue::Shape::Row ||
        (value.reduce != "max" && value.reduce != "min" &&
         value.reduce != "sum")) {
      error = where + ": klx-run evaluates max, min and sum along rows";
      return false;
    }
  } else {
    error = where + ": unknown op \"" + op + "\"";
    return false;
  }
  if (!std::all_of(value.inputs.begin(), value.inputs.end(), earlier)) {
    error = where + ": an input is not an earlier value";
    return false;
  }
  program.values.push_back(std::move(value));
  return true;
}

// [SECTION] Evaluating ------------------------------------------------------

/// One value at one (row, tile of columns): a number per column of the
/// tile, or one number for the row.
struct Lane {
  std::vector<double> columns; // tile_n of them, or empty
  double row = 0;
  double at(int64_t c) const { return columns.empty() ? row : columns[c]; }
};

/// Where the body runs: row r of D, the tile of columns starting at
/// tileColumn, column c in it (-1 where the value is one per row).
struct Place {
  int64_t row = 0, tileColumn = 0, column = -1;
};

class Evaluator {
public:
  Evaluator(const EpilogueProgram &program, const EpilogueInputs &inputs)
      : p(program), in(inputs) {}

  /// Columns [tileColumn, tileColumn + tile_n) of row `row` of D, from the
  /// same columns of A x B (zero past N).
  std::vector<double> tileOfRow(int64_t row, int64_t tileColumn,
                                const double *gemm) const;

private:
  double runBody(const EpilogueValue &value, const std::vector<Lane> &lanes,
                 const Place &place) const;
  Lane vectorLane(const EpilogueValue &value, const Place &place) const;

  const EpilogueProgram &p;
  const EpilogueInputs &in;
};

double Evaluator::runBody(const EpilogueValue &value,
                          const std::vector<Lane> &lanes,
                          const Place &place) const {
  std::vector<double> v(value.body.size());
  int64_t tileM = in.tile[0], tileN = in.tile[1];
  for (size_t k = 0; k < value.body.size(); ++k) {
    const EpilogueInstruction &i = value.body[k];
    switch (i.source) {
    case EpilogueInstruction::Source::Arg: {
      size_t inputs = value.inputs.size();
      v[k] = size_t(i.index) < inputs
                 ? lanes[value.inputs[i.index]].at(place.column)
             : size_t(i.index) == inputs ? double(place.row % tileM)
                                         : double(place.column);
      break;
    }
    case EpilogueInstruction::Source::Const:
      v[k] = i.value;
      break;
    case EpilogueInstruction::Source::Param: {
      auto found = in.scalars.find(i.index);
      v[k] = found == in.scalars.end() ? 0 : found->second;
      break;
    }
    case EpilogueInstruction::Source::Tile:
      v[k] =
          i.rows ? double(place.row / tileM) : double(place.tileColumn / tileN);
      break;
    case EpilogueInstruction::Source::Op: {
      double args[3] = {0, 0, 0};
      for (size_t a = 0; a < i.args.size(); ++a)
        args[a] = v[i.args[a]];
      v[k] = i.apply(args, i.predicate);
      break;
    }
    }
  }
  return v[value.yield];
}

Lane Evaluator::vectorLane(const EpilogueValue &value,
                           const Place &place) const {
  Lane lane;
  auto found = in.vectors.find(value.argument);
  static const std::vector<float> none;
  const std::vector<float> &data =
      found == in.vectors.end() ? none : found->second;
  auto read = [&](int64_t i) { return i < int64_t(data.size()) ? data[i] : 0; };
  if (value.shape == EpilogueValue::Shape::Row) {
    lane.row = read(place.row);
    return lane;
  }
  lane.columns.resize(in.tile[1]);
  for (int64_t c = 0; c < in.tile[1]; ++c)
    lane.columns[c] = read(place.tileColumn + c);
  return lane;
}

std::vector<double> Evaluator::tileOfRow(int64_t row, int64_t tileColumn,
                                         const double *gemm) const {
  int64_t tileN = in.tile[1];
  std::vector<Lane> lanes(p.values.size());
  for (size_t k = 0; k < p.values.size(); ++k) {
    const EpilogueValue &value = p.values[k];
    Lane &lane = lanes[k];
    Place place{row, tileColumn, -1};
    bool perColumn = value.shape != EpilogueValue::Shape::Row;
    switch (value.kind) {
    case EpilogueValue::Kind::Acc:
      lane.columns.resize(tileN);
      for (int64_t c = 0; c < tileN; ++c)
        lane.columns[c] = tileColumn + c < in.size.n ? gemm[tileColumn + c] : 0;
      break;
    case EpilogueValue::Kind::Vector:
      lane = vectorLane(value, place);
      break;
    case EpilogueValue::Kind::Map:
    case EpilogueValue::Kind::Splat:
      if (!perColumn) {
        lane.row = runBody(value, lanes, place);
        break;
      }
      lane.columns.resize(tileN);
      for (place.column = 0; place.column < tileN; ++place.column)
        lane.columns[place.column] = runBody(value, lanes, place);
      break;
    case EpilogueValue::Kind::Reduce: {
      const Lane &input = lanes[value.inputs[0]];
      double r = input.at(0);
      for (int64_t c = 1; c < tileN; ++c)
        r = value.reduce == "max"   ? std::max(r, input.at(c))
            : value.reduce == "min" ? std::min(r, input.at(c))
                                    : r + input.at(c);
      lane.row = r;
      break;
    }
    }
  }
  const Lane &out = lanes[p.output];
  std::vector<double> result(tileN);
  for (int64_t c = 0; c < tileN; ++c)
    result[c] = out.at(c);
  return result;
}

} // namespace

std::optional<EpilogueProgram> klx::rt::readEpilogue(const Json &json,
                                                     std::string &error) {
  if (const Json *unknown = member(json, "unknown")) {
    error = "problem.epilogue: klx could not describe what the kernel "
            "stores (" +
            (unknown->is_string() ? unknown->get<std::string>() : "?") +
            "), so klx-run cannot check it";
    return std::nullopt;
  }
  const Json *values = member(json, "values");
  if (!values || !values->is_array() || values->empty()) {
    error = "problem.epilogue: needs values, a non-empty array";
    return std::nullopt;
  }
  EpilogueProgram program;
  for (size_t i = 0; i < values->size(); ++i)
    if (!readValue((*values)[i], i, program, error))
      return std::nullopt;
  program.output = int(integerAt(json, "output"));
  if (program.output < 0 || program.output >= int(program.values.size())) {
    error = "problem.epilogue: output names no value";
    return std::nullopt;
  }
  return program;
}

bool klx::rt::readProblemEpilogue(const Json &problem, Manifest &m,
                                  std::string &error) {
  const Json *epilogue = member(problem, bf::kEpilogue);
  if (!epilogue)
    return true;
  std::optional<EpilogueProgram> program = readEpilogue(*epilogue, error);
  if (program)
    m.epilogue = std::make_shared<EpilogueProgram>(std::move(*program));
  return bool(program);
}

std::string klx::rt::checkEpilogueParams(const Manifest &m) {
  if (!m.epilogue)
    return "";
  for (auto [argument, rows] : m.epilogue->vectors)
    if (argument < 0 || argument >= int64_t(m.params.size()) ||
        m.params[argument].kind != Param::Kind::Memref ||
        m.params[argument].rank != 1 || m.params[argument].dtype != DType::F32)
      return "has no f32 memref of rank 1 at argument #" +
             std::to_string(argument) +
             ", which problem.epilogue reads as a vector";
  return "";
}

std::vector<double> klx::rt::evaluateEpilogue(
    const EpilogueProgram &program, const EpilogueInputs &inputs,
    const std::vector<double> &gemm, const std::vector<int64_t> &rows) {
  Evaluator evaluator(program, inputs);
  int64_t n = inputs.size.n, tileN = inputs.tile[1];
  std::vector<double> out(rows.size() * size_t(n));
  for (size_t r = 0; r < rows.size(); ++r)
    for (int64_t t = 0; t < n; t += tileN) {
      std::vector<double> tile =
          evaluator.tileOfRow(rows[r], t, gemm.data() + r * n);
      for (int64_t c = 0; c < tileN && t + c < n; ++c)
        out[r * n + t + c] = tile[c];
    }
  return out;
}

LtEpilogue klx::rt::matchingLtEpilogue(const EpilogueProgram &program) {
  // One column vector, the accumulators, maps of them: nothing else.
  int64_t bias = -1;
  for (const EpilogueValue &v : program.values) {
    if (v.kind == EpilogueValue::Kind::Reduce ||
        v.kind == EpilogueValue::Kind::Splat ||
        v.shape == EpilogueValue::Shape::Row ||
        (v.kind == EpilogueValue::Kind::Vector && bias >= 0))
      return LtEpilogue::None;
    if (v.kind == EpilogueValue::Kind::Vector)
      bias = v.argument;
  }
  if (bias < 0)
    return LtEpilogue::None;
  // Evaluate on one row of a 1 x 64 problem against each candidate.
  EpilogueInputs inputs;
  inputs.size = {1, 64, 64};
  inputs.tile = {64, 64};
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-4, 4);
  std::vector<double> gemm(64);
  std::vector<float> b(64);
  for (int c = 0; c < 64; ++c) {
    gemm[c] = uniform(random);
    b[c] = float(uniform(random));
  }
  inputs.vectors[bias] = b;
  std::vector<double> got = evaluateEpilogue(program, inputs, gemm, {0});
  auto gelu = [](double s) {
    return 0.5 * s * (1 + std::tanh(0.7978845608 * (s + 0.044715 * s * s * s)));
  };
  for (LtEpilogue candidate :
       {LtEpilogue::Bias, LtEpilogue::ReluBias, LtEpilogue::GeluBias}) {
    bool same = true;
    for (int c = 0; c < 64 && same; ++c) {
      double s = gemm[c] + b[c];
      double want = candidate == LtEpilogue::Bias       ? s
                    : candidate == LtEpilogue::ReluBias ? std::max(s, 0.0)
                                                        : gelu(s);
      same = std::fabs(got[c] - want) <= 1e-6 * std::max(1.0, std::fabs(want));
    }
    if (same)
      return candidate;
  }
  return LtEpilogue::None;
}

const char *klx::rt::ltEpilogueName(LtEpilogue epilogue) {
  switch (epilogue) {
  case LtEpilogue::Bias:
    return "BIAS";
  case LtEpilogue::ReluBias:
    return "RELU_BIAS";
  case LtEpilogue::GeluBias:
    return "GELU_BIAS";
  case LtEpilogue::None:
    break;
  }
  return "none";
}

double klx::rt::maxUlpError(const std::vector<float> &out,
                            const std::vector<double> &ref, int64_t n,
                            const std::vector<int64_t> &rows, int64_t rowStride,
                            DType dtype, double floor) {
  // A binade holds 2^7 steps of bf16, 2^10 of f16, 2^23 of f32.
  int mantissa = dtype == DType::BF16 ? 7 : dtype == DType::F16 ? 10 : 23;
  if (rowStride == 0)
    rowStride = n;
  double worst = 0;
  for (size_t r = 0; r < rows.size(); ++r)
    for (int64_t j = 0; j < n; ++j) {
      double want = ref[r * n + j];
      double got = out[rows[r] * rowStride + j];
      double scale = std::max(std::fabs(want), floor);
      if (scale == 0 || !std::isfinite(got))
        continue; // non-finite elements are counted by compareRows
      int exponent = std::ilogb(scale);
      double ulp = std::ldexp(1.0, exponent - mantissa);
      worst = std::max(worst, std::fabs(got - want) / ulp);
    }
  return worst;
}
