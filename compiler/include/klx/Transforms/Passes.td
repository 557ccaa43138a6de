//===- Passes.td - klx passes on upstream dialects ---------*- tablegen -*-===//
//
// Passes that work on the IR upstream lowers to (the LLVM dialect and its
// ROCDL and NVVM intrinsics) rather than on klx's own dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_TRANSFORMS_PASSES_TD
#define KLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KlxLdsAliasScopePass : Pass<"klx-lds-alias-scope"> {
  let summary = "Give each named LDS base of a kernel its own alias scope";
  let description = [{
    Runs on every `llvm.func` under the op it is given. A kernel that
    carves its LDS allocation into named bases declares them
    on the function: `klx.lds_bases = {a0 = [0, 1024], a1 = [1024, 1024]}`
    (byte offset and size of each, in the function's one LDS global). The
    backend sees one allocation, so without more it must assume that every
    LDS access may alias every outstanding LDS-DMA load, and waits for all
    of them (`s_waitcnt vmcnt(0)`). This pass creates one alias scope per
    base under one domain and tags every LDS load, store and LDS-DMA
    (`rocdl.load.to.lds`, `rocdl.global.load.lds`,
    `rocdl.raw.ptr.buffer.load.lds`) whose pointer provably derives from
    exactly one base: its own scope, the other bases' as `noalias`. The
    AMDGPU waitcnt insertion then waits only for the DMAs into that base.

    A pointer derives from a base when it is the LDS global plus a constant
    byte offset inside that base, followed by any GEPs or integer adds of
    values that are not themselves LDS addresses (a pointer derived from a
    base stays in it: that is what declaring the bases promises).
    Everything else is left untagged: block-argument merges, selects, `or`
    and `sub` on addresses, adds of two addresses, pointers loaded from
    memory, and constant offsets that fall between bases or across two.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // KLX_TRANSFORMS_PASSES_TD
