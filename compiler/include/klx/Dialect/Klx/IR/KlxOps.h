//===- KlxOps.h - Operations of the klx dialect -----------------*- C++ -*-===//

#ifndef KLX_DIALECT_KLX_IR_KLXOPS_H
#define KLX_DIALECT_KLX_IR_KLXOPS_H

#include "klx/Dialect/Klx/IR/KlxDialect.h"

#include "mlir/Dialect/LLVMIR/BasicPtxBuilderInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "klx/Dialect/Klx/IR/KlxOps.h.inc"

namespace klx {

/// "_a" when a pipeline or channel carries only A tiles (its copies, or the
/// loads its pushes hand over), "_b" for only B, "" when it carries both or
/// nothing: how barriers are named once there are two producers.
std::string operandSuffix(mlir::Value queue);

/// The names of the barriers of `pipelines[i]`, as klx-to-nvgpu creates
/// them and the protocol model reads them: "full" and "empty" with one
/// pipeline; with several, suffixed by the operand it carries ("full_a"),
/// else by its index; a full barrier the producers share (full_of) is
/// plain "full".
struct PipelineBarrierNames {
  std::string full, empty;
};
PipelineBarrierNames pipelineBarrierNames(llvm::ArrayRef<PipelineOp> pipelines,
                                          size_t i);

} // namespace klx

#endif // KLX_DIALECT_KLX_IR_KLXOPS_H
