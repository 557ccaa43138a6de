//===- ThreadInterpreter.cpp - A kernel run as one thread -----------------===//
//
// Index:
//   [SECTION] The run and its blocks
//   [SECTION] Loops and branches
//   [SECTION] Values: ids, integers, shuffles and elections
//
//===----------------------------------------------------------------------===//

#include "Analysis/Threads/Interpreter.h"

#include "Analysis/Threads/IntegerFold.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace klx::threads;

namespace {

std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

} // namespace

// [SECTION] The run and its blocks ------------------------------------------

ThreadRun Interpreter::run() {
  ThreadRun result;
  const KernelShape &shape = kernel.shape;
  Block &entry = shape.body->front();
  if (auto func = dyn_cast<gpu::GPUFuncOp>(shape.kernel)) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      BlockArgument arg = entry.getArgument(i);
      if (auto it = in.arguments.find(i); it != in.arguments.end())
        if (widthOf(arg))
          set(arg, it->second);
    }
    for (auto [i, arg] : llvm::enumerate(func.getWorkgroupAttributions()))
      places[arg] = {
          kernel.memory.namedSpace(llvm::formatv("workgroup #{0}", i).str()),
          0};
  } else if (auto launch = dyn_cast<gpu::LaunchOp>(shape.kernel)) {
    for (unsigned d = 0; d < 3; ++d) {
      set(shape.threadIds[d], in.thread[d]);
      set(shape.blockSizes[d], shape.block[d]);
      set(shape.blockIds[d], 0);
      set(shape.gridSizes[d], 1);
    }
    for (auto [i, arg] : llvm::enumerate(launch.getWorkgroupAttributions()))
      places[arg] = {
          kernel.memory.namedSpace(llvm::formatv("workgroup #{0}", i).str()),
          0};
  }
  if (!shape.body->hasOneBlock()) {
    result.ok = false;
    result.error = "the kernel body has branches between blocks (cf), not "
                   "structured scf loops and ifs";
    result.errorAt = shape.kernel;
    return result;
  }
  MaybeStop stop = runBlock(entry);
  if (stop && !stop->why.empty()) {
    result.ok = false;
    result.error = std::move(stop->why);
    result.errorAt = stop->at;
  }
  result.trace = std::move(trace);
  return result;
}

