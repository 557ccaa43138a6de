//===- KlxToNVGPU.cpp - klx kernels to gpu, nvgpu and nvvm ----------------===//
//
// Index:
//   [SECTION] Kernel signature and launch facts
//   [SECTION] Pipeline and copy ops
//   [SECTION] lowerKernelToNVGPU
//
// The roles and the barriers are in RolesAndBarriers.cpp, the MMAs in
// Mma.cpp.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "../KernelArguments.h"

#include "klx/Conversion/KlxToNVGPU.h"
#include "klx/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace klx {
#define GEN_PASS_DEF_KLXTONVGPUPASS
#include "klx/Conversion/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

// [SECTION] Kernel signature and launch facts ---------------------------------

/// klx.launch's params: A and B as tensor maps (box rows x columns,
/// swizzle), then the trace buffer of an instrumented kernel.
ArrayAttr describeNvgpuParams(KernelOp kernel, ArrayRef<TensorUse> uses,
                              const TraceOptions &trace) {
  Builder b(kernel.getContext());
  ScheduleAttr schedule = kernel.getScheduleAttr();
  // The TMA-store epilogue takes D as a tensor map of its boxes.
  auto describeBoxesOfD = [&](AddParamField add) {
    add("kind", b.getStringAttr("tensor_map"));
    add("box", b.getDenseI64ArrayAttr({ScheduleAttr::kEpilogueBoxRows,
                                       ScheduleAttr::kEpilogueBoxColumns}));
    add("swizzle", b.getI64IntegerAttr(schedule.epilogueRowBytes()));
    add("dtype", b.getStringAttr(outDtypeName(schedule)));
  };
  ArrayAttr described = describeParams(
      kernel, uses,
      [&](bool isA, AddParamField add) {
        add("name", b.getStringAttr(isA ? "A" : "B"));
        add("kind", b.getStringAttr("tensor_map"));
        add("box", b.getDenseI64ArrayAttr(
                       {isA ? shareRowsA(schedule) : shareRowsB(schedule),
                        kBoxColumns}));
        add("swizzle", b.getI64IntegerAttr(128));
        add("dtype", b.getStringAttr(dtypeName(schedule)));
      },
      schedule.getTmaStore()
          ? llvm::function_ref<void(AddParamField)>(describeBoxesOfD)
          : nullptr);
  SmallVector<Attribute> params(described.begin(), described.end());
  if (trace.enabled)
    params.push_back(b.getDictionaryAttr({
        b.getNamedAttr("name", b.getStringAttr("trace")),
        b.getNamedAttr("kind", b.getStringAttr("trace")),
        b.getNamedAttr("ctas", b.getI64IntegerAttr(
                                   trace.ctaList.empty() ? trace.ctas : 0)),
        b.getNamedAttr("cta_list", b.getDenseI64ArrayAttr(trace.ctaList)),
        b.getNamedAttr("warps", b.getI64IntegerAttr(schedule.threads() / 32)),
        b.getNamedAttr("format", b.getI64IntegerAttr(rt::kTraceFormat)),
    }));
  return b.getArrayAttr(params);
}

