//===- Passes.td - klx conversion passes -------------------*- tablegen -*-===//

#ifndef KLX_CONVERSION_PASSES_TD
#define KLX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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

    With `instrument`, the kernel takes one more parameter, a trace buffer,
    and its first `trace-ctas` CTAs record the SM clock at each barrier
    wait, arrive, copy and MMA issue into it (`trace-events` per warp):
    the measured timeline `klx-run --trace` writes.
  }];
  let options = [
    Option<"instrument", "instrument", "bool", "false",
           "record a measured timeline into an extra trace parameter">,
    Option<"traceCtas", "trace-ctas", "unsigned", "2",
           "CTAs that record (the first ones)">,
    Option<"traceEvents", "trace-events", "unsigned", "4096",
           "events kept per warp">,
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
