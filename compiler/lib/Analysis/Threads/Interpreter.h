//===- Interpreter.h - The one-thread interpreter's state -------*- C++ -*-===//
//
// Private to Analysis/Threads: the class behind runAsThread, split over
// ThreadInterpreter.cpp (control flow and integers), ThreadPlaces.cpp
// (addresses, shared memory, register arrays) and ThreadProtocolOps.cpp
// (the ops it writes down).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_THREADS_INTERPRETER_H
#define KLX_LIB_ANALYSIS_THREADS_INTERPRETER_H

#include "Analysis/Threads/ThreadInterpreter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace klx::threads {

/// Stops the run: returned through every level. No reason: gpu.return.
struct Stop {
  std::string why;
  mlir::Operation *at = nullptr;
};

class Interpreter {
public:
  Interpreter(KernelContext &kernel, const ThreadRunInputs &in)
      : kernel(kernel), in(in) {}
  ThreadRun run();

private:
  using MaybeStop = std::optional<Stop>;

  // ThreadInterpreter.cpp and ThreadPlaces.cpp: control flow and values.
  MaybeStop runBlock(mlir::Block &block);
  MaybeStop runOp(mlir::Operation *op);
  MaybeStop runFor(mlir::scf::ForOp loop);
  MaybeStop runIf(mlir::scf::IfOp branch);
  /// Skips a region op whose decision klx cannot read, when nothing in it
  /// matters to the protocol; a Stop otherwise.
  MaybeStop skipUnread(mlir::Operation *op, const Reason &why);
  bool evalSpecial(mlir::Operation *op);
  bool evalThreadOp(mlir::Operation *op, MaybeStop &stop);
  bool evalFold(mlir::Operation *op);
  bool evalAddress(mlir::Operation *op);
  bool evalPlace(mlir::Operation *op);
  bool evalPrivateArray(mlir::Operation *op);

  std::optional<uint64_t> get(mlir::Value v) const;
  void set(mlir::Value v, uint64_t x);
  void forget(mlir::Value v, Reason why);
  Reason explain(mlir::Value v) const;
  MaybeStop needs(mlir::Operation *op, mlir::Value v, llvm::StringRef what,
                  uint64_t &out) const;
  MaybeStop fail(mlir::Operation *op, const llvm::Twine &why) const {
    return Stop{why.str(), op};
  }
  unsigned linearThread() const { return kernel.shape.linear(in.thread); }

  /// The region a memref value spans in shared memory, or -1 after noting
  /// why not.
  int regionOfMemref(mlir::Value memref, mlir::Operation *user);

  // ThreadProtocolOps.cpp: the ops written down.
  MaybeStop recordProtocolOp(mlir::Operation *op, bool &handled);
  /// The operands of one mbarrier op that the trace needs (null where
  /// the op has none), read the same way for nvgpu and nvvm ops.
  struct BarrierOperands {
    TraceEntry::Kind kind = TraceEntry::Kind::Arrive;
    mlir::Value predicate, count, bytes, parity;
  };
  MaybeStop recordBarrierOp(mlir::Operation *op,
                            const BarrierOperands &operands,
                            llvm::function_ref<MaybeStop(TraceEntry &)> locate);
  MaybeStop recordNvgpuBarrierOp(mlir::Operation *op, bool &handled);
  MaybeStop recordNvvmBarrierOp(mlir::Operation *op, bool &handled);
  MaybeStop recordSyncOp(mlir::Operation *op, bool &handled);
  MaybeStop recordMemoryOp(mlir::Operation *op, bool &handled);
  MaybeStop predicate(mlir::Operation *op, mlir::Value pred, bool &runs);
  MaybeStop groupSlot(mlir::Operation *op, mlir::Value group, mlir::Value index,
                      TraceEntry &entry);
  MaybeStop barrierAddress(mlir::Operation *op, mlir::Value address,
                           TraceEntry &entry);
  void record(TraceEntry entry);

  KernelContext &kernel;
  const ThreadRunInputs &in;
  llvm::DenseMap<mlir::Value, uint64_t> values;
  llvm::DenseMap<mlir::Value, Reason> unknown;
  /// Memref values in shared memory (and wgmma descriptors of them).
  llvm::DenseMap<mlir::Value, Place> places;
  /// A thread's register arrays: memref.alloca results.
  struct PrivateArray {
    std::vector<std::optional<uint64_t>> elements;
    Reason lost; // set when a write at an unknown index spoilt it all
  };
  llvm::DenseMap<mlir::Value, PrivateArray> arrays;
  llvm::DenseMap<mlir::Operation *, int64_t> iterations;
  llvm::SmallVector<int64_t> loops; // the running iteration of each loop
  std::vector<TraceEntry> trace;
  int64_t opsRun = 0;
};

} // namespace klx::threads

#endif // KLX_LIB_ANALYSIS_THREADS_INTERPRETER_H