/// The TMA descriptor type of operand tiles (and of the epilogue's
/// boxes of D): the box and its swizzle.
nvgpu::TensorMapDescriptorType
descriptorType(MLIRContext *context, int64_t rows, Type dtype,
               int64_t columns = kBoxColumns,
               nvgpu::TensorMapSwizzleKind swizzle =
                   nvgpu::TensorMapSwizzleKind::SWIZZLE_128B) {
  auto box =
      MemRefType::get({rows, columns}, dtype, AffineMap(),
                      IntegerAttr::get(IntegerType::get(context, 64), 3));
  return nvgpu::TensorMapDescriptorType::get(
      context, box, swizzle, nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

// [SECTION] Pipeline, copy and MMA ops
// ------------------------------------------

/// The multicast mask of a 1-D cluster: every CTA (its rank's bit).
Value wholeCluster(Lowering &l, Location loc) {
  return arith::ConstantIntOp::create(l.b, loc, l.b.getI16Type(),
                                      (1 << l.schedule.clusterSize()) - 1);
}

/// Bytes of one 128-byte box row times `rows`, as an index.
Value rowBytes(Lowering &l, Location loc, int64_t rows) {
  return l.index(loc, rows * kBoxColumns *
                          (l.schedule.getDtype().getIntOrFloatBitWidth() / 8));
}

void tryWait(Lowering &l, Location loc, Value barriers, Value index,
             Value parity) {
  nvgpu::MBarrierTryWaitParityOp::create(l.b, loc, barriers, parity,
                                         l.index(loc, kTryWaitTicks), index);
}

void lowerCopy(Lowering &l, CopyOp copy) {
  OpBuilder &b = l.b;
  Location loc = copy.getLoc();
  b.setInsertionPoint(copy);
  ScheduleAttr s = l.schedule;
  Value stage = l.stageOffset(loc, copy.getIndex());
  Value full = l.barriers[copy.getPipeline()].full;
  Value k = l.mul(
      loc, copy.getOperand() == Operand::A ? copy.getCol() : copy.getRow(),
      s.getTileK());
  // In a cluster the CTAs that share an operand's tile each load their
  // rank's rows of its boxes (a share of whole 8-row swizzle atoms, so
  // the bytes land where one box would put them) into every CTA.
  bool shareA = s.getClusterN() > 1, shareB = s.getClusterM() > 1;
  Value mask = shareA || shareB ? wholeCluster(l, loc) : Value();
  if (copy.getOperand() == Operand::A) {
    int64_t share = shareRowsA(s);
    Value rows = l.mul(loc, copy.getRow(), s.getTileM());
    Value dstBytes = stage;
    if (shareA) {
      rows = l.add(loc, rows, l.mul(loc, l.clusterRank, share));
      dstBytes = l.add(loc, stage,
                       arith::MulIOp::create(b, loc, l.clusterRank,
                                             rowBytes(l, loc, share)));
    }
    Value dst = l.view(loc, dstBytes, {share, kBoxColumns});
    nvgpu::TmaAsyncLoadOp::create(b, loc, dst, full, l.descA,
                                  ValueRange{k, rows}, copy.getIndex(),
                                  shareA ? mask : Value(), Value());
  } else {
    // B is tile_k x tile_n: tile_n / 64 boxes of 64 x 64, side by side.
    Value columns = l.mul(loc, copy.getCol(), s.getTileN());
    Value bStart = l.add(loc, stage, l.index(loc, s.tileBytes(Operand::A)));
    int64_t boxBytes =
        s.getTileK() * kBoxColumns * (s.getDtype().getIntOrFloatBitWidth() / 8);
    int64_t share = shareRowsB(s);
    if (shareB) {
      Value skipped =
          arith::MulIOp::create(b, loc, l.clusterRank, rowBytes(l, loc, share));
      bStart = l.add(loc, bStart, skipped);
      k = l.add(loc, k, l.mul(loc, l.clusterRank, share));
    }
    for (int64_t j = 0; j < s.getTileN() / kBoxColumns; ++j) {
      Value dst = l.view(loc, l.add(loc, bStart, l.index(loc, j * boxBytes)),
                         {share, kBoxColumns});
      Value column = l.add(loc, columns, l.index(loc, j * kBoxColumns));
      nvgpu::TmaAsyncLoadOp::create(b, loc, dst, full, l.descB,
                                    ValueRange{column, k}, copy.getIndex(),
                                    shareB ? mask : Value(), Value());
    }
  }
  copy.erase();
}

void lowerStore(Lowering &l, StoreOp store, Value output) {
  OpBuilder &b = l.b;
  Location loc = store.getLoc();
  b.setInsertionPoint(store);
  ScheduleAttr s = l.schedule;
  // A view the size of one consumer's share: nvgpu.warpgroup.mma.store
  // places each warp's rows 16 x (its warp index in the CTA) past the
  // view, so consumer c (warpgroup c, warps 4c..4c+3) lands 64c rows past
  // it, where its share starts c x rowsPerConsumer rows into the tile (0
  // for ping-pong, whose consumers each hold the whole tile). Start the
  // view at the difference. (It is negative only in the index arithmetic;
  // no access is.)
  Value row = l.mul(loc, store.getRow(), s.getTileM());
  int64_t shareRows = s.getPingpong() ? 0 : s.rowsPerConsumer();
  if (shareRows != 64)
    row = l.add(loc, row, l.mul(loc, l.warpgroup, shareRows - 64));
  Value column = l.mul(loc, store.getCol(), s.getTileN());
  auto tile = memref::SubViewOp::create(
      b, loc, output, ArrayRef<OpFoldResult>{row, column},
      ArrayRef<OpFoldResult>{b.getIndexAttr(s.rowsPerConsumer()),
                             b.getIndexAttr(s.getTileN())},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, store.getAcc(), tile);
  store.erase();
}

void lowerAdvance(Lowering &l, AdvanceOp advance) {
  OpBuilder &b = l.b;
  Location loc = advance.getLoc();
  b.setInsertionPoint(advance);
  Value index, phase;
  if (Value count = advance.getCount()) {
    // n stages at once: the phase flips once per wrap.
    Value linear = l.add(loc, advance.getIndex(), count);
    Value stages = l.index(loc, advance.getStages());
    index = arith::RemUIOp::create(b, loc, linear, stages);
    Value wraps = arith::DivUIOp::create(b, loc, linear, stages);
    Value odd = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, wraps, l.index(loc, 1)), l.index(loc, 0));
    phase = arith::XOrIOp::create(b, loc, advance.getPhase(), odd);
  } else {
    Value next = l.add(loc, advance.getIndex(), l.index(loc, 1));
    Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                        l.index(loc, advance.getStages()));
    index = arith::SelectOp::create(b, loc, wraps, l.index(loc, 0), next);
    phase = arith::XOrIOp::create(b, loc, advance.getPhase(), wraps);
  }
  advance.replaceAllUsesWith(ValueRange{index, phase});
  advance.erase();
}

