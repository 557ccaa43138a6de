//===- Lowering.h - What the parts of klx-to-nvgpu share --------*- C++ -*-===//
//
// Private to lib/Conversion/KlxToNVGPU.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_CONVERSION_KLXTONVGPU_LOWERING_H
#define KLX_LIB_CONVERSION_KLXTONVGPU_LOWERING_H

#include "klx/Analysis/KernelLaunch.h"
#include "klx/Conversion/KlxToNVGPU.h"
#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace klx::nvgpu_lowering {

using namespace mlir;

// Stages start 1024-aligned, at least 64 bytes past the dynamic shared
// memory symbol (ScheduleAttr::dynamicSharedBytes reserves the slack).
constexpr int64_t kSwizzleAlignment = 1024;
constexpr int64_t kBoxColumns = 64; // 128 bytes of 16-bit elements
constexpr int64_t kTryWaitTicks = 10000000;

/// Rows of A's and B's boxes one CTA loads: the whole tile (A) or k step
/// (B), or its share when the CTAs of a cluster split the operand.
inline int64_t shareRowsA(ScheduleAttr s) {
  return s.getTileM() / s.getClusterN();
}
inline int64_t shareRowsB(ScheduleAttr s) {
  return s.getTileK() / s.getClusterM();
}

/// What the ops of one lowered kernel share.
struct Lowering {
  Lowering(ScheduleAttr schedule, OpBuilder &b) : schedule(schedule), b(b) {}

  ScheduleAttr schedule;
  OpBuilder &b;
  Value threadId, warpgroup;
  Value descA, descB;     // boxes: A tile_m x 64, B 64 x 64 (a cluster's
                          // shares: tile_m / cluster_n, 64 / cluster_m rows)
  Value descD;            // the TMA-store epilogue's boxes of D
  Type consumerDescA;     // the A rows one consumer multiplies
  Type consumerDescB;     // B's whole boxes, when the copies load shares
  Value clusterRank;      // this CTA's rank in its cluster (clusters only)
  Value smem, stagesBase; // dynamic shared memory, first stage
  /// Each pipeline's mbarrier groups; `full` may be another pipeline's
  /// (full_of).
  struct Barriers {
    Value full, empty;
    int64_t txBytes = 0;
    int64_t index = 0; // the pipeline's place, recorded with its events
  };
  DenseMap<Value, Barriers> barriers;
  Value turns; // ping-pong: one mbarrier per consumer
  nvgpu::MBarrierGroupType barrierType;
  Type accType;
  /// What a consumer thread holds of a !klx.row and a !klx.col: its rows'
  /// and its columns' values (Compute.cpp says which).
  VectorType rowType, colType;
  /// The struct convert-nvgpu-to-nvvm makes of `accType`.
  LLVM::LLVMStructType accStruct() const;
  /// MMAs whose stage is released a k step later (deferStageReleases):
  /// they are left in flight instead of waited for.
  llvm::DenseSet<Operation *> mmasInFlight;
  /// Releases right after an MMA waited for at once: with a trace, their
  /// event is stamped and stored by the warp's next one (Hold::StampLate).
  llvm::DenseSet<Operation *> releasesHeld;
  /// With a trace: each MMA's A and B descriptors, built before the
  /// consumer wait in front of it (hoistMmaDescriptors).
  llvm::DenseMap<Operation *, std::pair<Value, Value>> hoistedDescriptors;
  /// The measured timeline (Trace.cpp); `buffer` is null when the kernel
  /// is not instrumented.
  struct Trace {
    Value buffer;          // i64 words in global memory
    Value capacity;        // events per warp (index)
    Value ctaBase, region; // this CTA's header, this warp's count word
    Value counter;         // this thread's events so far (an alloca)
    /// An event held back to be stored with the warp's next one (allocas:
    /// the word, its slot, and whether this thread stores it).
    Value heldWord, heldSlot, heldStore;
    Value traced;          // this CTA records
    Value tracedWarpgroup; // ... and this thread is its warpgroup's first
    TraceOptions options;
  } trace;

