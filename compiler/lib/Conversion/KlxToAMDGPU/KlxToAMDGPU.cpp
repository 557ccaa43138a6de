//===- KlxToAMDGPU.cpp - klx tile programs to gpu and amdgpu --------------===//
//
// The same tile program klx lowers to TMA and wgmma on Hopper becomes, on
// CDNA3/4, four waves of MFMA fed by LDS-DMA:
//
//   prologue: DMA k-tile 0 into stage 0
//   for k:    wait for this wave's DMAs; barrier (all waves' are in, and
//             all are done reading the stage about to be refilled)
//             DMA k-tile k+1 into the other stage
//             MFMA over k-tile k from this stage
//   epilogue: accumulators to D
//
// The stage is chosen by an scf.if on k's parity, not by arithmetic on an
// address, so that every LDS access derives from one named base (a0, a1,
// b0, b1 in klx.lds_bases) and klx-lds-alias-scope can tell the backend
// that reading stage 0 need not wait for the DMAs into stage 1.
//
// Index:
//   [SECTION] Geometry and schedule checks
//   [SECTION] Copies, MMAs, the epilogue
//   [SECTION] The k loop
//   [SECTION] The phases of lowerKernelToAMDGPU
//   [SECTION] lowerKernelToAMDGPU
//   [SECTION] Pass definition
//
//===----------------------------------------------------------------------===//

#include "../KernelArguments.h"

#include "klx/Conversion/KlxToAMDGPU.h"
#include "klx/Conversion/Passes.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace klx {
#define GEN_PASS_DEF_KLXTOAMDGPUPASS
#include "klx/Conversion/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

// [SECTION] Geometry and schedule checks -------------------------------------

constexpr int64_t kWaveSize = 64;
constexpr int64_t kThreads = 256; // four waves, 2 x 2 over the tile
constexpr int64_t kMfma = 32;     // 32x32x8: a wave's block of D
constexpr int64_t kMfmaK = 8;
constexpr int64_t kAccPerBlock = 16; // f32 per lane per 32x32 block
constexpr int64_t kDmaLaneBytes = 4; // one dword per lane
constexpr int64_t kDmaWaveBytes = kWaveSize * kDmaLaneBytes;

/// LDS a workgroup may use.
int64_t ldsCapacity(StringRef chipset) {
  return chipset == "gfx950" ? 160 * 1024 : 64 * 1024;
}

struct Geometry {
  int64_t tileM = 0, tileN = 0, tileK = 0;
  int64_t waveRows = 0, waveCols = 0; // of D, per wave
  int64_t blocksM = 0, blocksN = 0;   // 32x32 MFMA blocks per wave
  int64_t aBytes = 0, bBytes = 0;     // one stage of A, of B
  Type dtype;

  int64_t blocks() const { return blocksM * blocksN; }
  int64_t ldsBytes() const { return 2 * (aBytes + bBytes); }
};

