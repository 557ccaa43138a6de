//===- KernelArguments.h - How a klx kernel uses its arguments --*- C++ -*-===//
//
// Private to lib/Conversion: what klx-to-nvgpu and klx-to-amdgpu both need
// to know about a kernel's signature before they lower it.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_CONVERSION_KERNELARGUMENTS_H
#define KLX_LIB_CONVERSION_KERNELARGUMENTS_H

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"

#include "llvm/ADT/SmallVector.h"

namespace klx {

/// How each !klx.tensor argument is used.
/// A vector read by klx.load_vector is one value per row of D (`RowVector`,
/// M long) or per column (`ColVector`, N long).
enum class TensorUse {
  Unused,
  OperandA,
  OperandB,
  Output,
  RowVector,
  ColVector
};

/// What klx.launch names a vector argument: "row_vector", "column_vector",
/// numbered from the second of a kind on ("column_vector1").
std::string vectorParamName(TensorUse use, int64_t ordinal);

/// One entry per kernel argument (Unused for the non-tensors); an error
/// naming `pass` on a tensor used two ways or in a way it cannot lower.
mlir::FailureOr<llvm::SmallVector<TensorUse>>
classifyArguments(KernelOp kernel, llvm::StringRef pass);

/// "f16" or "bf16".
llvm::StringRef dtypeName(ScheduleAttr schedule);
/// D's element type: "f32", "bf16" or "f16".
llvm::StringRef outDtypeName(ScheduleAttr schedule);

/// The kernel's body moved into a gpu.func: each !klx.tensor argument is
/// a stand-in cast of its lowered value until its users are lowered.
struct InlinedBody {
  llvm::DenseMap<mlir::Value, mlir::Value> tensors; // stand-in -> lowered
  llvm::SmallVector<mlir::Operation *> standIns;    // erase them last
};

/// Moves `kernel`'s body into `func` (at `b`'s insertion point in its entry
/// block, followed by a gpu.return): argument i becomes `lowered[i]`, or a
/// stand-in of it when the argument is a !klx.tensor.
InlinedBody inlineKernelBody(KernelOp kernel, mlir::gpu::GPUFuncOp func,
                             mlir::ValueRange lowered, mlir::OpBuilder &b);

/// Gives every !klx.acc value under `root` (op results and block
/// arguments, loop-carried ones included) the target's accumulator type,
/// in place, before the ops that make and use them are lowered.
void retypeAccumulators(mlir::Operation *root, mlir::Type type);

/// Adds one entry to a parameter's description in klx.launch.
using AddParamField =
    llvm::function_ref<void(llvm::StringRef, mlir::Attribute)>;

/// What a runner passes for each kernel argument, in order (klx.launch's
/// `params`): a size named by klx.dims ("M", "N", "K"), an unused tensor,
/// the output D (an f32 memref of rank 2 unless `describeOutput` says what
/// it is, its name aside), a vector (an f32 memref of rank 1, named by
/// vectorParamName), or operand A or B as `describeOperand` says
/// (name and kind included). The lowered signature flattens each memref.
mlir::ArrayAttr describeParams(
    KernelOp kernel, llvm::ArrayRef<TensorUse> uses,
    llvm::function_ref<void(bool isA, AddParamField add)> describeOperand,
    llvm::function_ref<void(AddParamField add)> describeOutput = nullptr);

} // namespace klx

#endif // KLX_LIB_CONVERSION_KERNELARGUMENTS_H