/// Lowers every klx op left inside `func` (after the roles are gone).
LogicalResult lowerBodyOps(Lowering &l, gpu::GPUFuncOp func,
                           DenseMap<Value, Value> &tensors) {
  hoistMmaDescriptors(l, func);
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<KlxDialect>(op->getDialect()))
      ops.push_back(op);
    auto mma = dyn_cast_or_null<MmaOp>(op->getPrevNode());
    if (isa<ConsumerReleaseOp>(op) && mma && !l.mmasInFlight.contains(mma))
      l.releasesHeld.insert(op);
  });
  OpBuilder &b = l.b;
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    if (auto wait = dyn_cast<ConsumerWaitOp>(op)) {
      const Lowering::Barriers &barriers = l.barriers[wait.getPipeline()];
      Value full = barriers.full;
      waitAndRecord(l, loc, full, wait.getIndex(), wait.getPhase(),
                    TraceEventKind::WaitFullBegin, true, barriers.index, [&] {
                      tryWait(l, loc, full, wait.getIndex(), wait.getPhase());
                    });
      wait.erase();
    } else if (auto take = dyn_cast<TakeTurnOp>(op)) {
      Value consumer = l.index(loc, take.getConsumer());
      waitAndRecord(l, loc, l.turns, consumer, take.getPhase(),
                    TraceEventKind::WaitTurnBegin, true, 0, [&] {
                      tryWait(l, loc, l.turns, consumer, take.getPhase());
                    });
      take.erase();
    } else if (auto pass = dyn_cast<PassTurnOp>(op)) {
      recordEvent(l, loc, TraceEventKind::PassTurn, Value(), true);
      nvgpu::MBarrierArriveOp::create(b, loc, l.turns,
                                      l.index(loc, pass.getConsumer()));
      pass.erase();
    } else if (auto release = dyn_cast<ConsumerReleaseOp>(op)) {
      lowerAndRecordRelease(l, release);
    } else if (auto copy = dyn_cast<CopyOp>(op)) {
      // One elected thread issues copies; a stage's last copy is recorded
      // once it is issued (Trace.cpp says why).
      bool recorded = isLastCopyOfStage(copy);
      Value stage = copy.getIndex();
      int64_t pipeline = l.barriers[copy.getPipeline()].index;
      Operation *next = copy->getNextNode();
      lowerCopy(l, copy);
      if (recorded) {
        b.setInsertionPoint(next);
        recordEvent(l, loc, TraceEventKind::CopyIssue, stage, false, pipeline);
      }
    } else if (auto mma = dyn_cast<MmaOp>(op)) {
      lowerAndRecordMma(l, mma);
    } else if (auto zero = dyn_cast<ZeroOp>(op)) {
      Value acc =
          nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, l.accType);
      zero.replaceAllUsesWith(acc);
      zero.erase();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      if (l.schedule.getTmaStore())
        lowerStoreThroughTma(l, store);
      else
        lowerStore(l, store, tensors.lookup(store.getTensor()));
    } else if (auto advance = dyn_cast<AdvanceOp>(op)) {
      lowerAdvance(l, advance);
    } else if (auto kTiles = dyn_cast<KTilesOp>(op)) {
      Value count = arith::CeilDivUIOp::create(
          b, loc, kTiles.getExtent(), l.index(loc, l.schedule.getTileK()));
      kTiles.replaceAllUsesWith(count);
      kTiles.erase();
    } else if (!isa<StageTileOp, PipelineOp, TurnsOp>(op)) {
      return op->emitOpError("is not lowered by klx-to-nvgpu; run "
                             "klx-warp-specialize, klx-circular-buffer and "
                             "klx-persistent first");
    }
  }
  // The tiles were read by the MMAs they fed.
  func.walk([](StageTileOp tile) {
    if (tile->use_empty())
      tile.erase();
  });
  return success();
}