FailureOr<Geometry> checkSchedule(KernelOp kernel, ScheduleAttr s,
                                  StringRef chipset) {
  Geometry g;
  g.tileM = s.getTileM();
  g.tileN = s.getTileN();
  g.tileK = s.getTileK();
  g.dtype = s.getDtype();
  if (!g.dtype.isF16() && !g.dtype.isBF16())
    return kernel.emitOpError("klx-to-amdgpu: MFMA 32x32x8 takes f16 or bf16 "
                              "operands; got ")
           << g.dtype;
  if (g.tileM % (2 * kMfma) || g.tileN % (2 * kMfma))
    return kernel.emitOpError("klx-to-amdgpu: tile_m and tile_n must be "
                              "multiples of 64 (two waves of 32x32 MFMA "
                              "blocks each way); got ")
           << g.tileM << " x " << g.tileN;
  if (g.tileK % kMfmaK)
    return kernel.emitOpError("klx-to-amdgpu: tile_k must be a multiple of "
                              "8 (MFMA 32x32x8); got ")
           << g.tileK;
  g.waveRows = g.tileM / 2;
  g.waveCols = g.tileN / 2;
  g.blocksM = g.waveRows / kMfma;
  g.blocksN = g.waveCols / kMfma;
  int64_t elementBytes = g.dtype.getIntOrFloatBitWidth() / 8;
  g.aBytes = g.tileM * g.tileK * elementBytes;
  g.bBytes = g.tileK * g.tileN * elementBytes;
  if (g.ldsBytes() > ldsCapacity(chipset))
    return kernel.emitOpError("klx-to-amdgpu: two LDS stages of ")
           << g.tileM << "x" << g.tileK << " A and " << g.tileK << "x"
           << g.tileN << " B tiles need " << g.ldsBytes()
           << " bytes, more than the " << ldsCapacity(chipset) << " of "
           << chipset << " (try a smaller tile_m or tile_n)";
  if (s.getOutDtype())
    return kernel.emitOpError("klx-to-amdgpu: out_dtype must be f32 here: "
                              "each thread stores its f32 results (D's "
                              "rounding to bf16 or f16 is the NVIDIA "
                              "TMA-store epilogue's)");
  if (s.getWarpSpecialize() || s.getPingpong() || s.getPersistent() ||
      s.getTmaStore() || s.getStages() != 2)
    kernel.emitWarning("klx-to-amdgpu: ")
        << "warp_specialize, pingpong, consumers, register budgets and the "
           "TMA-store epilogue are NVIDIA schedule parameters and are "
           "ignored here (each thread stores its results); stages is 2 "
           "(LDS double buffering) and each workgroup computes one tile "
           "(persistent is ignored): four waves all copy and multiply";
  return g;
}

// [SECTION] Copies, MMAs, the epilogue ---------------------------------------

/// What the lowered ops of one kernel share.
struct AmdLowering {
  AmdLowering(const Geometry &g, OpBuilder &b) : g(g), b(b) {}
  const Geometry &g;
  OpBuilder &b;
  Value lane, wave, waveRow0, waveCol0;
  Value a[2], bt[2]; // the named stage bases: a0, a1, b0, b1
  Type accType;

