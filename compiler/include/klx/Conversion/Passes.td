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
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // KLX_CONVERSION_PASSES_TD
