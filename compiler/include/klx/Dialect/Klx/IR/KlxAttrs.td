//===- KlxAttrs.td - Attributes of the klx dialect ---------*- tablegen -*-===//

#ifndef KLX_DIALECT_KLX_IR_KLXATTRS_TD
#define KLX_DIALECT_KLX_IR_KLXATTRS_TD

include "klx/Dialect/Klx/IR/KlxDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Klx_OperandA : I32EnumAttrCase<"A", 0, "a">;
def Klx_OperandB : I32EnumAttrCase<"B", 1, "b">;
def Klx_Operand : I32EnumAttr<"Operand", "which MMA operand a tile is",
                              [Klx_OperandA, Klx_OperandB]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::klx";
}
def Klx_OperandAttr : EnumAttr<Klx_Dialect, Klx_Operand, "operand"> {
  // No space of its own: the op's format puts one before it.
  let assemblyFormat = "`` $value";
}

def Klx_ReduceMax : I32EnumAttrCase<"Max", 0, "max">;
def Klx_ReduceMin : I32EnumAttrCase<"Min", 1, "min">;
def Klx_ReduceSum : I32EnumAttrCase<"Sum", 2, "sum">;
def Klx_ReduceKind : I32EnumAttr<"ReduceKind", "how klx.reduce combines values",
                                 [Klx_ReduceMax, Klx_ReduceMin, Klx_ReduceSum]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::klx";
}
def Klx_ReduceKindAttr : EnumAttr<Klx_Dialect, Klx_ReduceKind, "reduce_kind"> {
  // No space of its own: the op's format puts one before it.
  let assemblyFormat = "`` $value";
}

def Klx_AxisRows : I32EnumAttrCase<"Rows", 0, "rows">;
def Klx_AxisCols : I32EnumAttrCase<"Cols", 1, "cols">;
def Klx_Axis : I32EnumAttr<"Axis", "what klx.reduce yields one value for",
                           [Klx_AxisRows, Klx_AxisCols]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::klx";
}
def Klx_AxisAttr : EnumAttr<Klx_Dialect, Klx_Axis, "axis"> {
  // No space of its own: the op's format puts one before it.
  let assemblyFormat = "`` $value";
}

def Klx_RoleProducer : I32EnumAttrCase<"Producer", 0, "producer">;
def Klx_RoleConsumer : I32EnumAttrCase<"Consumer", 1, "consumer">;
def Klx_RoleKind : I32EnumAttr<"RoleKind", "what a warp role does",
                               [Klx_RoleProducer, Klx_RoleConsumer]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::klx";
}
def Klx_RoleKindAttr : EnumAttr<Klx_Dialect, Klx_RoleKind, "role_kind"> {
  // No space of its own: the op's format puts one before it.
  let assemblyFormat = "`` $value";
}