/// The gpu.module and gpu.func that replace `kernel`, with the lowered
/// signature and the launch facts (klx.launch, the NVVM attributes).
gpu::GPUFuncOp createKernelFunc(KernelOp kernel, ModuleOp module,
                                ArrayRef<TensorUse> uses,
                                const TraceOptions &trace, OpBuilder &b) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  // Signature: tensors read by TMA become pointers to CUtensorMaps (a
  // descriptor in a gpu.func signature does not legalize in MLIR 22), the
  // output a memref of f32, sizes stay index.
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto outputType = MemRefType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, b.getF32Type());
  SmallVector<Type> argTypes;
  Block &body = kernel.getBodyBlock();
  for (auto [arg, use] : llvm::zip(body.getArguments(), uses)) {
    if (!isa<klx::TensorType>(arg.getType()))
      argTypes.push_back(arg.getType());
    else if (use == TensorUse::Output)
      argTypes.push_back(schedule.getTmaStore() ? Type(ptrType) : outputType);
    else
      argTypes.push_back(ptrType);
  }
  if (trace.enabled) {
    argTypes.push_back(ptrType);        // the trace buffer
    argTypes.push_back(b.getI64Type()); // its events per warp
  }

  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(context));
  b.setInsertionPoint(kernel);
  auto gpuModule = gpu::GPUModuleOp::create(
      b, loc, (kernel.getSymName() + "_kernels").str());
  b.setInsertionPointToStart(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                     b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                UnitAttr::get(context));
  int64_t threads = schedule.threads();
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  // A register cap at entry: without it ptxas ignores setmaxnreg (C7508).
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(1));
  int64_t dynamicShared = schedule.dynamicSharedBytes();
  int64_t clusterSize = schedule.clusterSize();
  if (clusterSize > 1)
    func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                  b.getDenseI32ArrayAttr({int32_t(clusterSize), 1, 1}));
  func->setAttr(
      kLaunchAttrName,
      b.getDictionaryAttr({
          b.getNamedAttr("cluster",
                         b.getDenseI64ArrayAttr({clusterSize, 1, 1})),
          b.getNamedAttr("cluster_tiles",
                         b.getDenseI64ArrayAttr(
                             {schedule.getClusterM(), schedule.getClusterN()})),
          b.getNamedAttr("params", describeNvgpuParams(kernel, uses, trace)),
          b.getNamedAttr("dtype", b.getStringAttr(dtypeName(schedule))),
          b.getNamedAttr("block", b.getDenseI64ArrayAttr({threads, 1, 1})),
          b.getNamedAttr("dynamic_shared_memory",
                         b.getI64IntegerAttr(dynamicShared)),
          b.getNamedAttr("grid",
                         b.getStringAttr(schedule.getPersistent() ? "persistent"
                                                                  : "tiles")),
          b.getNamedAttr("tile", b.getDenseI64ArrayAttr({schedule.getTileM(),
                                                         schedule.getTileN(),
                                                         schedule.getTileK()})),
      }));

  return func;
}

