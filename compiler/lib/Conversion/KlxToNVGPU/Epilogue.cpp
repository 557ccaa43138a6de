//===- Epilogue.cpp - The TMA-store epilogue ------------------------------===//
//
// With `tmaStore`, a consumer warpgroup writes its output tile through
// shared memory instead of storing each fragment to global memory:
//
//   for each box n of 64 rows x 32 columns (a row is one swizzle span:
//   128 bytes of f32, 64 of bf16 or f16):
//     every thread: its 8 pairs, st.shared.v2.f32; or each warp, rounded
//                   to bf16x2 or f16x2, two stmatrix.x4; swizzled as
//                   TMA reads
//     fence.proxy.async.shared::cta                   // seen by the TMA unit
//     first thread: cp.async.bulk.wait_group.read 0   // store n-1 was read
//     bar.sync consumer, 128
//     first thread: cp.async.bulk.tensor (shared -> global); commit_group
//
// Each consumer has two boxes and alternates between them, so writing box
// n overlaps the TMA store of box n-1. One barrier per box is enough: box
// n+1 is box n-1's buffer, whose store the first thread waited for before
// the barrier that every thread passes before writing it. A tile has an
// even number of boxes (tile_n is a multiple of 64), so the alternation
// runs on across tiles. The store clips at D's edges, so a ragged tile
// writes nothing past M x N. Before the kernel exits every thread waits
// for its own bulk groups (the boxes must outlive the reads).
//
// The accumulator's registers are reached through the struct that
// convert-nvgpu-to-nvvm turns it into (an unrealized cast that the
// conversion's own cast folds into): nvgpu has no op that hands out a
// fragment's elements, and the only one that stores them
// (nvgpu.warpgroup.mma.store) stores one f32 at a time, unswizzled.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

constexpr int64_t kOutBoxRows = ScheduleAttr::kEpilogueBoxRows;
constexpr int64_t kOutBoxColumns = ScheduleAttr::kEpilogueBoxColumns;
constexpr int64_t kChunkBytes = 16; // what a swizzle moves
// Named barrier 0 is the CTA's; consumer c synchronizes on 1 + c.
constexpr int64_t kFirstConsumerBarrier = 1;

/// What every thread of a consumer computes once per tile.
struct ThreadPlace {
  Value isFirst; // the warpgroup's first thread issues the stores
  /// f32 D: where this thread's 8 pairs go in any box (bytes, i64), per
  /// row half h and 8 columns j at 4 h + j. wgmma leaves each thread, per j and
  /// h, a pair of columns at elements 2 h + 4 j and 2 h + 4 j + 1 of a
  /// fragment: row 16 x warp + lane / 4 + 8 h, columns 8 j + 2 (lane % 4)
  /// and the next. The TMA unit's swizzle XORs the 16-byte chunk of a row
  /// with bits 7 and up of the row's offset (row mod 8 for 128-byte rows,
  /// row / 2 mod 4 for 64-byte ones); row mod 8 is lane / 4.
  SmallVector<Value, 8> pairOffsets;
  /// 16-bit D: where this lane's row of the stmatrix.x4 it joins goes, for
  /// the box's columns 0-15 and 16-31. Lanes 8i to 8i + 7 name the rows of
  /// matrix i: rows 8 (i % 2) + lane % 8 of the warp's 16, 8 columns from
  /// 8 (i / 2); each thread's pairs are those matrices' registers, as
  /// wgmma left them (row lane / 4, columns 2 (lane % 4) and the next).
  SmallVector<Value, 2> matrixOffsets;
  Value emptyPair, first, second;  // to build each vector<2xf32>
  Value barrierId, barrierThreads; // this consumer's named barrier
};

/// The swizzle's XOR key of box row `row`: bits 7 and up of the row's
/// byte offset, over the row's 16-byte chunks (TMA reads the box so).
Value swizzleKey(Lowering &l, Location loc, Value row) {
  OpBuilder &b = l.b;
  int64_t rowBytes = l.schedule.epilogueRowBytes();
  return arith::RemUIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc, l.mul(loc, row, rowBytes),
                             l.index(loc, 128)),
      l.index(loc, rowBytes / kChunkBytes));
}