  Value index(Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value mul(Location loc, Value x, int64_t v) {
    return arith::MulIOp::create(b, loc, x, index(loc, v));
  }
  Value add(Location loc, Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value add(Location loc, Value x, int64_t v) {
    return add(loc, x, index(loc, v));
  }
  /// A typed view of shared memory at `bytes` past the first stage.
  Value view(Location loc, Value bytes, ArrayRef<int64_t> shape) {
    auto type =
        MemRefType::get(shape, schedule.getDtype(), AffineMap(),
                        gpu::AddressSpaceAttr::get(
                            b.getContext(), gpu::AddressSpace::Workgroup));
    return memref::ViewOp::create(b, loc, type, smem,
                                  add(loc, stagesBase, bytes), ValueRange());
  }
  Value stageOffset(Location loc, Value stage) {
    return mul(loc, stage, schedule.stageBytes());
  }
};

/// Dynamic shared memory, the stages' base, each pipeline's mbarrier
/// groups and the ping-pong turns (`turns` may be null), initialised by one
/// thread before everyone starts.
void lowerPipelines(Lowering &l, MutableArrayRef<PipelineOp> pipelines,
                    TurnsOp turns);

/// Computes where this warp's events go and stamps the CTA's start;
/// called at the kernel's entry.
void setUpTrace(Lowering &l, Location loc, Value buffer, Value capacity,
                const TraceOptions &options);

/// Stamps the CTA's end (globaltimer and clock) before each return.
void finishTrace(Lowering &l, gpu::GPUFuncOp func);

/// Whether recordEvent stores its event at once or holds it for the warp's
/// next event (or the return) to store: stamped now (an MMA left in flight,
/// stamped before its issue), or stamped late, with the clock the next
/// event reads (a release right after an MMA waited for at once: no clock
/// read between the MMA's end and the arrive; Trace.cpp says why).
enum class Hold { No, StampNow, StampLate };

/// Records `kind` (with the stage, when there is one, and the pipeline's
/// index) at the builder's
/// insertion point, by the warpgroup's first thread when `wholeWarpgroup`,
/// else by whichever thread runs it. Nothing without a trace buffer.
/// A held event takes its slot now and is stored by storeHeldEvent; the
/// event before it must have been stored already, which holds for a
/// release right after an MMA's stamp and for an MMA's stamp stored right
/// after its issue.
void recordEvent(Lowering &l, Location loc, TraceEventKind kind, Value stage,
                 bool wholeWarpgroup, int64_t pipeline = 0,
                 Hold hold = Hold::No);

/// Whether no later copy of the same fill (the copies after it in its
/// block, up to the next op with side effects) fills the same stage of the
/// same pipeline. Only that copy is recorded, once it is issued: the copies
/// of one fill issue back to back, and the last one's issue stands for them
/// all (in a cluster sharing A, the share that lands in the other CTAs is
/// A's, issued just before). The critical chain links a consumer's wait to
/// the latest such event among the CTAs whose copies fill the stage.
/// Recording each one put a store per copy on the producer's path, which
/// without warp roles is the MMAs' path too: on the H100 no roles went from
/// +6.8% to +5.6% at 2048^3 and from +10.1% to +8.8% at 8192^3 with one
/// event per stage.
bool isLastCopyOfStage(CopyOp copy);

/// Stores the event held back by recordEvent's `hold`, if this thread
/// holds one; one stamped late gets `nextClock` (the clock of the event
/// being recorded), or without it a clock read here.
void storeHeldEvent(Lowering &l, Location loc, Value nextClock = {});

/// Waits for phase `parity` of `barriers[index]` (`wait` emits the
/// blocking wait) and records the wait as `begin` and its end, but only
/// where a non-blocking test finds the phase incomplete: a wait that does
/// not block costs the kernel one test and no events.
void waitAndRecord(Lowering &l, Location loc, Value barriers, Value index,
                   Value parity, TraceEventKind begin, bool wholeWarpgroup,
                   int64_t pipeline, llvm::function_ref<void()> wait);

/// With a trace, builds each MMA's descriptors before its consumer wait.
void hoistMmaDescriptors(Lowering &l, gpu::GPUFuncOp func);

/// Keeps one wgmma in flight per consumer: each stage is released one k
/// step later, after wgmma.wait_group 1 (needs two or more stages).
void deferStageReleases(Lowering &l, gpu::GPUFuncOp func);

/// Element `at` of fragment `f` of what a consumer thread stores (f32),
/// built at the builder's insertion point.
using EpilogueElement = llvm::function_ref<Value(int64_t f, int64_t at)>;

/// Reads from global memory what elements `at` of fragment `f` (a box's)
/// will need, at the builder's insertion point (a bias, a box ahead of its
/// use).
using EpiloguePrefetch =
    llvm::function_ref<void(int64_t f, ArrayRef<int64_t> at)>;

/// The epilogue through shared memory and TMA stores (`tmaStore`), in
/// place of `store`; Epilogue.cpp says how. Each element is `element`'s
/// (a fused klx.map's), built where its box is written, or else the
/// stored accumulators'; `prefetch` is called for each element of box
/// n + 1 before box n is written, so its reads overlap box n's work.
void lowerStoreThroughTma(Lowering &l, StoreOp store,
                          EpilogueElement element = nullptr,
                          EpiloguePrefetch prefetch = nullptr);

/// Every thread waits for its bulk stores before the kernel returns.
void waitForTmaStores(gpu::GPUFuncOp func);

/// A consumer warpgroup's release of a stage in a cluster: lane 0 of its
/// warp w arrives on the empty barrier of CTA w (w < size), so that each
/// CTA hears once from every consumer warpgroup of the cluster, all the
/// CTAs its producer multicasts into. (A cluster-scope arrive from every
/// thread, as a CTA's release does, made the kernel 0.58x cuBLAS.)
void releaseAcrossCluster(Lowering &l, Location loc, Value empty, Value index);

/// consumer_release: an arrive on the stage's empty barrier (across the
/// cluster in one), recorded after it; a release held (releasesHeld) takes
/// its slot before it instead, and is stamped and stored by the warp's
/// next event (Trace.cpp says why).
void lowerAndRecordRelease(Lowering &l, ConsumerReleaseOp release);

/// Arrivals an empty barrier waits for per phase: the pipeline's (every
/// consumer thread), or in a cluster one per consumer warpgroup per CTA.
int64_t emptyArrivals(const Lowering &l, PipelineOp pipeline);

/// With a cluster: every CTA's barriers are initialised before any CTA
/// multicasts into them or arrives on them (in place of the CTA's barrier
/// after initialisation), and no CTA leaves while another may still
/// arrive on its barriers (at the end).
void syncClusterAfterInit(Lowering &l, Location loc);
void syncClusterAtEnd(gpu::GPUFuncOp func);

/// Replaces `mma` with a wgmma of the consumer's rows (Mma.cpp), its issue
/// recorded when the kernel records a trace.
void lowerAndRecordMma(Lowering &l, MmaOp mma);

/// The roles become one if/else on the warpgroup index: the branch is where
/// each role's setmaxnreg goes, and where ptxas can honour it.
LogicalResult lowerRoles(Lowering &l, WarpSpecializeOp roles);

/// producer_acquire: wait until the consumers emptied the stage (the
/// phase before the one the acquire names), recorded where it blocks,
/// then expect the stage's bytes on its full barrier (BodyOps.cpp).
void lowerProducerAcquires(Lowering &l, gpu::GPUFuncOp func);

/// The LLVM struct convert-nvgpu-to-nvvm makes of a warpgroup accumulator:
/// one inner struct per 64 rows, each of `columns` / 2 f32 per thread.
LLVM::LLVMStructType accumulatorStruct(MLIRContext *context, int64_t rows,
                                       int64_t columns);

/// Gives every !klx.row and !klx.col value in `func` what a thread holds
/// of it (Lowering::rowType, colType), before the ops are lowered.
void retypeVectors(Lowering &l, gpu::GPUFuncOp func);

/// An error at the first op of a klx.map body that lowerComputeOp cannot
/// lower, checked before the kernel is touched.
LogicalResult checkMapBodies(KernelOp kernel);

/// klx.map, klx.reduce, klx.splat and klx.load_vector, lowered onto what
/// each consumer thread holds (Compute.cpp); `tensors` gives a vector's
/// lowered memref.
bool isComputeOp(Operation *op);
LogicalResult lowerComputeOp(Lowering &l, Operation *op,
                             const DenseMap<Value, Value> &tensors);

/// With the TMA epilogue, a klx.map whose one user is a klx.store is
/// computed in the epilogue, each element where its box is written
/// (lowerComputeOp leaves it; lowerMapIntoStore lowers both).
bool isMapIntoStore(const Lowering &l, Operation *op);
LogicalResult lowerMapIntoStore(Lowering &l, StoreOp store,
                                const DenseMap<Value, Value> &tensors);

/// Lowers every klx op left inside `func` (after the roles are gone;
/// BodyOps.cpp); `tensors` maps the stand-ins of tensor arguments to their
/// lowered values.
LogicalResult lowerBodyOps(Lowering &l, gpu::GPUFuncOp func,
                           DenseMap<Value, Value> &tensors);

} // namespace klx::nvgpu_lowering

#endif // KLX_LIB_CONVERSION_KLXTONVGPU_LOWERING_H