  Value c(Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(Location loc, Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(Location loc, Value x, int64_t v) {
    return arith::MulIOp::create(b, loc, x, c(loc, v));
  }
  Value div(Location loc, Value x, int64_t v) {
    return arith::DivUIOp::create(b, loc, x, c(loc, v));
  }
  Value rem(Location loc, Value x, int64_t v) {
    return arith::RemUIOp::create(b, loc, x, c(loc, v));
  }

  /// A `rows x cols` tile of `global` at (row0, col0) into `stage`: the
  /// tile's bytes in 256-byte pieces, one LDS-DMA per wave each, dealt to
  /// the waves in turn; lane l brings bytes 4l..4l+3 of its piece.
  void copyTile(Location loc, Value global, Value row0, Value col0, Value stage,
                int64_t rows, int64_t cols) {
    int64_t elementBytes = g.dtype.getIntOrFloatBitWidth() / 8;
    int64_t perLane = kDmaLaneBytes / elementBytes;
    int64_t pieces = rows * cols * elementBytes / kDmaWaveBytes;
    int64_t perWave = pieces / (kThreads / kWaveSize);
    auto transfer = VectorType::get({perLane}, g.dtype);
    auto loop =
        scf::ForOp::create(b, loc, c(loc, 0), c(loc, perWave), c(loc, 1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value piece = add(loc, mul(loc, loop.getInductionVar(), 4), wave);
    Value first = mul(loc, piece, kDmaWaveBytes / elementBytes);
    Value mine = add(loc, first, mul(loc, lane, perLane));
    Value srcRow = add(loc, row0, div(loc, mine, cols));
    Value srcCol = add(loc, col0, rem(loc, mine, cols));
    amdgpu::GatherToLDSOp::create(
        b, loc, global, ValueRange{srcRow, srcCol}, stage,
        ValueRange{div(loc, first, cols), rem(loc, first, cols)},
        TypeAttr::get(transfer));
  }

  /// acc += A(stage) * B(stage) over the k-tile, 8 at a time: each wave's
  /// blocksM x blocksN MFMA blocks, lane l holding rows l % 32 of A and
  /// columns l % 32 of B at k = 4 (l / 32) .. +3.
  Value multiply(Location loc, Value aStage, Value bStage, Value acc) {
    auto frag = VectorType::get({4}, g.dtype);
    Value laneRow = rem(loc, lane, kMfma);
    Value laneK = mul(loc, div(loc, lane, kMfma), 4);
    auto loop = scf::ForOp::create(b, loc, c(loc, 0), c(loc, g.tileK / kMfmaK),
                                   c(loc, 1), ValueRange{acc});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = add(loc, mul(loc, loop.getInductionVar(), kMfmaK), laneK);
    Value sum = loop.getRegionIterArgs()[0];
    SmallVector<Value> aFrags, bFrags;
    for (int64_t i = 0; i < g.blocksM; ++i) {
      Value row = add(loc, add(loc, waveRow0, c(loc, i * kMfma)), laneRow);
      aFrags.push_back(
          vector::LoadOp::create(b, loc, frag, aStage, ValueRange{row, k}));
    }
    for (int64_t j = 0; j < g.blocksN; ++j) {
      // B is k-major in LDS: the lane's four k are four rows apart.
      Value col = add(loc, add(loc, waveCol0, c(loc, j * kMfma)), laneRow);
      SmallVector<Value> elements;
      for (int64_t e = 0; e < 4; ++e)
        elements.push_back(memref::LoadOp::create(
            b, loc, bStage, ValueRange{add(loc, k, c(loc, e)), col}));
      bFrags.push_back(vector::FromElementsOp::create(b, loc, frag, elements));
    }
    for (int64_t i = 0; i < g.blocksM; ++i)
      for (int64_t j = 0; j < g.blocksN; ++j) {
        int64_t block = i * g.blocksN + j;
        Value c = vector::ExtractOp::create(b, loc, sum, block);
        Value d = amdgpu::MFMAOp::create(
            b, loc, c.getType(), kMfma, kMfma, kMfmaK, /*blocks=*/1, aFrags[i],
            bFrags[j], c, /*cbsz=*/0, /*abid=*/0, amdgpu::MFMAPermB::none,
            false, false, false, false);
        sum = vector::InsertOp::create(b, loc, d, sum, block);
      }
    scf::YieldOp::create(b, loc, sum);
    return loop.getResult(0);
  }

  /// D's tile (tm, tn) from the accumulators: in block (i, j), lane l's
  /// element e is row 8 (e / 4) + 4 (l / 32) + e % 4, column l % 32.
  void store(Location loc, Value acc, Value output, Value tm, Value tn) {
    Value rowBase = add(loc, mul(loc, tm, g.tileM), waveRow0);
    Value colBase = add(loc, mul(loc, tn, g.tileN), waveCol0);
    Value laneRow = mul(loc, div(loc, lane, kMfma), 4);
    Value laneCol = rem(loc, lane, kMfma);
    for (int64_t i = 0; i < g.blocksM; ++i)
      for (int64_t j = 0; j < g.blocksN; ++j) {
        Value block = vector::ExtractOp::create(b, loc, acc, i * g.blocksN + j);
        Value col = add(loc, add(loc, colBase, c(loc, j * kMfma)), laneCol);
        auto loop = scf::ForOp::create(b, loc, c(loc, 0), c(loc, kAccPerBlock),
                                       c(loc, 1));
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value e = loop.getInductionVar();
        Value group = mul(loc, div(loc, e, 4), 8);
        Value row = add(loc, add(loc, rowBase, c(loc, i * kMfma)),
                        add(loc, add(loc, group, laneRow), rem(loc, e, 4)));
        Value v = vector::ExtractOp::create(b, loc, block, OpFoldResult(e));
        memref::StoreOp::create(b, loc, v, output, ValueRange{row, col});
      }
  }
};

// [SECTION] The k loop -------------------------------------------------------

/// The parts of a tile program's k loop: acc = mma(load a A[tm, k],
/// load b B[k, tn], acc), yielded.
struct KLoop {
  scf::ForOp loop;
  LoadOp loadA, loadB;
};

FailureOr<KLoop> matchKLoop(MmaOp mma) {
  auto loop = dyn_cast<scf::ForOp>(mma->getParentOp());
  auto loadA = mma.getA().getDefiningOp<LoadOp>();
  auto loadB = mma.getB().getDefiningOp<LoadOp>();
  auto fail = [&](StringRef why) {
    return mma.emitOpError("klx-to-amdgpu expects a tile program's k loop "
                           "(acc = klx.mma of klx.load a A[tm, k] and "
                           "klx.load b B[k, tn], yielded): ")
           << why;
  };
  if (!loop || loop.getNumRegionIterArgs() != 1)
    return fail("the MMA is not in an scf.for carrying one accumulator");
  if (!loadA || !loadB || loadA.getOperand() != Operand::A ||
      loadB.getOperand() != Operand::B)
    return fail("its operands are not klx.load a and klx.load b");
  Value k = loop.getInductionVar();
  if (loadA.getCol() != k || loadB.getRow() != k ||
      !loop.isDefinedOutsideOfLoop(loadA.getRow()) ||
      !loop.isDefinedOutsideOfLoop(loadB.getCol()))
    return fail("the loads are not at [tm, k] and [k, tn]");
  if (mma.getAcc() != loop.getRegionIterArgs()[0] ||
      loop.getBody()->getTerminator()->getOperand(0) != mma.getResult())
    return fail("the accumulator does not go round the loop");
  if (!matchPattern(loop.getLowerBound(), m_Zero()) ||
      !matchPattern(loop.getStep(), m_One()))
    return fail("the loop does not count k tiles from 0 in steps of 1");
  return KLoop{loop, loadA, loadB};
}

/// Replaces the k loop by the double-buffered one.
void lowerKLoop(AmdLowering &l, KLoop k,
                const DenseMap<Value, Value> &tensors) {
  OpBuilder &b = l.b;
  const Geometry &g = l.g;
  Location loc = k.loop.getLoc();
  b.setInsertionPoint(k.loop);
  Value globalA = tensors.lookup(k.loadA.getTensor());
  Value globalB = tensors.lookup(k.loadB.getTensor());
  Value rowA = l.mul(loc, k.loadA.getRow(), g.tileM);
  Value colB = l.mul(loc, k.loadB.getCol(), g.tileN);
  Value tiles = k.loop.getUpperBound();
  auto copyStage = [&](Value kTile, int stage) {
    Value kOffset = l.mul(loc, kTile, g.tileK);
    l.copyTile(loc, globalA, rowA, kOffset, l.a[stage], g.tileM, g.tileK);
    l.copyTile(loc, globalB, kOffset, colB, l.bt[stage], g.tileK, g.tileN);
  };
  // A k loop before this one may still be reading stage 0 in slower
  // waves.
  gpu::BarrierOp::create(b, loc);
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, tiles,
                                    l.c(loc, 0));
  auto prologue = scf::IfOp::create(b, loc, any, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(prologue.thenBlock());
    copyStage(l.c(loc, 0), 0);
  }
  auto loop = scf::ForOp::create(b, loc, l.c(loc, 0), tiles, l.c(loc, 1),
                                 ValueRange{k.loop.getInitArgs()[0]});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kTile = loop.getInductionVar();
    amdgpu::MemoryCounterWaitOp::create(b, loc, b.getI32IntegerAttr(0),
                                        IntegerAttr(), IntegerAttr(),
                                        IntegerAttr(), IntegerAttr());
    gpu::BarrierOp::create(b, loc);
    Value next = l.add(loc, kTile, l.c(loc, 1));
    Value more =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next, tiles);
    Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       l.rem(loc, kTile, 2), l.c(loc, 0));
    auto parity = scf::IfOp::create(b, loc, TypeRange{l.accType}, even,
                                    /*withElse=*/true);
    for (int stage = 0; stage < 2; ++stage) {
      Block *block = stage == 0 ? parity.thenBlock() : parity.elseBlock();
      b.setInsertionPointToStart(block);
      auto refill = scf::IfOp::create(b, loc, more, /*withElse=*/false);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(refill.thenBlock());
        copyStage(next, 1 - stage);
      }
      Value acc =
          l.multiply(loc, l.a[stage], l.bt[stage], loop.getRegionIterArgs()[0]);
      scf::YieldOp::create(b, loc, acc);
    }
    b.setInsertionPointAfter(parity);
    scf::YieldOp::create(b, loc, parity.getResult(0));
  }
  k.loop.getResult(0).replaceAllUsesWith(loop.getResult(0));
  k.loop.erase();
}

