//===- Utils.cpp - What several klx transforms need -----------------------===//

#include "klx/Dialect/Klx/Transforms/Transforms.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace klx;

LogicalResult
klx::forEachKernel(Operation *module,
                   function_ref<LogicalResult(KernelOp)> transform) {
  SmallVector<KernelOp> kernels;
  module->walk([&](KernelOp kernel) { kernels.push_back(kernel); });
  bool ok = true;
  for (KernelOp kernel : kernels)
    ok &= succeeded(transform(kernel));
  return success(ok);
}

ForEachTileOp klx::appendIterArgs(RewriterBase &rewriter, ForEachTileOp loop,
                                  ValueRange inits) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> allInits(loop.getInits());
  allInits.append(inits.begin(), inits.end());
  auto newLoop = ForEachTileOp::create(rewriter, loop.getLoc(),
                                       loop.getExtents(), allInits);
  newLoop.setFirstTileAttr(loop.getFirstTileAttr());
  newLoop.setTileStepAttr(loop.getTileStepAttr());
  Block &newBody = newLoop.getBodyBlock();
  // The builder adds a yield only to loops without iter_args.
  if (!newBody.empty())
    rewriter.eraseOp(newBody.getTerminator());
  SmallVector<Value> replacements(
      newBody.getArguments().drop_back(inits.size()));
  rewriter.mergeBlocks(&loop.getBodyBlock(), &newBody, replacements);
  auto yield = cast<YieldOp>(newBody.getTerminator());
  SmallVector<Value> yielded(yield.getValues());
  for (Value arg : newBody.getArguments().take_back(inits.size()))
    yielded.push_back(arg);
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<YieldOp>(yield, yielded);
  rewriter.replaceOp(loop, newLoop.getResults().drop_back(inits.size()));
  return newLoop;
}