/// f32 D: ThreadPlace::pairOffsets of the thread at `lane` of `warp`.
void placePairs(Lowering &l, Location loc, Value warp, Value lane,
                ThreadPlace &p) {
  OpBuilder &b = l.b;
  int64_t elementBytes = l.schedule.outElementBytes();
  int64_t rowBytes = l.schedule.epilogueRowBytes();
  Value quad = arith::RemUIOp::create(b, loc, lane, l.index(loc, 4));
  Value laneRow = arith::DivUIOp::create(b, loc, lane, l.index(loc, 4));
  Value rowInFragment = l.add(loc, l.mul(loc, warp, 16), laneRow);
  // Row mod 8 (the key's part that changes with the row) is lane / 4.
  Value key = swizzleKey(l, loc, laneRow);
  // The pair of columns 8 j + 2 (lane % 4) starts (8 j + 2 (lane % 4)) x
  // elementBytes into the row: 8 j columns are whole chunks, so only the
  // chunk index depends on j.
  Value pairInRow = l.mul(loc, quad, 2 * elementBytes);
  Value firstChunk =
      arith::DivUIOp::create(b, loc, pairInRow, l.index(loc, kChunkBytes));
  Value inChunk =
      arith::RemUIOp::create(b, loc, pairInRow, l.index(loc, kChunkBytes));
  int64_t chunksPerEight = 8 * elementBytes / kChunkBytes;
  for (int64_t half = 0; half < 2; ++half) {
    Value row = l.add(loc, rowInFragment, l.index(loc, 8 * half));
    Value rowStart = l.add(loc, l.mul(loc, row, rowBytes), inChunk);
    for (int64_t j = 0; j < kOutBoxColumns / 8; ++j) {
      Value chunk = l.add(loc, firstChunk, l.index(loc, chunksPerEight * j));
      Value swizzled = arith::XOrIOp::create(b, loc, chunk, key);
      Value offset = l.add(loc, rowStart, l.mul(loc, swizzled, kChunkBytes));
      p.pairOffsets.push_back(
          arith::IndexCastOp::create(b, loc, b.getI64Type(), offset));
    }
  }
}

/// 16-bit D: ThreadPlace::matrixOffsets of the thread at `lane` of `warp`.
void placeMatrixRows(Lowering &l, Location loc, Value warp, Value lane,
                     ThreadPlace &p) {
  OpBuilder &b = l.b;
  int64_t rowBytes = l.schedule.epilogueRowBytes();
  Value matrix = arith::DivUIOp::create(b, loc, lane, l.index(loc, 8));
  Value row = l.add(
      loc, l.mul(loc, warp, 16),
      l.add(loc,
            l.mul(loc, arith::RemUIOp::create(b, loc, matrix, l.index(loc, 2)),
                  8),
            arith::RemUIOp::create(b, loc, lane, l.index(loc, 8))));
  Value key = swizzleKey(l, loc, row);
  Value right = arith::DivUIOp::create(b, loc, matrix, l.index(loc, 2));
  for (int64_t half = 0; half < 2; ++half) {
    // 8 columns of 16-bit elements are one 16-byte chunk.
    Value chunk = l.add(loc, right, l.index(loc, 2 * half));
    Value swizzled = arith::XOrIOp::create(b, loc, chunk, key);
    Value offset = l.add(loc, l.mul(loc, row, rowBytes),
                         l.mul(loc, swizzled, kChunkBytes));
    p.matrixOffsets.push_back(
        arith::IndexCastOp::create(b, loc, b.getI64Type(), offset));
  }
}

ThreadPlace placeThread(Lowering &l, Location loc) {
  OpBuilder &b = l.b;
  ThreadPlace p;
  Value inGroup = arith::RemUIOp::create(b, loc, l.threadId, l.index(loc, 128));
  Value lane = arith::RemUIOp::create(b, loc, inGroup, l.index(loc, 32));
  Value warp = arith::DivUIOp::create(b, loc, inGroup, l.index(loc, 32));
  p.isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, inGroup,
                                    l.index(loc, 0));
  // Each form of the box's writes needs its own places.
  if (l.schedule.outElementType().isF32())
    placePairs(l, loc, warp, lane, p);
  else
    placeMatrixRows(l, loc, warp, lane, p);
  Type i64 = b.getI64Type();
  p.emptyPair =
      LLVM::PoisonOp::create(b, loc, VectorType::get({2}, b.getF32Type()));
  p.first = arith::ConstantIntOp::create(b, loc, i64, 0);
  p.second = arith::ConstantIntOp::create(b, loc, i64, 1);
  Type i32 = b.getI32Type();
  Value id = l.add(loc, l.warpgroup, l.index(loc, kFirstConsumerBarrier));
  p.barrierId = arith::IndexCastOp::create(b, loc, i32, id);
  p.barrierThreads = arith::ConstantIntOp::create(b, loc, i32, 128);
  return p;
}