// [SECTION] The phases of lowerKernelToAMDGPU --------------------------------

/// A scheduled tile program without roles or pipelines: the only input
/// this lowering takes.
LogicalResult checkTileProgram(KernelOp kernel) {
  if (!kernel.getScheduleAttr())
    return kernel.emitOpError("has no schedule; run klx-materialize-schedule "
                              "first");
  if (kernel
          ->walk([](Operation *op) {
            return isa<WarpSpecializeOp, PipelineOp, ForEachTileOp>(op)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted())
    return kernel.emitOpError("klx-to-amdgpu takes a tile program after "
                              "klx-persistent, without roles or pipelines");
  // The ops that compute on accumulators are lowered for Hopper's wgmma
  // fragments only: the first one stops here, named, with the target.
  Operation *compute = nullptr;
  kernel->walk([&](Operation *op) {
    if (!compute && isa<MapOp, ReduceOp, SplatOp, LoadVectorOp>(op))
      compute = op;
  });
  if (compute)
    return compute->emitOpError("is not lowered for AMD targets: "
                                "klx-to-amdgpu lowers GEMM tile programs "
                                "(klx.load, klx.mma, klx.store) onto MFMA; "
                                "compute on accumulators needs an NVIDIA "
                                "target (sm_90a)");
  return success();
}

/// The gpu.module and gpu.func that replace `kernel`: A and B as memrefs
/// of the element type, D as f32, sizes as index, and the two LDS stages
/// of A and B as one workgroup attribution with its named bases.
gpu::GPUFuncOp createKernelFunc(KernelOp kernel, ModuleOp module,
                                ArrayRef<TensorUse> uses, const Geometry &g,
                                OpBuilder &b) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  auto dynamic2d = [&](Type element) {
    return MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                           element);
  };
  SmallVector<Type> argTypes;
  Block &body = kernel.getBodyBlock();
  for (auto [arg, use] : llvm::zip(body.getArguments(), uses))
    argTypes.push_back(!isa<klx::TensorType>(arg.getType()) ? arg.getType()
                       : use == TensorUse::Output ? dynamic2d(b.getF32Type())
                                                  : dynamic2d(g.dtype));
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto ldsType =
      MemRefType::get({g.ldsBytes()}, b.getI8Type(), AffineMap(), workgroup);

  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(context));
  b.setInsertionPoint(kernel);
  auto gpuModule = gpu::GPUModuleOp::create(
      b, loc, (kernel.getSymName() + "_kernels").str());
  b.setInsertionPointToStart(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                     b.getFunctionType(argTypes, {}),
                                     TypeRange{ldsType}, TypeRange{});
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                UnitAttr::get(context));
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(kThreads), 1, 1}));
  auto base = [&](int64_t offset, int64_t size) {
    return b.getArrayAttr(
        {b.getI64IntegerAttr(offset), b.getI64IntegerAttr(size)});
  };
  func->setAttr(
      kLdsBasesAttrName,
      b.getDictionaryAttr({
          b.getNamedAttr("a0", base(0, g.aBytes)),
          b.getNamedAttr("a1", base(g.aBytes, g.aBytes)),
          b.getNamedAttr("b0", base(2 * g.aBytes, g.bBytes)),
          b.getNamedAttr("b1", base(2 * g.aBytes + g.bBytes, g.bBytes)),
      }));
  return func;
}

