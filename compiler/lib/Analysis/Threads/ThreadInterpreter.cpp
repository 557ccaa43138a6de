//===- ThreadInterpreter.cpp - A gpu.func run as one thread ---------------===//

#include "Analysis/Threads/ThreadInterpreter.h"

#include "Analysis/Threads/IntegerFold.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;
using namespace klx::threads;
using Kind = TraceEntry::Kind;

namespace {

constexpr unsigned kLanesPerWarp = 32;

/// Stops the run: thrown nowhere, returned through every level.
struct Stop {
  std::string why;
  Operation *at = nullptr;
};

class Interpreter {
public:
  explicit Interpreter(const ThreadRunInputs &in) : in(in) {}

  ThreadRun run(gpu::GPUFuncOp func) {
    ThreadRun result;
    Block &entry = func.getBody().front();
    for (auto [i, arg] : llvm::enumerate(entry.getArguments()))
      if (auto it = in.arguments.find(unsigned(i)); it != in.arguments.end())
        if (unsigned width = widthOf(arg))
          values[arg] = truncateTo(it->second, width);
    if (!func.getBody().hasOneBlock()) {
      result.ok = false;
      result.error = "the kernel body has branches between blocks (cf), not "
                     "structured scf loops and ifs";
      result.errorAt = func;
      return result;
    }
    std::optional<Stop> stop = runBlock(entry);
    if (stop && !stop->why.empty()) {
      result.ok = false;
      result.error = std::move(stop->why);
      result.errorAt = stop->at;
    }
    result.trace = std::move(trace);
    return result;
  }

private:
  /// nullopt: the block ran to its end (its terminator is left to the
  /// caller); a Stop with no reason: gpu.return.
  std::optional<Stop> runBlock(Block &block) {
    for (Operation &op : block.without_terminator())
      if (std::optional<Stop> stop = runOp(&op))
        return stop;
    if (isa<gpu::ReturnOp>(block.getTerminator()))
      return Stop{};
    return std::nullopt;
  }

  std::optional<Stop> fail(Operation *op, const llvm::Twine &why) {
    return Stop{why.str(), op};
  }

  /// The value, or a reason naming what it depends on.
  std::optional<uint64_t> get(Value v) {
    auto it = values.find(v);
    if (it != values.end())
      return it->second;
    return std::nullopt;
  }

  std::optional<Stop> needs(Operation *op, Value v, llvm::StringRef what,
                            uint64_t &out) {
    if (std::optional<uint64_t> value = get(v)) {
      out = *value;
      return std::nullopt;
    }
    std::string source = "a value klx does not evaluate";
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (isa<gpu::GPUFuncOp>(arg.getOwner()->getParentOp()))
        source = llvm::formatv("kernel argument #{0}, whose value the "
                               "model is not given",
                               arg.getArgNumber())
                     .str();
    } else if (Operation *def = v.getDefiningOp()) {
      source = "'" + def->getName().getStringRef().str() + "'";
    }
    return fail(
        op, llvm::formatv("{0} is not known: it comes from {1}", what, source));
  }

  unsigned linearThread() const {
    return in.thread[0] +
           in.block[0] * (in.thread[1] + in.block[1] * in.thread[2]);
  }

  /// Values of ops whose result is fixed by the thread and CTA 0 of a grid
  /// of one CTA; false for other ops.
  bool evalSpecial(Operation *op) {
    auto set = [&](uint64_t v) {
      values[op->getResult(0)] = truncateTo(v, widthOf(op->getResult(0)));
      return true;
    };
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      return set(in.thread[unsigned(id.getDimension())]);
    if (isa<NVVM::ThreadIdXOp>(op))
      return set(in.thread[0]);
    if (isa<NVVM::ThreadIdYOp>(op))
      return set(in.thread[1]);
    if (isa<NVVM::ThreadIdZOp>(op))
      return set(in.thread[2]);
    if (isa<gpu::LaneIdOp, NVVM::LaneIdOp>(op))
      return set(linearThread() % kLanesPerWarp);
    if (isa<gpu::BlockIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp,
            NVVM::BlockIdZOp>(op))
      return set(0);
    if (isa<gpu::GridDimOp, NVVM::GridDimXOp, NVVM::GridDimYOp,
            NVVM::GridDimZOp>(op))
      return set(1);
    if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
      return set(in.block[unsigned(dim.getDimension())]);
    return false;
  }