void consumerBarrier(OpBuilder &b, Location loc, const ThreadPlace &p) {
  NVVM::BarrierOp::create(b, loc, Type(), p.barrierId, p.barrierThreads,
                          NVVM::BarrierReductionAttr(), Value());
}

/// Runs `body` in the first thread of the consumer only.
void inFirstThread(OpBuilder &b, Location loc, const ThreadPlace &p,
                   llvm::function_ref<void()> body) {
  auto branch = scf::IfOp::create(b, loc, p.isFirst, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  body();
}

/// This thread's pair at `element` of fragment `f`, as a vector<2xf32>.
Value pairAt(OpBuilder &b, Location loc, const ThreadPlace &p,
             EpilogueElement element, int64_t f, int64_t at) {
  Value values = p.emptyPair;
  for (auto [k, slot] : llvm::enumerate(ValueRange{p.first, p.second}))
    values = LLVM::InsertElementOp::create(b, loc, values,
                                           element(f, at + int64_t(k)), slot);
  return values;
}

/// Writes columns [32 box, 32 box + 32) of one 64-row fragment, rounded to
/// nearest into 16-bit floats of D's type, into the box at `boxPtr` with
/// two stmatrix.x4 per warp: 16 columns x 16 rows each, four 8 x 8
/// matrices whose registers are each thread's pairs (the seed's epilogue:
/// 8 st.shared.b32 per thread became 2 stmatrix).
void writeBoxByMatrices(Lowering &l, Location loc, const ThreadPlace &p,
                        EpilogueElement element, int64_t f, int64_t box,
                        Value boxPtr) {
  OpBuilder &b = l.b;
  MLIRContext *context = b.getContext();
  auto sharedPtr = LLVM::LLVMPointerType::get(context, 3);
  Type outType = l.schedule.outElementType();
  for (int64_t half = 0; half < 2; ++half) {
    SmallVector<Value, 4> registers;
    for (int64_t matrix = 0; matrix < 4; ++matrix) {
      // Matrix i: row half i % 2, the 8 columns 16 half + 8 (i / 2).
      int64_t j = 2 * half + matrix / 2;
      int64_t at = 2 * (matrix % 2) + 4 * (box * (kOutBoxColumns / 8) + j);
      Value pair =
          LLVM::FPTruncOp::create(b, loc, VectorType::get({2}, outType),
                                  pairAt(b, loc, p, element, f, at));
      registers.push_back(
          LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair));
    }
    Value ptr = LLVM::GEPOp::create(b, loc, sharedPtr, b.getI8Type(), boxPtr,
                                    ValueRange{p.matrixOffsets[half]});
    NVVM::StMatrixOp::create(
        b, loc, ptr, registers,
        NVVM::MMALayoutAttr::get(context, NVVM::MMALayout::row),
        NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
        NVVM::LdStMatrixEltTypeAttr::get(context,
                                         NVVM::LdStMatrixEltType::B16));
  }
}

/// Writes columns [32 box, 32 box + 32) of one 64-row fragment into the
/// box at `boxPtr`, each pair where ThreadPlace::pairOffsets says: as two
/// f32, or, for a 16-bit D, through stmatrix (writeBoxByMatrices).
void writeBox(Lowering &l, Location loc, const ThreadPlace &p,
              EpilogueElement element, int64_t f, int64_t box, Value boxPtr) {
  OpBuilder &b = l.b;
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Type outType = l.schedule.outElementType();
  if (!outType.isF32())
    return writeBoxByMatrices(l, loc, p, element, f, box, boxPtr);
  for (int64_t half = 0; half < 2; ++half) {
    for (int64_t j = 0; j < kOutBoxColumns / 8; ++j) {
      int64_t at = 2 * half + 4 * (box * (kOutBoxColumns / 8) + j);
      Value values = pairAt(b, loc, p, element, f, at);
      Value ptr = LLVM::GEPOp::create(b, loc, sharedPtr, b.getI8Type(), boxPtr,
                                      ValueRange{p.pairOffsets[4 * half + j]});
      LLVM::StoreOp::create(b, loc, values, ptr,
                            /*alignment=*/2 * l.schedule.outElementBytes());
    }
  }
}

} // namespace

LLVM::LLVMStructType nvgpu_lowering::accumulatorStruct(MLIRContext *context,
                                                       int64_t rows,
                                                       int64_t columns) {
  SmallVector<Type> elements(columns / 2, Float32Type::get(context));
  auto inner = LLVM::LLVMStructType::getLiteral(context, elements);
  SmallVector<Type> fragments(rows / kOutBoxRows, inner);
  return LLVM::LLVMStructType::getLiteral(context, fragments);
}

