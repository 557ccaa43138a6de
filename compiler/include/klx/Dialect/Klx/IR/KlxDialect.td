//===- KlxDialect.td - The klx dialect ---------------------*- tablegen -*-===//

#ifndef KLX_DIALECT_KLX_IR_KLXDIALECT_TD
#define KLX_DIALECT_KLX_IR_KLXDIALECT_TD

include "mlir/IR/OpBase.td"

def Klx_Dialect : Dialect {
  let name = "klx";
  let summary = "Tile-level GPU kernels and their schedules, as klx teaches them";
  let description = [{
    The klx dialect holds what a kernel author states at tile level and what
    klx's passes derive from it. Two module attributes belong to it:

    - `klx.target`: the target a sample is written for (`"sm_90a"`,
      `"gfx942"`, `"gfx950"`); `klx compile --target=` overrides it.
    - `klx.params`: a dictionary of schedule parameters (stages, tile sizes,
      ...) that `-D NAME=VALUE` overrides, so two variants of one kernel can
      be compared.

    ```mlir
    module attributes {klx.target = "gfx942",
                       klx.params = {stages = 4 : i64}} {
      ...
    }
    ```

    A kernel is written as a tile program for one CTA: loops over output
    tiles and k tiles, asynchronous tile loads, a warpgroup MMA and an
    epilogue store. klx's passes then split it into producer and consumer
    warp roles (`klx-warp-specialize`), give the tiles a circular buffer of
    shared-memory stages with full/empty mbarriers
    (`klx-circular-buffer`), make the tile loop persistent
    (`klx-persistent`), and lower it to nvgpu and nvvm (`klx-to-nvgpu`).

    The dialect also gives long LLVM struct types (the accumulator
    fragments of wgmma lower to structs of 64 floats) short aliases when IR
    is printed, which keeps the IR after each pass readable and cheap to
    print.
  }];
  let cppNamespace = "::klx";
  let hasOperationAttrVerify = 1;
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // KLX_DIALECT_KLX_IR_KLXDIALECT_TD