  void record(TraceEntry entry) {
    entry.iteration = loops.empty() ? -1 : loops.back();
    trace.push_back(entry);
  }

  std::optional<Stop> runOp(Operation *op) {
    if (++opsRun > in.maxOps)
      return fail(op,
                  llvm::formatv("the thread ran more than {0} ops", in.maxOps));
    if (int64_t(trace.size()) > in.maxEntries)
      return fail(op, llvm::formatv("the thread did more than {0} barrier "
                                    "operations",
                                    in.maxEntries));
    APInt constant;
    if (op->getNumResults() == 1 && widthOf(op->getResult(0)) &&
        matchPattern(op->getResult(0), m_ConstantInt(&constant))) {
      values[op->getResult(0)] =
          truncateTo(constant.getZExtValue(), widthOf(op->getResult(0)));
      return std::nullopt;
    }
    if (evalSpecial(op))
      return std::nullopt;
    if (isFoldableInteger(op)) {
      // Unknown stays unknown until it matters, and never keeps a value
      // from an earlier iteration.
      values.erase(op->getResult(0));
      SmallVector<uint64_t, 3> operands;
      for (Value operand : op->getOperands()) {
        std::optional<uint64_t> v = get(operand);
        if (!v)
          return std::nullopt;
        operands.push_back(*v);
      }
      if (std::optional<uint64_t> r = foldInteger(op, operands))
        values[op->getResult(0)] = *r;
      return std::nullopt;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return runFor(loop);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return runIf(branch);
    if (op->getNumRegions() > 0)
      return fail(op, "'" + op->getName().getStringRef() +
                          "' has regions klx's model does not run (only "
                          "scf.for and scf.if)");
    return recordBarrierOp(op);
  }

  std::optional<Stop> runFor(scf::ForOp loop) {
    uint64_t lb, ub, step;
    if (auto stop =
            needs(loop, loop.getLowerBound(), "the loop's lower bound", lb))
      return stop;
    if (auto stop =
            needs(loop, loop.getUpperBound(), "the loop's upper bound", ub))
      return stop;
    if (auto stop = needs(loop, loop.getStep(), "the loop's step", step))
      return stop;
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
      values[loop.getInductionVar()] = iv;
      for (auto [arg, value] : llvm::zip(loop.getRegionIterArgs(), carried)) {
        if (value)
          values[arg] = *value;
        else
          values.erase(arg);
      }
      if (std::optional<Stop> stop = runBlock(body)) {
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
    setOrForget(loop.getResults(), carried);
    return std::nullopt;
  }

  std::optional<Stop> runIf(scf::IfOp branch) {
    uint64_t condition;
    if (auto stop = needs(branch, branch.getCondition(), "the branch condition",
                          condition))
      return stop;
    Region &taken =
        (condition & 1) ? branch.getThenRegion() : branch.getElseRegion();
    if (taken.empty())
      return std::nullopt;
    if (std::optional<Stop> stop = runBlock(taken.front()))
      return stop;
    auto yield = cast<scf::YieldOp>(taken.front().getTerminator());
    SmallVector<std::optional<uint64_t>> yielded;
    for (Value v : yield.getOperands())
      yielded.push_back(get(v));
    setOrForget(branch.getResults(), yielded);
    return std::nullopt;
  }

  /// Results take their values, or lose the ones an earlier run gave them.
  void setOrForget(ValueRange results,
                   ArrayRef<std::optional<uint64_t>> known) {
    for (auto [result, value] : llvm::zip(results, known)) {
      if (value)
        values[result] = *value;
      else
        values.erase(result);
    }
  }

  /// False when an optional predicate operand is present and false (the op
  /// does nothing in this thread).
  std::optional<Stop> predicate(Operation *op, Value pred, bool &runs) {
    runs = true;
    if (!pred)
      return std::nullopt;
    uint64_t v;
    if (auto stop = needs(op, pred, "the predicate", v))
      return stop;
    runs = (v & 1) != 0;
    return std::nullopt;
  }

  std::optional<Stop> recordBarrierOp(Operation *op) {
    TraceEntry entry;
    entry.op = op;
    uint64_t slot = 0, v = 0;
    bool runs = true;
    auto slotOf = [&](Value group, Value index) -> std::optional<Stop> {
      entry.group = group;
      if (auto stop = needs(op, index, "the mbarrier index", slot))
        return stop;
      auto type = cast<nvgpu::MBarrierGroupType>(group.getType());
      if (slot >= uint64_t(type.getNumBarriers()))
        return fail(op, llvm::formatv("mbarrier index {0} is outside the "
                                      "group of {1}",
                                      slot, type.getNumBarriers()));
      entry.slot = int64_t(slot);
      return std::nullopt;
    };
    if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op)) {
      if (auto stop = predicate(op, init.getPredicate(), runs); stop || !runs)
        return stop;
      if (auto stop = slotOf(init.getBarriers(), init.getMbarId()))
        return stop;
      if (auto stop = needs(op, init.getCount(), "the init count", v))
        return stop;
      entry.kind = Kind::Init;
      entry.count = int64_t(v);
    } else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveOp>(op)) {
      if (auto stop = slotOf(arrive.getBarriers(), arrive.getMbarId()))
        return stop;
      entry.kind = Kind::Arrive;
    } else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveNoCompleteOp>(op)) {
      if (auto stop = slotOf(arrive.getBarriers(), arrive.getMbarId()))
        return stop;
      if (auto stop = needs(op, arrive.getCount(), "the arrival count", v))
        return stop;
      entry.kind = Kind::Arrive;
      entry.count = int64_t(v);
    } else if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op)) {
      if (auto stop = predicate(op, expect.getPredicate(), runs); stop || !runs)
        return stop;
      if (auto stop = slotOf(expect.getBarriers(), expect.getMbarId()))
        return stop;
      if (auto stop = needs(op, expect.getTxcount(), "the expected bytes", v))
        return stop;
      entry.kind = Kind::ArriveExpectTx;
      entry.bytes = int64_t(v);
    } else if (auto copy = dyn_cast<nvgpu::TmaAsyncLoadOp>(op)) {
      if (auto stop = predicate(op, copy.getPredicate(), runs); stop || !runs)
        return stop;
      if (auto stop = slotOf(copy.getBarriers(), copy.getMbarId()))
        return stop;
      auto type = cast<MemRefType>(copy.getDst().getType());
      if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
        return fail(op, "the copy's destination has no static size");
      entry.kind = Kind::Copy;
      entry.bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
    } else if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op)) {
      if (auto stop = slotOf(wait.getBarriers(), wait.getMbarId()))
        return stop;
      if (auto stop = needs(op, wait.getPhaseParity(), "the wait's parity", v))
        return stop;
      entry.kind = Kind::Wait;
      entry.parity = int(v & 1);
    } else if (isa<gpu::BarrierOp>(op)) {
      entry.kind = Kind::Sync;
    } else if (isa<nvgpu::WarpgroupMmaOp, nvgpu::MmaSyncOp>(op)) {
      entry.kind = Kind::Compute;
    } else {
      return std::nullopt; // not part of the protocol
    }
    record(entry);
    return std::nullopt;
  }

  const ThreadRunInputs &in;
  llvm::DenseMap<Value, uint64_t> values;
  llvm::DenseMap<Operation *, int64_t> iterations;
  SmallVector<int64_t> loops; // the running iteration of each open loop
  std::vector<TraceEntry> trace;
  int64_t opsRun = 0;
};

} // namespace

ThreadRun klx::threads::runAsThread(gpu::GPUFuncOp func,
                                     const ThreadRunInputs &in) {
  return Interpreter(in).run(func);
}