def Klx_ScheduleAttr : AttrDef<Klx_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "how a tile program is mapped onto a Hopper CTA";
  let description = [{
    Materialized from the module's `klx.params` by
    `klx-materialize-schedule`, which also checks it: tile sizes wgmma and
    TMA can take, at least one stage, shared memory and the register file
    large enough. `producers = 2` loads A and B from two producer warps,
    each with its own full/empty pair of barriers, unless
    `sharedFullBarrier` makes them share one full barrier (the known
    deadlock, kept as a lesson). `groupM` orders a persistent kernel's
    tiles: consecutive tiles walk down `groupM` tile rows before moving one
    tile column right, so the CTAs of one wave share B's columns in L2 (1:
    row after row). `hilbert` orders them instead along a Hilbert curve
    through each block of 8 x 8 tiles, the blocks row by row (tiles past
    the last whole block, at the right and bottom edges, row by row). `tmaStore` is the epilogue: each consumer writes its
    accumulators into swizzled shared-memory boxes of 64 x 32 elements of
    `outDtype`, one TMA store per box (two boxes per consumer, in turn);
    without it each thread stores its f32 fragments to global memory.
    `outDtype` is D's element type: absent for f32, else bf16 or f16 (the
    accumulators rounded to nearest; the TMA-store epilogue only).
    `clusterM` x `clusterN` output tiles are computed by one cluster of as
    many CTAs (a column of `clusterM` tiles, or a row of `clusterN`): the
    CTAs of a column share B's tile, those of a row A's, so each CTA loads
    its share of the shared operand (its rows of every box) and multicasts
    it to all; each consumer thread releases a stage to one CTA of the
    cluster, so every CTA's empty barrier hears from all of them.
    `deferRelease` keeps one MMA in flight across k steps: each stage is
    released a step later, after `wgmma.wait_group 1` (two or more stages,
    not ping-pong); off, each step waits for its MMA before releasing.

    ```mlir
    #klx.schedule<tileM = 128, tileN = 128, tileK = 64, stages = 4,
                  consumers = 2, warpSpecialize = true, pingpong = false,
                  persistent = true, producerRegs = 40, consumerRegs = 232,
                  dtype = f16>
    ```
  }];
  let parameters = (ins
    "int64_t":$tileM, "int64_t":$tileN, "int64_t":$tileK,
    "int64_t":$stages, "int64_t":$consumers,
    "bool":$warpSpecialize, "bool":$pingpong, "bool":$persistent,
    "int64_t":$producerRegs, "int64_t":$consumerRegs,
    "::mlir::Type":$dtype,
    DefaultValuedParameter<"int64_t", "1">:$producers,
    DefaultValuedParameter<"bool", "false">:$sharedFullBarrier,
    DefaultValuedParameter<"int64_t", "1">:$groupM,
    DefaultValuedParameter<"bool", "false">:$tmaStore,
    OptionalParameter<"::mlir::Type">:$outDtype,
    DefaultValuedParameter<"int64_t", "1">:$clusterM,
    DefaultValuedParameter<"int64_t", "1">:$clusterN,
    DefaultValuedParameter<"bool", "false">:$hilbert,
    DefaultValuedParameter<"bool", "true">:$deferRelease);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// Bytes of one operand tile in shared memory.
    int64_t tileBytes(::klx::Operand operand) const;
    /// Bytes of one pipeline stage (an A tile and a B tile).
    int64_t stageBytes() const { return tileBytes(::klx::Operand::A) +
                                        tileBytes(::klx::Operand::B); }
    /// Rows of the output tile one consumer warpgroup computes.
    int64_t rowsPerConsumer() const {
      return getPingpong() ? getTileM() : getTileM() / getConsumers();
    }
    /// Dynamic shared memory the lowered kernel asks for: the stages, plus
    /// slack in front of them. gpu.dynamic_shared_memory lowers to a 1-byte
    /// variable among the static ones (the mbarriers); the stages start at
    /// least 64 bytes past it, on the 1024-byte boundary the 128-byte
    /// swizzle needs.
    static constexpr int64_t kAlignmentSlack = 2048;
    int64_t dynamicSharedBytes() const {
      return getStages() * stageBytes() + epilogueBytes() + kAlignmentSlack;
    }
    /// D's element type: f32 unless `outDtype` says otherwise.
    ::mlir::Type outElementType() const {
      return getOutDtype() ? getOutDtype()
                           : ::mlir::Float32Type::get(getContext());
    }
    int64_t outElementBytes() const {
      return outElementType().getIntOrFloatBitWidth() / 8;
    }
    /// The TMA-store epilogue's boxes, after the stages: 64 rows of 32
    /// elements, two per consumer. A row is one swizzle span: 128 bytes of
    /// f32, 64 of bf16 or f16.
    static constexpr int64_t kEpilogueBoxRows = 64;
    static constexpr int64_t kEpilogueBoxColumns = 32;
    static constexpr int64_t kEpilogueBoxesPerConsumer = 2;
    int64_t epilogueRowBytes() const {
      return kEpilogueBoxColumns * outElementBytes();
    }
    int64_t epilogueBoxBytes() const {
      return kEpilogueBoxRows * epilogueRowBytes();
    }
    int64_t epilogueBytes() const {
      return getTmaStore() ? getConsumers() * kEpilogueBoxesPerConsumer *
                                 epilogueBoxBytes()
                           : 0;
    }
    /// Side of the blocks of tiles a Hilbert order walks (a power of 2).
    static constexpr int64_t kHilbertBlock = 8;
    /// CTAs per cluster (one: no cluster).
    int64_t clusterSize() const { return getClusterM() * getClusterN(); }
    /// 32-bit registers per SM on Hopper.
    static constexpr int64_t kRegisterFile = 65536;
    /// Threads per CTA: a producer warpgroup and the consumers.
    int64_t threads() const {
      return 128 * ((getWarpSpecialize() ? 1 : 0) + getConsumers());
    }
  }];
}

#endif // KLX_DIALECT_KLX_IR_KLXATTRS_TD
