//===- KlxTypes.td - Types of the klx dialect --------------*- tablegen -*-===//

#ifndef KLX_DIALECT_KLX_IR_KLXTYPES_TD
#define KLX_DIALECT_KLX_IR_KLXTYPES_TD

include "klx/Dialect/Klx/IR/KlxDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Klx_Type<string name, string typeMnemonic> : TypeDef<Klx_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Klx_TensorType : Klx_Type<"Tensor", "tensor"> {
  let summary = "a 2-D row-major matrix in global memory";
  let description = [{
    A kernel argument. Its element type follows from how it is used: the
    A and B operands of `klx.load` hold the schedule's `dtype` (f16 or
    bf16) and are read through TMA tensor maps; the tensor that
    `klx.store` writes holds f32 and is written from registers.
  }];
}

def Klx_TileType : Klx_Type<"Tile", "tile"> {
  let summary = "an operand tile in shared memory";
  let description = [{
    The A tile (tile_m x tile_k) or B tile (tile_k x tile_n) of one k step,
    as the schedule sizes them.
  }];
}

def Klx_AccType : Klx_Type<"Acc", "acc"> {
  let summary = "an accumulator tile in registers";
  let description = [{
    The f32 accumulators of one output tile. After warp specialization each
    consumer warpgroup holds its share (cooperative: tile_m / consumers
    rows).
  }];
}

def Klx_ChannelType : Klx_Type<"Channel", "channel"> {
  let summary = "tiles flowing from a producer role to consumer roles";
}

def Klx_TurnsType : Klx_Type<"Turns", "turns"> {
  let summary = "an order in which consumer warpgroups take the tensor cores";
}

def Klx_PipelineType : Klx_Type<"Pipeline", "pipeline"> {
  let summary = "a circular buffer of shared-memory stages with full and empty mbarriers";
}

#endif // KLX_DIALECT_KLX_IR_KLXTYPES_TD
