//===- Launch.cpp - Grid and kernel arguments from a manifest -------------===//

#include "klx/Runtime/Launch.h"

#include "klx/Runtime/CudaDriver.h"

#include <algorithm>

using namespace klx::rt;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

OutputLayout klx::rt::outputLayout(const Manifest &m, const ProblemSize &size) {
  return {ceilDiv(size.m, m.tile[0]) * m.tile[0],
          ceilDiv(size.n, m.tile[1]) * m.tile[1]};
}

int64_t klx::rt::kStepsFor(const Manifest &m, const ProblemSize &size) {
  return m.tile[2] > 0 ? ceilDiv(size.k, m.tile[2]) : 0;
}

std::array<unsigned, 3> klx::rt::gridFor(const Manifest &m,
                                         const ProblemSize &size, int smCount,
                                         int maxClusters) {
  if (m.gather)
    return {unsigned(size.m / m.block[0]), 1, 1};
  int64_t tilesM = ceilDiv(size.m, m.tile[0]);
  int64_t tilesN = ceilDiv(size.n, m.tile[1]);
  if (!m.persistent)
    return {unsigned(tilesN), unsigned(tilesM), 1};
  // A cluster walks groups of clusterTiles tiles; the grid is whole
  // clusters, as many as run at once (smCount / size where the driver
  // cannot say) and at most one per group.
  int64_t ctas = m.cluster[0] * m.cluster[1] * m.cluster[2];
  int64_t groups =
      ceilDiv(tilesM, m.clusterTiles[0]) * ceilDiv(tilesN, m.clusterTiles[1]);
  int64_t resident = maxClusters > 0 ? maxClusters : smCount / ctas;
  int64_t clusters = std::max<int64_t>(1, std::min(resident, groups));
  return {unsigned(clusters * ctas), 1, 1};
}

std::vector<void *> PackedArguments::pointers() {
  std::vector<void *> out;
  for (uint64_t &value : values)
    out.push_back(&value);
  return out;
}

PackedArguments klx::rt::packArguments(const Manifest &m,
                                       const ProblemSize &size,
                                       const DeviceOperands &operands) {
  return packArguments(m, m.params, size, operands);
}

PackedArguments klx::rt::packArguments(const Manifest &m,
                                       const std::vector<Param> &params,
                                       const ProblemSize &size,
                                       const DeviceOperands &operands) {
  PackedArguments packed;
  auto push = [&](const std::string &name, uint64_t value) {
    packed.names.push_back(name);
    packed.values.push_back(value);
  };
  for (const Param &param : params) {
    switch (param.kind) {
    case Param::Kind::TensorMap:
      push(param.name, param.name == "A"   ? operands.tensorMapA
                       : param.name == "B" ? operands.tensorMapB
                                           : operands.tensorMapD);
      break;
    case Param::Kind::Memref: {
      if (m.gather) {
        // Vectors: idx and y hold N elements, x N + offset.
        bool isX = param.name == "x";
        uint64_t data = param.name == "idx" ? operands.idx
                        : isX               ? operands.x
                                            : operands.y;
        push(param.name + ".allocated", data);
        push(param.name + ".aligned", data);
        push(param.name + ".offset", 0);
        push(param.name + ".sizes[0]",
             uint64_t(size.m + (isX ? m.gather->offset : 0)));
        push(param.name + ".strides[0]", 1);
        break;
      }
      if (auto vector = operands.vectors.find(param.name);
          vector != operands.vectors.end()) {
        // An epilogue's vector: a bias per column, a scale per row.
        push(param.name + ".allocated", vector->second.first);
        push(param.name + ".aligned", vector->second.first);
        push(param.name + ".offset", 0);
        push(param.name + ".sizes[0]", uint64_t(vector->second.second));
        push(param.name + ".strides[0]", 1);
        break;
      }
      // (allocated, aligned, offset, sizes..., strides...): D is M x N
      // inside a buffer of whole tiles (outputLayout); A (M x K) and B
      // (K x N), when memrefs, are dense row-major.
      bool isA = param.name == "A", isB = param.name == "B";
      std::vector<int64_t> sizes = isA   ? std::vector<int64_t>{size.m, size.k}
                                   : isB ? std::vector<int64_t>{size.k, size.n}
                                         : std::vector<int64_t>{size.m, size.n};
      sizes.resize(param.rank, 1);
      std::vector<int64_t> strides(param.rank, 1);
      if (param.rank >= 2)
        strides[0] = isA || isB ? sizes[1] : outputLayout(m, size).rowStride;
      uint64_t data = isA ? operands.a : isB ? operands.b : operands.d;
      push(param.name + ".allocated", data);
      push(param.name + ".aligned", data);
      push(param.name + ".offset", 0);
      for (int64_t i = 0; i < param.rank; ++i)
        push(param.name + ".sizes[" + std::to_string(i) + "]", sizes[i]);
      for (int64_t i = 0; i < param.rank; ++i)
        push(param.name + ".strides[" + std::to_string(i) + "]", strides[i]);
      break;
    }
    case Param::Kind::Scalar:
      push(param.name, param.name == "M"   ? size.m
                       : param.name == "N" ? size.n
                       : param.name == "K" ? size.k
                       : param.name == "k_tiles"
                           ? (size.k + m.tile[2] - 1) / m.tile[2]
                           : 0);
      break;
    case Param::Kind::Unused:
      push(param.name, 0);
      break;
    case Param::Kind::Trace:
      push(param.name, operands.trace);
      push(param.name + ".events", operands.traceEvents);
      break;
    }
  }
  return packed;
}

TensorMapRequest klx::rt::tensorMapFor(const Manifest &m, const Param &param,
                                       const ProblemSize &size) {
  TensorMapRequest request;
  bool isA = param.name == "A", isD = param.name == "D";
  uint64_t rows = isA || isD ? size.m : size.k;
  uint64_t columns = isA ? size.k : size.n;
  request.dims = {columns, rows};
  uint64_t stride = isD ? uint64_t(outputLayout(m, size).rowStride) : columns;
  request.rowStrideBytes = stride * dtypeBytes(param.dtype);
  request.box = {unsigned(param.box[1]), unsigned(param.box[0])};
  request.swizzle = param.swizzleBytes == 128  ? cu::kSwizzle128B
                    : param.swizzleBytes == 64 ? cu::kSwizzle64B
                    : param.swizzleBytes == 32 ? cu::kSwizzle32B
                                               : cu::kSwizzleNone;
  request.dataType = param.dtype == DType::BF16  ? cu::kTensorBFloat16
                     : param.dtype == DType::F32 ? cu::kTensorFloat32
                                                 : cu::kTensorFloat16;
  return request;
}
