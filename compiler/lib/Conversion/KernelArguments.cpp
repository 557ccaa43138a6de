//===- KernelArguments.cpp - How a klx kernel uses its arguments ----------===//

#include "KernelArguments.h"

#include "mlir/IR/PatternMatch.h"

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
      else if (auto vector = dyn_cast<LoadVectorOp>(user))
        found = isa<RowType>(vector.getResult().getType())
                    ? TensorUse::RowVector
                    : TensorUse::ColVector;
      else if (!isa<StoreOp>(user))
        return user->emitOpError("uses a kernel tensor in a way ")
               << pass << " cannot lower";
      if (use != TensorUse::Unused && use != found)
        return user->emitOpError("uses tensor argument #")
               << arg.getArgNumber()
               << " differently from an earlier op (one tensor is one "
                  "operand: A, B, the output, or a vector along rows or "
                  "along columns)";
      use = found;
    }
    uses.push_back(use);
  }
  return uses;
}

InlinedBody klx::inlineKernelBody(KernelOp kernel, gpu::GPUFuncOp func,
                                  ValueRange lowered, OpBuilder &b) {
  InlinedBody inlined;
  Location loc = kernel.getLoc();
  Block &body = kernel.getBodyBlock();
  SmallVector<Value> replacements;
  for (auto [arg, value] : llvm::zip(body.getArguments(), lowered)) {
    if (!isa<klx::TensorType>(arg.getType())) {
      replacements.push_back(value);
      continue;
    }
    auto standIn =
        UnrealizedConversionCastOp::create(b, loc, arg.getType(), value);
    inlined.standIns.push_back(standIn);
    inlined.tensors[standIn.getResult(0)] = value;
    replacements.push_back(standIn.getResult(0));
  }
  Operation *terminator = gpu::ReturnOp::create(b, loc);
  IRRewriter rewriter(kernel.getContext());
  rewriter.inlineBlockBefore(&body, terminator, replacements);
  return inlined;
}

void klx::retypeAccumulators(Operation *root, Type type) {
  root->walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (isa<AccType>(result.getType()))
        result.setType(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isa<AccType>(arg.getType()))
            arg.setType(type);
  });
}

std::string klx::vectorParamName(TensorUse use, int64_t ordinal) {
  std::string name =
      use == TensorUse::RowVector ? "row_vector" : "column_vector";
  return ordinal == 0 ? name : name + std::to_string(ordinal);
}

StringRef klx::dtypeName(ScheduleAttr schedule) {
  return schedule.getDtype().isBF16() ? "bf16" : "f16";
}

StringRef klx::outDtypeName(ScheduleAttr schedule) {
  Type out = schedule.outElementType();
  return out.isBF16() ? "bf16" : out.isF16() ? "f16" : "f32";
}

ArrayAttr klx::describeParams(
    KernelOp kernel, ArrayRef<TensorUse> uses,
    function_ref<void(bool isA, AddParamField add)> describeOperand,
    function_ref<void(AddParamField add)> describeOutput) {
  Builder b(kernel.getContext());
  auto dims = kernel->getAttrOfType<DictionaryAttr>(kDimsAttrName);
  SmallVector<Attribute> params;
  int64_t rowVectors = 0, colVectors = 0;
  for (auto [arg, use] :
       llvm::zip(kernel.getBodyBlock().getArguments(), uses)) {
    SmallVector<NamedAttribute> param;
    auto add = [&](StringRef key, Attribute value) {
      param.push_back(b.getNamedAttr(key, value));
    };
    if (!isa<klx::TensorType>(arg.getType())) {
      std::string name = "arg" + std::to_string(arg.getArgNumber());
      for (NamedAttribute dim :
           dims ? dims.getValue() : ArrayRef<NamedAttribute>())
        if (cast<IntegerAttr>(dim.getValue()).getInt() == arg.getArgNumber())
          name = dim.getName().str();
      add("name", b.getStringAttr(name));
      add("kind", b.getStringAttr("scalar"));
    } else if (use == TensorUse::Unused) {
      // Lowered to an argument the kernel never reads: a runner passes null.
      add("name", b.getStringAttr("arg" + std::to_string(arg.getArgNumber())));
      add("kind", b.getStringAttr("unused"));
    } else if (use == TensorUse::RowVector || use == TensorUse::ColVector) {
      int64_t &seen = use == TensorUse::RowVector ? rowVectors : colVectors;
      add("name", b.getStringAttr(vectorParamName(use, seen++)));
      add("kind", b.getStringAttr("memref"));
      add("rank", b.getI64IntegerAttr(1));
      add("dtype", b.getStringAttr("f32"));
    } else if (use == TensorUse::Output) {
      add("name", b.getStringAttr("D"));
      if (describeOutput) {
        describeOutput(add);
      } else {
        add("kind", b.getStringAttr("memref"));
        add("rank", b.getI64IntegerAttr(2));
        add("dtype", b.getStringAttr("f32"));
      }
    } else {
      describeOperand(use == TensorUse::OperandA, add);
    }
    params.push_back(b.getDictionaryAttr(param));
  }
  return b.getArrayAttr(params);
}