Interpreter::MaybeStop Interpreter::runBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (MaybeStop stop = runOp(&op))
      return stop;
  if (isa<gpu::ReturnOp>(block.getTerminator()))
    return Stop{};
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::runOp(Operation *op) {
  if (++opsRun > in.maxOps)
    return fail(op,
                llvm::formatv("the thread ran more than {0} ops", in.maxOps));
  if (int64_t(trace.size()) > in.maxEntries)
    return fail(op, llvm::formatv("the thread did more than {0} barrier "
                                  "operations",
                                  in.maxEntries));
  MaybeStop stop;
  if (evalSpecial(op) || evalThreadOp(op, stop) || evalFold(op) ||
      evalAddress(op) || evalPlace(op) || evalPrivateArray(op))
    return stop;
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return runFor(loop);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return runIf(branch);
  bool handled = false;
  if (MaybeStop stop = recordProtocolOp(op, handled))
    return stop;
  if (handled)
    return std::nullopt;
  if (op->getNumRegions() > 0)
    return skipUnread(op, {opName(op) + " has regions klx's model does not "
                                        "run (only scf.for and scf.if)",
                           op});
  for (Value result : op->getResults())
    forget(result, {"it comes from " + opName(op), op});
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::skipUnread(Operation *op,
                                               const Reason &why) {
  if (touchesProtocol(op))
    return Stop{why.why, why.at};
  // Nothing in it is a barrier op: what it computes is unknown from here
  // on, and the register arrays it writes are lost.
  op->walk([&](Operation *nested) {
    for (Value result : nested->getResults())
      forget(result, why);
    if (auto store = dyn_cast<memref::StoreOp>(nested))
      if (auto it = arrays.find(store.getMemRef()); it != arrays.end())
        it->second.lost = why;
    if (isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp,
            nvgpu::LdMatrixOp>(nested))
      kernel.memory.noteUnplaced("loads inside " + opName(op) +
                                     " are not followed: " + why.why,
                                 nested);
  });
  return std::nullopt;
}

// [SECTION] Loops and branches -----------------------------------------------

Interpreter::MaybeStop Interpreter::runFor(scf::ForOp loop) {
  uint64_t lb, ub, step;
  for (auto [value, what, out] :
       {std::make_tuple(loop.getLowerBound(), "the loop's lower bound", &lb),
        std::make_tuple(loop.getUpperBound(), "the loop's upper bound", &ub),
        std::make_tuple(loop.getStep(), "the loop's step", &step)})
    if (MaybeStop stop = needs(loop, value, what, *out))
      return touchesProtocol(loop) ? stop
                                   : skipUnread(loop, {stop->why, stop->at});
  unsigned width = widthOf(loop.getInductionVar());
  bool isSigned = !loop.getUnsignedCmp();
  auto less = [&](uint64_t a, uint64_t b) {
    if (!isSigned || width == 0)
      return a < b;
    auto sext = [&](uint64_t v) {
      return width >= 64 ? int64_t(v)
                         : int64_t(v << (64 - width)) >> (64 - width);
    };
    return sext(a) < sext(b);
  };
  if (step == 0)
    return fail(loop, "the loop's step is 0");
  Block &body = *loop.getBody();
  // Iter args start as the inits; each iteration's yield feeds the next.
  SmallVector<std::optional<uint64_t>> carried;
  for (Value init : loop.getInitArgs())
    carried.push_back(get(init));
  loops.push_back(0);
  for (uint64_t iv = lb; less(iv, ub);) {
    // Counted per loop op over the whole run (looked up each time: the
    // map grows while nested loops run).
    loops.back() = iterations[loop]++;
    set(loop.getInductionVar(), iv);
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (carried[i])
        set(arg, *carried[i]);
      else
        forget(arg, explain(loop.getInitArgs()[i]));
    }
    if (MaybeStop stop = runBlock(body)) {
      loops.pop_back();
      return stop;
    }
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    for (auto [i, v] : llvm::enumerate(yield.getOperands()))
      carried[i] = get(v);
    uint64_t next = truncateTo(iv + step, width);
    if (!less(iv, next))
      break; // the induction variable wrapped
    iv = next;
  }
  loops.pop_back();
  for (auto [result, value] : llvm::zip(loop.getResults(), carried)) {
    if (value)
      set(result, *value);
    else
      forget(result, {"the loop carries a value klx does not know", loop});
  }
  // Place-valued iter args (memrefs) are not followed.
  return std::nullopt;
}

Interpreter::MaybeStop Interpreter::runIf(scf::IfOp branch) {
  uint64_t condition;
  if (MaybeStop stop = needs(branch, branch.getCondition(),
                             "the branch condition", condition))
    return skipUnread(branch, {stop->why, stop->at});
  Region &taken =
      (condition & 1) ? branch.getThenRegion() : branch.getElseRegion();
  if (taken.empty())
    return std::nullopt;
  if (MaybeStop stop = runBlock(taken.front()))
    return stop;
  auto yield = cast<scf::YieldOp>(taken.front().getTerminator());
  for (auto [result, v] : llvm::zip(branch.getResults(), yield.getOperands())) {
    if (std::optional<uint64_t> value = get(v))
      set(result, *value);
    else
      forget(result, explain(v));
    if (auto it = places.find(v); it != places.end())
      places[result] = it->second;
  }
  return std::nullopt;
}

// [SECTION] Values: ids, integers, shuffles and elections -------------------

std::optional<uint64_t> Interpreter::get(Value v) const {
  auto it = values.find(v);
  if (it != values.end())
    return it->second;
  // Host constants a gpu.launch body uses.
  APInt constant;
  if (kernel.shape.isCaptured(v) && widthOf(v) &&
      matchPattern(v, m_ConstantInt(&constant)))
    return truncateTo(constant.getZExtValue(), widthOf(v));
  return std::nullopt;
}

void Interpreter::set(Value v, uint64_t x) {
  unsigned width = widthOf(v);
  values[v] = width ? truncateTo(x, width) : x;
  unknown.erase(v);
}

void Interpreter::forget(Value v, Reason why) {
  values.erase(v);
  unknown[v] = std::move(why);
}

Reason Interpreter::explain(Value v) const {
  if (auto it = unknown.find(v); it != unknown.end())
    return it->second;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<gpu::GPUFuncOp>(owner))
      return {llvm::formatv("it is kernel argument #{0}, whose value the "
                            "model is not given",
                            arg.getArgNumber())
                  .str(),
              owner};
    return {"it is carried by " + opName(owner), owner};
  }
  Operation *def = v.getDefiningOp();
  if (kernel.shape.isCaptured(v))
    return {"it comes from the host code around the gpu.launch", def};
  return {"it comes from " + opName(def), def};
}

