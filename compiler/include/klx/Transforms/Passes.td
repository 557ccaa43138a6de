//===- Passes.td - klx passes on upstream dialects ---------*- tablegen -*-===//
//
// Passes that work on the IR upstream lowers to (the LLVM dialect and its
// ROCDL and NVVM intrinsics) rather than on klx's own dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_TRANSFORMS_PASSES_TD
#define KLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KlxConstRegTensorPass : Pass<"klx-const-reg-tensor"> {
  let summary = "Replace small register arrays of an arithmetic sequence by "
                "the arithmetic";
  let description = [{
    A kernel that keeps, say, the shared-memory addresses of its mbarriers
    in a small array (`uint32_t bars[stages]`, here a 1-D `memref.alloca`
    of integers) and reads it at a run-time index (the pipeline stage)
    makes the compiler put the array in local memory: registers cannot be
    indexed, so `ptxas -v` reports a stack frame and SASS shows STL/LDL.
    When every element is written once, before every read, and the values
    are `base + i * step` for one base and a constant step, each read
    `a[k]` becomes `base + first + k * step` and the array goes away.
    Arrays with other uses, elements written twice or at run-time indices,
    writes that do not come before every read, or values that are not such
    a sequence are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def KlxBridgeStepsPass : Pass<"klx-bridge-steps"> {
  let summary = "Carry values from one step of a kernel to a later one "
                "through shared memory";
  let description = [{
    Reads each kernel `gpu.func` as ordered steps (klx steps: every step
    loads, computes, stores; a global load whose address comes from data
    loaded in the same step starts the next one). A value that one step
    computes and a later step uses stays in registers across the step
    boundary; a machine that runs steps one after the other (a DMA engine
    taking the addresses of a gather from memory, TMA's gather) needs it in
    memory. For each such value this pass stores it into a workgroup buffer
    (one slot per thread) right after it is made, ends the step with
    `gpu.barrier`, and reads it back for the later step's uses. Kernels
    whose step boundary lies inside a loop or a branch, values that are not
    scalars, and blocks that are not one-dimensional with a known size are
    left alone with a warning.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

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
    `rocdl.raw.ptr.buffer.load.lds`) that lies in
    exactly one base: its own scope, the other bases' as `noalias`. The
    AMDGPU waitcnt insertion then waits only for the DMAs into that base.

    An access lies in a base when its address is the LDS global plus a
    constant and every byte it touches (a whole wave's for an LDS-DMA,
    past the op's offset) is inside the base; or when it is a base's own
    start plus run-time GEP indices or integer adds of values that are not
    addresses. The second kind cannot be bounded here: declaring the bases
    promises that an index from a base's start stays inside it, as an
    access through a `memref.view` of it must (klx-to-amdgpu's stages are
    such views). Everything else is left untagged: block-argument merges,
    selects, `or` and `sub` on addresses, adds of two addresses, run-time
    indices from inside a base, integers narrower than 32 bits, pointers
    loaded from memory, and constant offsets that fall between or across
    bases.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def KlxLintPass : Pass<"klx-lint"> {
  let summary = "Warn about kernels that lower silently into something else";
  let description = [{
    Runs on the module as the user wrote it (after any transform script)
    and changes nothing. Each finding is a warning at the op's line, with
    notes at the ops it depends on:

    - a `memref.alloc` (or `alloca`) of workgroup memory inside a kernel,
      which lowers to a device `malloc` in each thread: memory no other
      thread sees, so LLVM may drop the cross-thread reads and what
      depends on them; a `workgroup(...)` attribution or a `memref.global`
      in address space 3 is what declares shared memory;
    - a `gpu.barrier` (or `nvvm.barrier0`) under an `scf.if`, or in an
      `scf.for` whose bounds, that depends on the thread (its id, lane or
      `elect.sync`): threads that go the other way never arrive;
    - an mbarrier wait with a constant parity inside a loop that does not
      initialise that barrier: the phase flips each time the barrier
      completes, so from the second round the wait passes at once or
      waits for a phase that is gone;
    - an `nvgpu.mma.sync` whose fragments are loaded at the thread index
      x (not reduced to a lane) in a block with more than 32 threads in
      x, what `transform.nvgpu.rewrite_matmul_as_mma_sync` produces when
      warps are mapped to x: the second warp's threads index fragments of
      lanes that do not exist;
    - ops the chip cannot run: RDNA's WMMA on a CDNA chip, CDNA's MFMA on
      an RDNA chip, NVIDIA's ops for an AMD chip and AMD's for an NVIDIA
      one, where upstream's own error is a bare "failed to legalize".

    What a lint cannot decide (a condition read from memory, a loop whose
    trip count is not a constant) it leaves unwarned.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip compiled for (sm_90a, gfx942, ...); empty skips the "
           "chip lints">,
  ];
}

#endif // KLX_TRANSFORMS_PASSES_TD
