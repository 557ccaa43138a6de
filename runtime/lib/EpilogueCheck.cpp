//===- EpilogueCheck.cpp - Inputs and references of an epilogue -----------===//

#include "EpilogueCheck.h"

#include "klx/Runtime/HostMath.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

using namespace klx::rt;

double klx::rt::gemmMagnitude(const ProblemSize &size) {
  return std::sqrt(double(size.k) / 9);
}

double klx::rt::rootMeanSquare(const std::vector<double> &values) {
  double sum = 0;
  for (double v : values)
    sum += v * v;
  return values.empty() ? 0 : std::sqrt(sum / double(values.size()));
}

std::map<int64_t, std::vector<float>>
klx::rt::epilogueVectors(const Manifest &m, const ProblemSize &size) {
  std::map<int64_t, std::vector<float>> vectors;
  if (!m.epilogue)
    return vectors;
  double scale = gemmMagnitude(size);
  for (auto [argument, rows] : m.epilogue->vectors) {
    std::mt19937 random(uint32_t(11 + argument));
    std::uniform_real_distribution<double> uniform(-1, 1);
    std::vector<float> &values = vectors[argument];
    values.resize(size_t(rows ? size.m : size.n));
    // Each value a bf16 one, so that a reference that takes its bias in
    // bf16 (cuBLASLt's, with bf16 D) adds the same numbers.
    for (float &v : values)
      v = bf16ToFloat(floatToBF16(float(scale * uniform(random))));
  }
  return vectors;
}

EpilogueInputs
klx::rt::epilogueInputs(const Manifest &m, const ProblemSize &size,
                        std::map<int64_t, std::vector<float>> vectors) {
  EpilogueInputs inputs;
  inputs.size = size;
  inputs.tile = {m.tile[0], m.tile[1]};
  for (size_t i = 0; i < m.params.size(); ++i) {
    const Param &p = m.params[i];
    if (p.kind != Param::Kind::Scalar)
      continue;
    if (p.name == "M" || p.name == "N" || p.name == "K")
      inputs.scalars[int64_t(i)] = double(p.name == "M"   ? size.m
                                          : p.name == "N" ? size.n
                                                          : size.k);
  }
  inputs.vectors = std::move(vectors);
  return inputs;
}

std::vector<double> klx::rt::epilogueRows(const EpilogueProgram &program,
                                          const EpilogueInputs &inputs,
                                          const std::vector<double> &gemm,
                                          const std::vector<int64_t> &rows,
                                          unsigned threads) {
  int64_t n = inputs.size.n;
  std::vector<double> out(gemm.size());
  threads = std::max(1u, std::min<unsigned>(threads, unsigned(rows.size())));
  size_t per = (rows.size() + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      size_t first = t * per, last = std::min(rows.size(), first + per);
      if (first >= last)
        return;
      std::vector<int64_t> mine(rows.begin() + first, rows.begin() + last);
      std::vector<double> part(gemm.begin() + first * n,
                               gemm.begin() + last * n);
      std::vector<double> done = evaluateEpilogue(program, inputs, part, mine);
      std::copy(done.begin(), done.end(), out.begin() + first * n);
    });
  for (std::thread &worker : workers)
    worker.join();
  return out;
}