void nvgpu_lowering::lowerStoreThroughTma(Lowering &l, StoreOp store,
                                          EpilogueElement element,
                                          EpiloguePrefetch prefetch) {
  OpBuilder &b = l.b;
  Location loc = store.getLoc();
  b.setInsertionPoint(store);
  ScheduleAttr s = l.schedule;
  MLIRContext *context = b.getContext();
  ThreadPlace p = placeThread(l, loc);
  int64_t rows = s.rowsPerConsumer();
  // Without a fused map, the elements are the accumulators'.
  Value acc;
  auto accumulator = [&](int64_t f, int64_t at) -> Value {
    if (!acc)
      acc = UnrealizedConversionCastOp::create(b, loc, l.accStruct(),
                                               store.getAcc())
                .getResult(0);
    return LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{f, at});
  };
  if (!element)
    element = accumulator;
  // Consumer c is warpgroup c; a ping-pong consumer holds the whole tile.
  Value firstRow = l.mul(loc, store.getRow(), s.getTileM());
  if (!s.getPingpong())
    firstRow = l.add(loc, firstRow, l.mul(loc, l.warpgroup, rows));
  Value firstColumn = l.mul(loc, store.getCol(), s.getTileN());
  // The boxes follow the stages (ScheduleAttr::epilogueBytes), this
  // consumer's two after those of the consumers before it.
  Value boxes = l.add(loc, l.stagesBase,
                      l.add(loc, l.index(loc, s.getStages() * s.stageBytes()),
                            l.mul(loc, l.warpgroup,
                                  ScheduleAttr::kEpilogueBoxesPerConsumer *
                                      s.epilogueBoxBytes())));
  Value smemStart =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, l.smem);
  auto boxType = MemRefType::get(
      {kOutBoxRows, kOutBoxColumns}, s.outElementType(), AffineMap(),
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));

  int64_t boxesPerFragment = s.getTileN() / kOutBoxColumns;
  int64_t boxCount = rows / kOutBoxRows * boxesPerFragment;
  // Box n holds elements 16 (n % boxesPerFragment) on of fragment n /
  // boxesPerFragment: what a fused map reads for them is read a box ahead.
  auto prefetchBox = [&](int64_t n) {
    if (!prefetch || n >= boxCount)
      return;
    SmallVector<int64_t> at;
    for (int64_t e = 0; e < kOutBoxColumns / 2; ++e)
      at.push_back((n % boxesPerFragment) * (kOutBoxColumns / 2) + e);
    prefetch(n / boxesPerFragment, at);
  };
  prefetchBox(0);
  for (int64_t f = 0; f < rows / kOutBoxRows; ++f) {
    for (int64_t box = 0; box < boxesPerFragment; ++box) {
      int64_t n = f * boxesPerFragment + box;
      prefetchBox(n + 1);
      Value boxOffset =
          l.add(loc, boxes,
                l.index(loc, (n % ScheduleAttr::kEpilogueBoxesPerConsumer) *
                                 s.epilogueBoxBytes()));
      Value boxAddress = arith::IndexCastOp::create(
          b, loc, b.getI64Type(), l.add(loc, smemStart, boxOffset));
      Value boxPtr = LLVM::IntToPtrOp::create(
          b, loc, LLVM::LLVMPointerType::get(context, 3), boxAddress);
      writeBox(l, loc, p, element, f, box, boxPtr);
      NVVM::FenceProxyOp::create(
          b, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
      // The previous box's store is done reading its buffer, which the
      // next box is written into once every thread has passed the barrier.
      inFirstThread(b, loc, p, [&] {
        NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, b.getUnitAttr());
      });
      consumerBarrier(b, loc, p);
      inFirstThread(b, loc, p, [&] {
        Value view = memref::ViewOp::create(b, loc, boxType, l.smem, boxOffset,
                                            ValueRange());
        Value column =
            l.add(loc, firstColumn, l.index(loc, box * kOutBoxColumns));
        Value row = l.add(loc, firstRow, l.index(loc, f * kOutBoxRows));
        nvgpu::TmaAsyncStoreOp::create(b, loc, view, l.descD,
                                       ValueRange{column, row}, Value());
        NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
      });
    }
  }
  store.erase();
}

void nvgpu_lowering::waitForTmaStores(gpu::GPUFuncOp func) {
  func.walk([](gpu::ReturnOp ret) {
    OpBuilder b(ret);
    NVVM::CpAsyncBulkWaitGroupOp::create(b, ret.getLoc(), 0, UnitAttr());
  });
}