/// The kernel's arguments as the klx ops read them: A and B (and a
/// TMA-stored D) as TMA descriptors of their boxes, the rest as they are.
SmallVector<Value> lowerArguments(Lowering &l, ArrayRef<TensorUse> uses,
                                  Block &entry, Location loc) {
  OpBuilder &b = l.b;
  ScheduleAttr schedule = l.schedule;
  MLIRContext *context = b.getContext();
  SmallVector<Value> lowered;
  for (auto [use, newArg] : llvm::zip(uses, entry.getArguments())) {
    Value value = newArg;
    if (use == TensorUse::OperandA || use == TensorUse::OperandB) {
      int64_t rows = use == TensorUse::OperandA ? shareRowsA(schedule)
                                                : shareRowsB(schedule);
      value = UnrealizedConversionCastOp::create(
                  b, loc, descriptorType(context, rows, schedule.getDtype()),
                  newArg)
                  .getResult(0);
      (use == TensorUse::OperandA ? l.descA : l.descB) = value;
    } else if (use == TensorUse::Output && schedule.getTmaStore()) {
      value = l.descD =
          UnrealizedConversionCastOp::create(
              b, loc,
              descriptorType(context, ScheduleAttr::kEpilogueBoxRows,
                             schedule.outElementType(),
                             ScheduleAttr::kEpilogueBoxColumns,
                             schedule.epilogueRowBytes() == 128
                                 ? nvgpu::TensorMapSwizzleKind::SWIZZLE_128B
                                 : nvgpu::TensorMapSwizzleKind::SWIZZLE_64B),
              newArg)
              .getResult(0);
    }
    lowered.push_back(value);
  }
  return lowered;
}

} // namespace

// [SECTION] lowerKernelToNVGPU
// -------------------------------------------------

namespace {

/// What every lowering step reads: the thread's index and warpgroup, the
/// trace's buffer (its last two parameters), the accumulator and
/// descriptor types, and the CTA's rank in its cluster.
void setUpLowering(Lowering &l, Block &entry, Location loc,
                   const TraceOptions &trace) {
  OpBuilder &b = l.b;
  MLIRContext *context = b.getContext();
  ScheduleAttr schedule = l.schedule;
  l.threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  l.warpgroup = arith::DivUIOp::create(b, loc, l.threadId, l.index(loc, 128));
  if (trace.enabled)
    setUpTrace(l, loc, entry.getArguments().drop_back().back(),
               entry.getArguments().back(), trace);
  l.accType = nvgpu::WarpgroupAccumulatorType::get(
      context,
      VectorType::get({schedule.rowsPerConsumer(), schedule.getTileN()},
                      b.getF32Type()));
  l.consumerDescA =
      descriptorType(context, schedule.rowsPerConsumer(), schedule.getDtype());
  if (schedule.getClusterM() > 1)
    l.consumerDescB =
        descriptorType(context, schedule.getTileK(), schedule.getDtype());
  if (schedule.clusterSize() > 1)
    l.clusterRank = gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x);
}

/// The kernel's pipelines, each with the schedule's stages (shared memory
/// is sized, and the epilogue's boxes placed, by them).
FailureOr<SmallVector<PipelineOp>>
collectPipelines(KernelOp kernel, gpu::GPUFuncOp func, ScheduleAttr schedule) {
  SmallVector<PipelineOp> pipelines;
  func.walk([&](PipelineOp p) { pipelines.push_back(p); });
  if (pipelines.empty())
    return kernel.emitOpError("klx-to-nvgpu expects a klx.pipeline (run "
                              "klx-circular-buffer first)");
  for (PipelineOp p : pipelines) {
    if (p.getStages() != pipelines.front().getStages())
      return p.emitOpError("klx-to-nvgpu lays both operands of a stage out "
                           "together, so every pipeline needs the same "
                           "number of stages");
    if (int64_t(p.getStages()) != schedule.getStages())
      return p.emitOpError("has ")
             << p.getStages() << " stages, the schedule "
             << schedule.getStages()
             << ": klx-to-nvgpu sizes shared memory by the schedule";
  }
  return pipelines;
}

/// The one klx.warp_specialize of a warp-specialized schedule (none
/// otherwise: all warpgroups run the same code), lowered.
LogicalResult lowerRolesIfAny(Lowering &l, KernelOp kernel,
                              gpu::GPUFuncOp func) {
  SmallVector<WarpSpecializeOp> roles;
  func.walk([&](WarpSpecializeOp r) { roles.push_back(r); });
  size_t expectedRoles = l.schedule.getWarpSpecialize() ? 1 : 0;
  if (roles.size() != expectedRoles)
    return kernel.emitOpError("klx-to-nvgpu expects ")
           << expectedRoles << " klx.warp_specialize for this schedule, found "
           << roles.size() << " (run klx-warp-specialize first)";
  return roles.empty() ? success() : lowerRoles(l, roles[0]);
}

