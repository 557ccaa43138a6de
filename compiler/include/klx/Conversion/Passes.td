//===- Passes.td - klx conversion passes -------------------*- tablegen -*-===//

#ifndef KLX_CONVERSION_PASSES_TD
#define KLX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def KlxToAMDGPUPass : Pass<"klx-to-amdgpu", "mlir::ModuleOp"> {
  let summary = "Lower klx tile programs to gpu.func with amdgpu ops (MFMA, "
                "LDS-DMA)";
  let description = [{
    Each `klx.kernel` (a tile program, after klx-materialize-schedule and
    klx-persistent) becomes a `gpu.func` of four waves (256 threads) in a
    `gpu.module`. The waves split the output tile 2 x 2; each multiplies its
    part with `amdgpu.mfma` 32x32x8 (f16 or bf16 in, f32 accumulate). A and
    B tiles reach LDS by LDS-DMA (`amdgpu.gather_to_lds`) into two stages,
    so the copy of k-tile k+1 runs while k-tile k is multiplied; the four
    stage buffers are named bases of one workgroup buffer, declared in
    `klx.lds_bases` for klx-lds-alias-scope. Each k step starts with a wait
    for this wave's DMAs and a workgroup barrier (every wave's DMAs are in,
    and every wave is done with the stage about to be refilled). The
    epilogue writes the accumulators to D.

    The warp-role parameters of a schedule (warp_specialize, consumers,
    producers, register budgets, pingpong) are NVIDIA's and are ignored,
    with a warning; `stages` is always 2 here (LDS holds two stages of the
    default 128x128x64 tile on gfx942).
  }];
  let options = [
    Option<"chipset", "chipset", "std::string", "\"gfx942\"",
           "the AMD chip, for its LDS size">,
  ];
  let dependentDialects = ["::mlir::amdgpu::AMDGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def KlxToNVGPUPass : Pass<"klx-to-nvgpu", "mlir::ModuleOp"> {
  let summary = "Lower klx kernels to gpu.func with nvgpu and nvvm ops";
  let description = [{
    Each `klx.kernel` becomes a `gpu.func` in a `gpu.module`: tensors read
    by TMA become pointers to `CUtensorMap`s cast to nvgpu descriptors, the
    pipeline becomes dynamic shared memory and two mbarrier groups, the
    roles one if/else on the warpgroup index with `setmaxregister` on
    entry of each branch, copies `nvgpu.tma.async.load`, the MMA
    `nvgpu.warpgroup.mma`, the epilogue `nvgpu.warpgroup.mma.store`. The
    kernel gets `.maxntid` and `.minnctapersm 1`, the register cap at entry
    without which ptxas ignores `setmaxnreg` (warning C7508).

    With `instrument`, the kernel takes a trace buffer and its capacity
    (events per warp) as two more parameters, and every CTA (or the first
    `trace-ctas`, or those in `trace-cta-list`) records the SM clock at
    each barrier wait, arrive, copy and MMA issue, and `%globaltimer`,
    `%clock64` and `%smid` at its start and end: the measured timeline
    `klx-run --trace` writes (Trace.cpp says how).
  }];
  let options = [
    Option<"instrument", "instrument", "bool", "false",
           "record a measured timeline into an extra trace parameter">,
    Option<"traceCtas", "trace-ctas", "unsigned", "0",
           "CTAs that record: the first N, or 0 for every CTA">,
    ListOption<"traceCtaList", "trace-cta-list", "int64_t",
               "CTAs that record, by linear block id (instead of trace-ctas)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // KLX_CONVERSION_PASSES_TD
