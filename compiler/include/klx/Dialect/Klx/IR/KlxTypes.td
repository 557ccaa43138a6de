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
    `klx.store` writes holds f32 (or the stored accumulators' type) and is
    written from registers; a vector `klx.load_vector` reads (a bias) has
    one row.
  }];
}

/// A tile type whose shape and element type may be written out
/// (`!klx.acc<128x64xf32>`) or left to the schedule (`!klx.acc`: the
/// schedule's tile, the GEMM's types). The tile programs of GEMMs use the
/// bare form; a program with tiles of several shapes (attention: S and O)
/// writes them out.
class Klx_ShapedType<string name, string typeMnemonic, int shapeRank>
    : Klx_Type<name, typeMnemonic> {
  let parameters = (ins OptionalArrayRefParameter<"int64_t">:$shape,
                        OptionalParameter<"::mlir::Type">:$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilder<(ins), [{
      return $_get($_ctxt, ::llvm::ArrayRef<int64_t>(), ::mlir::Type());
    }]>,
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape,
                     "::mlir::Type":$elementType), [{
      return $_get($_ctxt, shape, elementType);
    }]>
  ];
  let skipDefaultBuilders = 1;
  // Bare, the schedule's: what the GEMM ops' formats build when no type is
  // written (klx.push's tiles).
  let builderCall = "$_builder.getType<::klx::" # name # "Type>()";
  code shapedClassDeclaration = [{
    /// How many dimensions a written-out shape has.
    static constexpr unsigned kRank = }] # shapeRank # [{;
    /// Whether the shape is written out (else the schedule's).
    bool isShaped() const { return !getShape().empty(); }
  }];
  let extraClassDeclaration = shapedClassDeclaration;
}

def Klx_TileType : Klx_ShapedType<"Tile", "tile", 2> {
  let summary = "an operand tile in shared memory";
  let description = [{
    The A tile (tile_m x tile_k) or B tile (tile_k x tile_n) of one k step,
    as the schedule sizes them (`!klx.tile`), or a tile of its own shape
    (`!klx.tile<128x64xf16>`: rows x columns as the operand is multiplied,
    A's M x K, B's K x N).
  }];
}

def Klx_AccType : Klx_ShapedType<"Acc", "acc", 2> {
  let summary = "an accumulator tile in registers";
  let description = [{
    The accumulators of one output tile, f32 and sized by the schedule
    (`!klx.acc`), or of a shape and element type of its own
    (`!klx.acc<128x64xf32>`, `!klx.acc<128x64xbf16>` after a conversion).
    After warp specialization each consumer warpgroup holds its share
    (cooperative: tile_m / consumers rows).
  }];
}

def Klx_RowType : Klx_ShapedType<"Row", "row", 1> {
  let summary = "one value per row of a tile, in registers";
  let description = [{
    `!klx.row<128xf32>`: a value for each of a tile's 128 rows, such as a
    row's maximum or sum (`klx.reduce ... rows`) or a scale per row. In
    `klx.map` it is broadcast along each row. The threads that hold a row's
    accumulators hold its value.
  }];
}

def Klx_ColType : Klx_ShapedType<"Col", "col", 1> {
  let summary = "one value per column of a tile, in registers";
  let description = [{
    `!klx.col<64xf32>`: a value for each of a tile's 64 columns, such as a
    bias per output column (`klx.load_vector`). In `klx.map` it is
    broadcast down each column.
  }];
}

def Klx_FragType : Klx_ShapedType<"Frag", "frag", 2> {
  let summary = "an MMA's A operand held in registers";
  let description = [{
    `!klx.frag<128x64xf16>`: the A operand (M x K) of a `klx.mma` in the
    registers of the threads that multiply, not in shared memory
    (`klx.as_operand` makes one from accumulators). On Hopper it is the
    register form of wgmma. Bare, it is the schedule's: the A operand of
    a k step, tile_m x tile_k of dtype.
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