/// producer_acquire: wait until the consumers emptied the stage (the
/// phase before the one the acquire names), recorded where it blocks,
/// then expect the stage's bytes on its full barrier.
void lowerProducerAcquires(Lowering &l, gpu::GPUFuncOp func) {
  OpBuilder &b = l.b;
  SmallVector<ProducerAcquireOp> acquires;
  func.walk([&](ProducerAcquireOp a) { acquires.push_back(a); });
  for (ProducerAcquireOp acquire : acquires) {
    b.setInsertionPoint(acquire);
    Location loc = acquire.getLoc();
    Value previous = arith::XOrIOp::create(
        b, loc, acquire.getPhase(),
        arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    const Lowering::Barriers &barriers = l.barriers[acquire.getPipeline()];
    waitAndRecord(
        l, loc, barriers.empty, acquire.getIndex(), previous,
        TraceEventKind::WaitEmptyBegin, false, barriers.index,
        [&] { tryWait(l, loc, barriers.empty, acquire.getIndex(), previous); });
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers.full,
                                            l.index(loc, barriers.txBytes),
                                            acquire.getIndex(), Value());
    acquire.erase();
  }
}

} // namespace

LogicalResult klx::lowerKernelToNVGPU(KernelOp kernel, ModuleOp module,
                                      const TraceOptions &trace) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  if (!schedule)
    return kernel.emitOpError("has no schedule; run klx-materialize-schedule "
                              "first");
  FailureOr<SmallVector<TensorUse>> uses =
      classifyArguments(kernel, "klx-to-nvgpu");
  if (failed(uses))
    return failure();
  OpBuilder b(kernel.getContext());
  gpu::GPUFuncOp func = createKernelFunc(kernel, module, *uses, trace, b);
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Lowering l(schedule, b);
  setUpLowering(l, entry, kernel.getLoc(), trace);

  SmallVector<Value> lowered = lowerArguments(l, *uses, entry, kernel.getLoc());
  InlinedBody inlined = inlineKernelBody(kernel, func, lowered, b);
  retypeAccumulators(func, l.accType);

  FailureOr<SmallVector<PipelineOp>> pipelines =
      collectPipelines(kernel, func, schedule);
  if (failed(pipelines) || failed(lowerRolesIfAny(l, kernel, func)))
    return failure();
  SmallVector<TurnsOp> turns;
  func.walk([&](TurnsOp t) { turns.push_back(t); });
  if (turns.size() > 1)
    return kernel.emitOpError("klx-to-nvgpu expects at most one klx.turns");
  lowerPipelines(l, *pipelines, turns.empty() ? TurnsOp() : turns.front());
  lowerProducerAcquires(l, func);
  deferStageReleases(l, func);
  if (failed(lowerBodyOps(l, func, inlined.tensors)))
    return failure();
  if (schedule.getTmaStore())
    waitForTmaStores(func);
  if (schedule.clusterSize() > 1)
    syncClusterAtEnd(func);
  if (trace.enabled)
    finishTrace(l, func);
  for (TurnsOp t : turns)
    t.erase();
  for (PipelineOp p : llvm::reverse(*pipelines))
    p.erase();
  for (Operation *standIn : inlined.standIns)
    standIn->erase();
  kernel.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Pass definition
//===----------------------------------------------------------------------===//

namespace {
struct KlxToNVGPUPass final : klx::impl::KlxToNVGPUPassBase<KlxToNVGPUPass> {
  using KlxToNVGPUPassBase::KlxToNVGPUPassBase;
  void runOnOperation() override {
    SmallVector<KernelOp> kernels(getOperation().getOps<KernelOp>());
    TraceOptions trace;
    trace.enabled = instrument;
    trace.ctas = traceCtas;
    trace.ctaList.assign(traceCtaList.begin(), traceCtaList.end());
    for (KernelOp kernel : kernels)
      if (failed(lowerKernelToNVGPU(kernel, getOperation(), trace)))
        return signalPassFailure();
  }
};
} // namespace
