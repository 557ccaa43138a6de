//===- KlxDialect.h - The klx dialect ---------------------------*- C++ -*-===//

#ifndef KLX_DIALECT_KLX_IR_KLXDIALECT_H
#define KLX_DIALECT_KLX_IR_KLXDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "klx/Dialect/Klx/IR/KlxOpsDialect.h.inc"

#include "klx/Dialect/Klx/IR/KlxEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "klx/Dialect/Klx/IR/KlxOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "klx/Dialect/Klx/IR/KlxAttrs.h.inc"

namespace klx {
/// Module attribute names owned by the dialect.
inline constexpr llvm::StringLiteral kTargetAttrName = "klx.target";
inline constexpr llvm::StringLiteral kParamsAttrName = "klx.params";
/// On a klx.kernel: which arguments are the problem sizes M, N and K
/// ({M = 3, N = 4, K = 5}), read off its tile loop by
/// klx-materialize-schedule so that the lowered kernel can name them.
inline constexpr llvm::StringLiteral kDimsAttrName = "klx.dims";
/// On a klx.kernel that computes on its accumulators: what it stores, as
/// a program a runner evaluates (DescribeEpilogue.cpp), copied into
/// klx.launch as `epilogue`.
inline constexpr llvm::StringLiteral kEpilogueAttrName = "klx.epilogue";
/// On a lowered kernel: block, grid kind, dynamic shared memory, tile, the
/// element type and a description of each parameter (what a runner needs).
inline constexpr llvm::StringLiteral kLaunchAttrName = "klx.launch";
/// On the scf.if klx-to-nvgpu makes of the roles: ["then role", "else
/// role"], so the role tree of later passes still has their names.
inline constexpr llvm::StringLiteral kRoleNamesAttrName = "klx.roles";
/// On an nvgpu.mbarrier.create: the group's name ("full", "empty").
inline constexpr llvm::StringLiteral kBarrierNameAttrName = "klx.barrier";
/// On a kernel: the named bases it carves its one LDS allocation into,
/// `{name = [offset, size]}` in bytes (klx-lds-alias-scope).
inline constexpr llvm::StringLiteral kLdsBasesAttrName = "klx.lds_bases";
} // namespace klx

#endif // KLX_DIALECT_KLX_IR_KLXDIALECT_H
