//===- Passes.h - klx conversion passes -------------------------*- C++ -*-===//

#ifndef KLX_CONVERSION_PASSES_H
#define KLX_CONVERSION_PASSES_H

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace klx {

#define GEN_PASS_DECL
#include "klx/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "klx/Conversion/Passes.h.inc"

} // namespace klx

#endif // KLX_CONVERSION_PASSES_H
