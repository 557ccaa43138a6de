//===- KlxToNVGPU.cpp - klx kernels to gpu, nvgpu and nvvm ----------------===//
//
// Index:
//   [SECTION] Kernel signature and launch facts
//   [SECTION] lowerKernelToNVGPU
//
// The roles and the barriers are in RolesAndBarriers.cpp, the other ops of
// the kernel's body in BodyOps.cpp, the MMAs in Mma.cpp.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "../KernelArguments.h"

#include "klx/Conversion/KlxToNVGPU.h"
#include "klx/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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
  auto vectorType = MemRefType::get({ShapedType::kDynamic}, b.getF32Type());
  SmallVector<Type> argTypes;
  Block &body = kernel.getBodyBlock();
  for (auto [arg, use] : llvm::zip(body.getArguments(), uses)) {
    if (!isa<klx::TensorType>(arg.getType()))
      argTypes.push_back(arg.getType());
    else if (use == TensorUse::Output)
      argTypes.push_back(schedule.getTmaStore() ? Type(ptrType) : outputType);
    else if (use == TensorUse::RowVector || use == TensorUse::ColVector)
      argTypes.push_back(vectorType);
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
  // What the kernel stores, when it is not A x B (DescribeEpilogue.cpp).
  if (Attribute epilogue = kernel->getAttr(kEpilogueAttrName)) {
    NamedAttrList launch(func->getAttrOfType<DictionaryAttr>(kLaunchAttrName));
    launch.set("epilogue", epilogue);
    func->setAttr(kLaunchAttrName, launch.getDictionary(context));
  }

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

// [SECTION] lowerKernelToNVGPU ------------------------------------------------

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
  l.rowType = VectorType::get(
      {2 * schedule.rowsPerConsumer() / ScheduleAttr::kEpilogueBoxRows},
      b.getF32Type());
  l.colType = VectorType::get({schedule.getTileN() / 4}, b.getF32Type());
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

} // namespace

LogicalResult klx::lowerKernelToNVGPU(KernelOp kernel, ModuleOp module,
                                      const TraceOptions &trace) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  if (!schedule)
    return kernel.emitOpError("has no schedule; run klx-materialize-schedule "
                              "first");
  FailureOr<SmallVector<TensorUse>> uses =
      classifyArguments(kernel, "klx-to-nvgpu");
  if (failed(uses) || failed(checkMapBodies(kernel)))
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
  retypeVectors(l, func);

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