/// What klx export writes into a Bundle's manifest: A and B are plain
/// memrefs here, and the LDS is static (no dynamic shared memory).
void describeLaunch(gpu::GPUFuncOp func, KernelOp kernel,
                    ArrayRef<TensorUse> uses, const Geometry &g, OpBuilder &b) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  ArrayAttr params =
      describeParams(kernel, uses, [&](bool isA, AddParamField add) {
        add("name", b.getStringAttr(isA ? "A" : "B"));
        add("kind", b.getStringAttr("memref"));
        add("rank", b.getI64IntegerAttr(2));
        add("dtype", b.getStringAttr(dtypeName(schedule)));
      });
  func->setAttr(
      kLaunchAttrName,
      b.getDictionaryAttr({
          b.getNamedAttr("params", params),
          b.getNamedAttr("dtype", b.getStringAttr(dtypeName(schedule))),
          b.getNamedAttr("block", b.getDenseI64ArrayAttr({kThreads, 1, 1})),
          b.getNamedAttr("dynamic_shared_memory", b.getI64IntegerAttr(0)),
          b.getNamedAttr("grid", b.getStringAttr("tiles")),
          b.getNamedAttr("tile",
                         b.getDenseI64ArrayAttr({g.tileM, g.tileN, g.tileK})),
      }));
}

