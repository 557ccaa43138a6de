//===- DeferredRelease.cpp - Keep one wgmma in flight ---------------------===//
//
// A consumer that waits for its wgmma to finish (wgmma.wait_group 0) before
// it releases the stage leaves the tensor cores idle while it waits on the
// next full barrier. With two or more stages it can instead wait for all
// but the newest group (wait_group 1) and release the stage the previous
// k step read:
//
//   scf.for %k = %lb to %ub iter_args(..., %prev = %c0) {
//     consumer_wait full[%i]; mma              // in flight
//     wgmma.wait_group 1                       // step k-1 has finished
//                                              // (the mma's waitGroup)
//     scf.if (%k != %lb) { consumer_release empty[%prev] }
//     scf.yield ..., %i
//   }
//   wgmma.wait_group 0
//   scf.if (%lb < %ub) { consumer_release empty[%last] }
//
// One stage cannot: the producer needs step k's stage back before step k+1
// can start. Ping-pong does not either: with a wgmma in flight in each of
// its two consumer branches ptxas 13.0 serializes every wgmma (C7520,
// "compiler-inserted WG.AR in divergent path").
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace klx;
using namespace klx::nvgpu_lowering;

namespace {

/// The releases to defer in `loop`: those directly in its body after the
/// body's one MMA.
SmallVector<ConsumerReleaseOp> deferrableReleases(scf::ForOp loop, MmaOp mma) {
  SmallVector<ConsumerReleaseOp> releases;
  for (Operation &op : *loop.getBody())
    if (auto release = dyn_cast<ConsumerReleaseOp>(op);
        release && mma->isBeforeInBlock(release))
      releases.push_back(release);
  return releases;
}

/// LLVM peels the first step off a loop whose body tests `k != lb`, so
/// that the test goes. In a kernel of one tile per CTA the peeled wgmma then
/// takes the zero accumulator straight from a constant, and the 128 copies
/// of it that the wgmma's tied registers need sit between wgmma.fence and
/// the wgmma: ptxas injects a warpgroup.arrive there (C7519). Unrolling off
/// for the loop (LLVM then peels nothing either) keeps the accumulator a
/// loop-carried value, copied before the loop. Inside a tile loop the
/// copies land before the fence, and peeling pays: on an H200 (bf16,
/// bench/gpu/trace-ab.sh, 6 processes) the one-tile kernel went from
/// 0.0296 to 0.0286 ms at 2048^3 and from 1.6045 to 1.5760 ms at 8192^3
/// unpeeled, the persistent one from 1.4489 to 1.4674 ms at 8192^3.
void keepFirstStepInLoop(scf::ForOp loop) {
  MLIRContext *context = loop.getContext();
  auto noUnroll = LLVM::LoopUnrollAttr::get(
      context, BoolAttr::get(context, true), {}, {}, {}, {}, {}, {});
  auto annotation =
      LLVM::LoopAnnotationAttr::get(context, {}, {}, {}, noUnroll, {}, {}, {},
                                    {}, {}, {}, {}, {}, {}, {}, {});
  // The name of llvm.br's own attribute: scf-to-cf copies the loop's
  // attributes onto its back edge and cf-to-llvm onto the llvm.br, which
  // exports it as !llvm.loop (as "llvm.loop_annotation" it stayed a
  // foreign attribute there, and LLVM never saw it).
  loop->setAttr("loop_annotation", annotation);
}

void deferInLoop(Lowering &l, scf::ForOp loop, MmaOp mma,
                 ArrayRef<ConsumerReleaseOp> releases) {
  OpBuilder &b = l.b;
  Location loc = loop.getLoc();
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<Value> inits(releases.size(), zero);
  SmallVector<Value> indices;
  for (ConsumerReleaseOp release : releases)
    indices.push_back(release.getIndex());
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                return indices;
              });
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  if (!newLoop->getParentOfType<LoopLikeOpInterface>())
    keepFirstStepInLoop(newLoop);
  ValueRange previous = newLoop.getRegionIterArgs().take_back(releases.size());
  ValueRange last = newLoop.getResults().take_back(releases.size());

  // In the body: all but the newest MMA done (the MMA's own
  // wait_group 1, lowerMma), then the previous step's stages go back.
  b.setInsertionPoint(releases.front());
  Value notFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            newLoop.getInductionVar(), newLoop.getLowerBound());
  auto inBody = scf::IfOp::create(b, loc, notFirst, /*withElse=*/false);
  OpBuilder then = OpBuilder::atBlockTerminator(inBody.thenBlock());
  SmallVector<Value> pipelines;
  for (auto [i, release] : llvm::enumerate(releases)) {
    ConsumerReleaseOp op = release;
    ConsumerReleaseOp::create(then, op.getLoc(), op.getPipeline(), previous[i]);
    pipelines.push_back(op.getPipeline());
    op.erase();
  }

  // After the loop: the last MMA done, its stages go back.
  b.setInsertionPointAfter(newLoop);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, uint64_t(0));
  Value ran =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                            newLoop.getLowerBound(), newLoop.getUpperBound());
  auto after = scf::IfOp::create(b, loc, ran, /*withElse=*/false);
  OpBuilder afterThen = OpBuilder::atBlockTerminator(after.thenBlock());
  for (auto [pipeline, index] : llvm::zip(pipelines, last))
    ConsumerReleaseOp::create(afterThen, loc, pipeline, index);
  l.mmasInFlight.insert(mma);
}

} // namespace

void klx::nvgpu_lowering::deferStageReleases(Lowering &l, gpu::GPUFuncOp func) {
  if (!l.schedule.getDeferRelease() || l.schedule.getStages() < 2 ||
      l.schedule.getPingpong())
    return;
  SmallVector<std::pair<scf::ForOp, MmaOp>> loops;
  func.walk([&](MmaOp mma) {
    if (auto loop = dyn_cast<scf::ForOp>(mma->getParentOp()))
      loops.push_back({loop, mma});
  });
  for (auto [loop, mma] : loops) {
    // A k step of two MMAs (the second fed by the first's accumulators)
    // waits for both before its stages go back.
    auto mmas = loop.getBody()->getOps<MmaOp>();
    if (std::distance(mmas.begin(), mmas.end()) != 1)
      continue;
    SmallVector<ConsumerReleaseOp> releases = deferrableReleases(loop, mma);
    if (!releases.empty())
      deferInLoop(l, loop, mma, releases);
  }
}
