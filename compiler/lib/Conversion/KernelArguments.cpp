//===- KernelArguments.cpp - How a klx kernel uses its arguments ----------===//

#include "KernelArguments.h"

using namespace mlir;
using namespace klx;

FailureOr<SmallVector<TensorUse>> klx::classifyArguments(KernelOp kernel,
                                                         StringRef pass) {
  SmallVector<TensorUse> uses;
  for (BlockArgument arg : kernel.getBodyBlock().getArguments()) {
    TensorUse use = TensorUse::Unused;
    if (!isa<klx::TensorType>(arg.getType())) {
      uses.push_back(use);
      continue;
    }
    for (Operation *user : arg.getUsers()) {
      TensorUse found = TensorUse::Output;
      if (auto copy = dyn_cast<CopyOp>(user))
        found = copy.getOperand() == Operand::A ? TensorUse::OperandA
                                                : TensorUse::OperandB;
      else if (auto load = dyn_cast<LoadOp>(user))
        found = load.getOperand() == Operand::A ? TensorUse::OperandA
                                                : TensorUse::OperandB;
      else if (!isa<StoreOp>(user))
        return user->emitOpError("uses a kernel tensor in a way ")
               << pass << " cannot lower";
      if (use != TensorUse::Unused && use != found)
        return user->emitOpError("uses tensor argument #")
               << arg.getArgNumber()
               << " differently from an earlier op (one tensor is one "
                  "operand: A, B or the output)";
      use = found;
    }
    uses.push_back(use);
  }
  return uses;
}

StringRef klx::dtypeName(ScheduleAttr schedule) {
  return schedule.getDtype().isBF16() ? "bf16" : "f16";
}