/// What every lowered op reads, at the top of the entry block: the
/// thread's lane and wave, the wave's corner of D, the accumulator type
/// and the four named stage bases of the LDS.
void setUpLowering(AmdLowering &l, gpu::GPUFuncOp func, Location loc) {
  OpBuilder &b = l.b;
  const Geometry &g = l.g;
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  l.lane = l.rem(loc, tid, kWaveSize);
  l.wave = l.div(loc, tid, kWaveSize);
  l.waveRow0 = l.mul(loc, l.div(loc, l.wave, 2), g.waveRows);
  l.waveCol0 = l.mul(loc, l.rem(loc, l.wave, 2), g.waveCols);
  l.accType = VectorType::get({g.blocks(), kAccPerBlock}, b.getF32Type());
  Value lds = func.getWorkgroupAttributions()[0];
  auto stageView = [&](int64_t offset, int64_t rows, int64_t cols) {
    auto type = MemRefType::get({rows, cols}, g.dtype, AffineMap(), workgroup);
    return memref::ViewOp::create(b, loc, type, lds, l.c(loc, offset),
                                  ValueRange());
  };
  l.a[0] = stageView(0, g.tileM, g.tileK);
  l.a[1] = stageView(g.aBytes, g.tileM, g.tileK);
  l.bt[0] = stageView(2 * g.aBytes, g.tileK, g.tileN);
  l.bt[1] = stageView(2 * g.aBytes + g.bBytes, g.tileK, g.tileN);
}

/// Every MMA's k loop, double-buffered; nothing is lowered unless every
/// one matches.
LogicalResult lowerKLoops(AmdLowering &l, gpu::GPUFuncOp func,
                          const DenseMap<Value, Value> &tensors) {
  SmallVector<MmaOp> mmas;
  func.walk([&](MmaOp mma) { mmas.push_back(mma); });
  SmallVector<KLoop> kLoops;
  for (MmaOp mma : mmas) {
    FailureOr<KLoop> k = matchKLoop(mma);
    if (failed(k))
      return failure();
    kLoops.push_back(*k);
  }
  for (const KLoop &k : kLoops)
    lowerKLoop(l, k, tensors);
  return success();
}

