//===- Epilogue.h - What a GEMM kernel stores instead of A x B --*- C++ -*-===//
//
// A tile program that computes on its accumulators (a bias and GELU, a
// softmax along rows) describes what it stores in the bundle's
// problem.epilogue (compiler/lib/Dialect/Klx/Transforms/DescribeEpilogue.cpp
// writes it). klx-run reads it here and evaluates it on the CPU, in double,
// on the rows it checks, tile by tile as the kernel does (a row's reduction
// covers a tile's columns, past N included, where A x B is zero).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_EPILOGUE_H
#define KLX_RUNTIME_EPILOGUE_H

#include "klx/Runtime/Json.h"
#include "klx/Runtime/Manifest.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace klx::rt {

/// One instruction of a body: an operand (`arg`, `const`, `param`, `tile`)
/// or an arith/math op on earlier instructions.
struct EpilogueInstruction {
  std::string op;        // "arg", "const", "param", "tile", "arith.addf"...
  std::vector<int> args; // earlier instructions
  double value = 0;      // const
  int64_t index = 0;     // arg: input #, param: argument #
  bool rows = false;     // tile: the row index (else the column index)
  int predicate = -1;    // cmpf, cmpi
  /// `op` resolved when the program is read, so that evaluating an element
  /// compares no names: an operand, or an op's arithmetic (its arguments'
  /// values, up to three, and the predicate).
  enum class Source { Arg, Const, Param, Tile, Op } source = Source::Op;
  double (*apply)(const double *args, int predicate) = nullptr;
};

/// One value of the program, per (row, tile of columns): the accumulators
/// and maps to them are one number per column, vectors along rows one per
/// row, along columns one per column.
struct EpilogueValue {
  enum class Kind { Acc, Vector, Map, Reduce, Splat } kind = Kind::Acc;
  enum class Shape { Tile, Row, Column } shape = Shape::Tile;
  int64_t argument = -1;   // a vector's kernel argument
  std::vector<int> inputs; // a map's; a reduction's one
  std::string reduce;      // "max", "min", "sum"
  std::vector<EpilogueInstruction> body;
  int yield = -1;
};

struct EpilogueProgram {
  std::vector<EpilogueValue> values;
  int output = -1;
  /// The kernel arguments that are vectors: argument # -> along rows.
  std::map<int64_t, bool> vectors;
  /// Whether a value reduces along rows (within a tile of columns).
  bool reducesRows() const {
    for (const EpilogueValue &v : values)
      if (v.kind == EpilogueValue::Kind::Reduce)
        return true;
    return false;
  }
};

/// Parses problem.epilogue; nullopt with `error` ("problem.epilogue: ...")
/// when it is malformed, says it is unknown, or uses an op klx-run does
/// not evaluate.
std::optional<EpilogueProgram> readEpilogue(const Json &json,
                                            std::string &error);

/// Reads a gemm's problem.epilogue, if it has one, into `m.epilogue`;
/// false with `error` set when it is there and cannot be read.
bool readProblemEpilogue(const Json &problem, Manifest &m, std::string &error);

/// Why `m`'s parameters do not hold the vectors its epilogue reads (each an
/// f32 memref of rank 1), or "".
std::string checkEpilogueParams(const Manifest &m);

/// What the evaluation reads besides A x B.
struct EpilogueInputs {
  ProblemSize size;
  std::array<int64_t, 2> tile{}; // tile_m, tile_n
  /// Each scalar argument's value, by argument # (M, N, K).
  std::map<int64_t, double> scalars;
  /// Each vector argument's values, by argument #.
  std::map<int64_t, std::vector<float>> vectors;
};

/// D's rows `rows` (N apart) from `gemm`, the same rows of A x B.
std::vector<double> evaluateEpilogue(const EpilogueProgram &program,
                                     const EpilogueInputs &inputs,
                                     const std::vector<double> &gemm,
                                     const std::vector<int64_t> &rows);

/// The cuBLASLt epilogue that computes the same, found by evaluating the
/// program on sample points: bias per column, then nothing, ReLU or GELU
/// (tanh approximation).
enum class LtEpilogue { None, Bias, ReluBias, GeluBias };
LtEpilogue matchingLtEpilogue(const EpilogueProgram &program);
const char *ltEpilogueName(LtEpilogue epilogue);

/// The largest error, in bf16 ulps whatever D's type, a correct kernel's
/// epilogue leaves (maxUlpError): half an ulp from rounding D to bf16,
/// approximate tanh and exp2 (tanh.approx.f32 is good to 2^-11, a
/// quarter of a bf16 ulp: judging an f32 D by its own ulps would fail
/// every approximate epilogue), and f32 sums, each well under one.
inline constexpr double kEpilogueUlps = 2;

/// The largest error of `out` against `ref` at `rows` (as compareRows
/// takes them), in units in the last place of `dtype` (bf16: 2^-7 of a
/// binade) of max(|ref|, floor): `floor` keeps elements near zero from
/// being judged by the ulps of tiny numbers, which f32 sums of K products
/// cannot reach.
double maxUlpError(const std::vector<float> &out,
                   const std::vector<double> &ref, int64_t n,
                   const std::vector<int64_t> &rows, int64_t rowStride,
                   DType dtype, double floor);

} // namespace klx::rt

#endif // KLX_RUNTIME_EPILOGUE_H