Interpreter::MaybeStop Interpreter::needs(Operation *op, Value v,
                                          llvm::StringRef what,
                                          uint64_t &out) const {
  if (std::optional<uint64_t> value = get(v)) {
    out = *value;
    return std::nullopt;
  }
  Reason why = explain(v);
  std::string text = (what + " is not known: " + why.why).str();
  if (why.at && why.at != op && kernel.lineOf)
    if (unsigned line = kernel.lineOf(why.at))
      text += llvm::formatv(" (IR line {0})", line).str();
  return Stop{text, op};
}

/// Values fixed by the thread and CTA 0 of a grid of one CTA.
bool Interpreter::evalSpecial(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  Value result = op->getResult(0);
  const KernelShape &shape = kernel.shape;
  auto setTo = [&](uint64_t v) {
    set(result, v);
    return true;
  };
  APInt constant;
  if (widthOf(result) && matchPattern(result, m_ConstantInt(&constant)))
    return setTo(constant.getZExtValue());
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return setTo(in.thread[unsigned(id.getDimension())]);
  if (isa<NVVM::ThreadIdXOp>(op))
    return setTo(in.thread[0]);
  if (isa<NVVM::ThreadIdYOp>(op))
    return setTo(in.thread[1]);
  if (isa<NVVM::ThreadIdZOp>(op))
    return setTo(in.thread[2]);
  if (isa<gpu::LaneIdOp, NVVM::LaneIdOp>(op))
    return setTo(linearThread() % kLanesPerWarp);
  if (isa<gpu::SubgroupIdOp>(op))
    return setTo(linearThread() / kLanesPerWarp);
  if (isa<gpu::BlockIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>(
          op))
    return setTo(0);
  if (isa<gpu::GridDimOp, NVVM::GridDimXOp, NVVM::GridDimYOp, NVVM::GridDimZOp>(
          op))
    return setTo(1);
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return setTo(shape.block[unsigned(dim.getDimension())]);
  if (isa<NVVM::BlockDimXOp>(op))
    return setTo(shape.block[0]);
  if (isa<NVVM::BlockDimYOp>(op))
    return setTo(shape.block[1]);
  if (isa<NVVM::BlockDimZOp>(op))
    return setTo(shape.block[2]);
  if (isa<gpu::SubgroupSizeOp, NVVM::WarpSizeOp>(op))
    return setTo(kLanesPerWarp);
  if (isa<gpu::NumSubgroupsOp>(op))
    return setTo((shape.threads() + kLanesPerWarp - 1) / kLanesPerWarp);
  return false;
}

/// elect.sync, shfl.sync and %warpid: what the whole warp decides, from
/// ThreadValues; a shuffle of a value every lane holds alike is that value.
bool Interpreter::evalThreadOp(Operation *op, MaybeStop &stop) {
  if (!isa<NVVM::ElectSyncOp, NVVM::ShflOp, NVVM::WarpIdOp>(op))
    return false;
  Value result = op->getResult(0);
  if (const ThreadValues::Lanes *lanes = kernel.values.eval(result)) {
    set(result, (*lanes)[linearThread()]);
    return true;
  }
  if (auto shuffle = dyn_cast<NVVM::ShflOp>(op);
      shuffle && !shuffle.getReturnValueAndIsValid() &&
      kernel.divergence.isUniform(shuffle.getVal()))
    if (std::optional<uint64_t> own = get(shuffle.getVal())) {
      set(result, *own);
      return true;
    }
  forget(result, kernel.values.whyUnknown(result));
  return true;
}

bool Interpreter::evalFold(Operation *op) {
  if (!isFoldableInteger(op))
    return false;
  // Unknown stays unknown until it matters, and never keeps a value from
  // an earlier iteration.
  SmallVector<uint64_t, 3> operands;
  for (Value operand : op->getOperands()) {
    std::optional<uint64_t> v = get(operand);
    if (!v) {
      forget(op->getResult(0), explain(operand));
      return true;
    }
    operands.push_back(*v);
  }
  if (std::optional<uint64_t> r = foldInteger(op, operands))
    set(op->getResult(0), *r);
  else
    forget(op->getResult(0),
           {opName(op) + " is undefined here (division by zero or an "
                         "oversized shift)",
            op});
  return true;
}

ThreadRun klx::threads::runAsThread(KernelContext &kernel,
                                    const ThreadRunInputs &in) {
  return Interpreter(kernel, in).run();
}