/// The klx ops outside the k loops: the accumulators' zeros, the k tile
/// counts and the stores of D.
void lowerZerosCountsAndStores(AmdLowering &l, gpu::GPUFuncOp func,
                               const DenseMap<Value, Value> &tensors) {
  OpBuilder &b = l.b;
  SmallVector<Operation *> rest;
  func.walk([&](Operation *op) {
    if (isa<ZeroOp, KTilesOp, StoreOp>(op))
      rest.push_back(op);
  });
  for (Operation *op : rest) {
    b.setInsertionPoint(op);
    Location oloc = op->getLoc();
    if (auto zero = dyn_cast<ZeroOp>(op)) {
      Value v = arith::ConstantOp::create(
          b, oloc, l.accType,
          DenseElementsAttr::get(cast<ShapedType>(l.accType),
                                 b.getF32FloatAttr(0.0f)));
      zero.getResult().replaceAllUsesWith(v);
    } else if (auto kTiles = dyn_cast<KTilesOp>(op)) {
      Value v = arith::CeilDivUIOp::create(b, oloc, kTiles.getExtent(),
                                           l.c(oloc, l.g.tileK));
      kTiles.getResult().replaceAllUsesWith(v);
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      l.store(oloc, store.getAcc(), tensors.lookup(store.getTensor()),
              store.getRow(), store.getCol());
    }
    op->erase();
  }
}

/// No klx op is left in `func`.
LogicalResult checkAllLowered(KernelOp kernel, gpu::GPUFuncOp func) {
  WalkResult leftover = func.walk([&](Operation *op) {
    if (isa<KlxDialect>(op->getDialect()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (leftover.wasInterrupted())
    return kernel.emitOpError("klx-to-amdgpu left klx ops it does not lower "
                              "(only klx.zero, klx.k_tiles, klx.load, "
                              "klx.mma and klx.store)");
  return success();
}

} // namespace

// [SECTION] lowerKernelToAMDGPU ----------------------------------------------

LogicalResult klx::lowerKernelToAMDGPU(KernelOp kernel, ModuleOp module,
                                       StringRef chipset) {
  if (failed(checkTileProgram(kernel)))
    return failure();
  ScheduleAttr schedule = kernel.getScheduleAttr();
  FailureOr<Geometry> geometry = checkSchedule(kernel, schedule, chipset);
  if (failed(geometry))
    return failure();
  const Geometry &g = *geometry;
  FailureOr<SmallVector<TensorUse>> uses =
      classifyArguments(kernel, "klx-to-amdgpu");
  if (failed(uses))
    return failure();
  OpBuilder b(kernel.getContext());
  gpu::GPUFuncOp func = createKernelFunc(kernel, module, *uses, g, b);
  describeLaunch(func, kernel, *uses, g, b);

  b.setInsertionPointToStart(&func.getBody().front());
  AmdLowering l(g, b);
  setUpLowering(l, func, kernel.getLoc());
  // A and B are read as the memrefs they arrive as.
  InlinedBody inlined = inlineKernelBody(kernel, func, func.getArguments(), b);
  retypeAccumulators(func, l.accType);
  if (failed(lowerKLoops(l, func, inlined.tensors)))
    return failure();
  lowerZerosCountsAndStores(l, func, inlined.tensors);
  if (failed(checkAllLowered(kernel, func)))
    return failure();
  for (Operation *standIn : inlined.standIns)
    standIn->erase();
  kernel.erase();
  return success();
}

// [SECTION] Pass definition --------------------------------------------------

namespace {
struct KlxToAMDGPUPass final : klx::impl::KlxToAMDGPUPassBase<KlxToAMDGPUPass> {
  using KlxToAMDGPUPassBase::KlxToAMDGPUPassBase;
  void runOnOperation() override {
    SmallVector<KernelOp> kernels(getOperation().getOps<KernelOp>());
    for (KernelOp kernel : kernels)
      if (failed(lowerKernelToAMDGPU(kernel, getOperation(), chipset)))
        return signalPassFailure();
  }
};
} // namespace
