//===- KlxOps.td - Operations of the klx dialect -----------*- tablegen -*-===//
//
// Index:
//   [SECTION] The tile program (what a user writes)
//   [SECTION] Computing on accumulators (what a user writes)
//   [SECTION] Warp roles (after klx-warp-specialize)
//   [SECTION] The circular buffer (after klx-circular-buffer)
//   [SECTION] Ping-pong turns (after klx-warp-specialize with pingpong)
//   [SECTION] Instructions MLIR has no op for (after klx-to-nvgpu)
//
//===----------------------------------------------------------------------===//

#ifndef KLX_DIALECT_KLX_IR_KLXOPS_TD
#define KLX_DIALECT_KLX_IR_KLXOPS_TD

include "klx/Dialect/Klx/IR/KlxDialect.td"
include "klx/Dialect/Klx/IR/KlxAttrs.td"
include "klx/Dialect/Klx/IR/KlxTypes.td"
include "mlir/Dialect/LLVMIR/BasicPtxBuilderInterface.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Klx_Op<string mnemonic, list<Trait> traits = []> :
    Op<Klx_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// [SECTION] The tile program (what a user writes)
//===----------------------------------------------------------------------===//

def Klx_KernelOp : Klx_Op<"kernel", [IsolatedFromAbove, Symbol, SingleBlock,
                                     NoTerminator]> {
  let summary = "a GPU kernel written as a tile program for one CTA";
  let description = [{
    The body runs once per CTA. Its arguments are the kernel's: `!klx.tensor`
    matrices and `index` sizes. `klx-materialize-schedule` attaches the
    schedule; `klx-to-nvgpu` turns the kernel into a `gpu.func` in a
    `gpu.module`.

    ```mlir
    klx.kernel @gemm(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                     %M: index, %N: index, %K: index) {
      klx.for_each_tile (%tm, %tn) in (%M, %N) {
        ...
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<Klx_ScheduleAttr>:$schedule);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Klx_ForEachTileOp : Klx_Op<"for_each_tile", [
    AttrSizedOperandSegments, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "iterate over the output tiles this CTA computes";
  let description = [{
    With two extents `(M, N)` the body runs once per output tile of this
    CTA, with its tile coordinates. With three, `(M, N, K)`, it runs once
    per output tile and k tile, k innermost: the merged loop a producer
    role iterates, since it has no epilogue between tiles. Which tiles a CTA
    owns is decided later (`klx-persistent`). Loop-carried values work as
    in `scf.for`.

    `first_tile` and `tile_step` make the loop visit only some of the CTA's
    tiles: its `first_tile`-th, then every `tile_step`-th. Ping-pong
    consumers split the CTA's tiles that way.

    ```mlir
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      ...
    }
    %i:2 = klx.for_each_tile (%tm, %tn, %k) in (%M, %N, %K)
        iter_args(%s = %c0, %p = %false) -> (index, i1) {
      ...
      klx.yield %s2, %p2 : index, i1
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$extents, Variadic<AnyType>:$inits,
                       OptionalAttr<I64Attr>:$first_tile,
                       OptionalAttr<I64Attr>:$tile_step);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$extents, "::mlir::ValueRange":$inits)>
  ];
  let extraClassDeclaration = [{
    unsigned getNumInductionVars() { return getExtents().size(); }
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::ValueRange getInductionVars() {
      return getBodyBlock().getArguments().take_front(getNumInductionVars());
    }
    ::mlir::ValueRange getRegionIterArgs() {
      return getBodyBlock().getArguments().drop_front(getNumInductionVars());
    }
    bool hasK() { return getNumInductionVars() == 3; }
    /// Which of the CTA's tiles the loop visits: first, first + step, ...
    int64_t firstTile() { return getFirstTile().value_or(0); }
    int64_t tileStep() { return getTileStep().value_or(1); }
  }];
}

def Klx_YieldOp : Klx_Op<"yield", [Pure, Terminator, ReturnLike,
                                   HasParent<"ForEachTileOp">]> {
  let summary = "the loop-carried values of the next tile";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

def Klx_KTilesOp : Klx_Op<"k_tiles", [Pure]> {
  let summary = "how many k tiles cover a K extent";
  let arguments = (ins Index:$extent);
  let results = (outs Index:$count);
  let assemblyFormat = "$extent attr-dict";
}

def Klx_LoadOp : Klx_Op<"load"> {
  let summary = "copy an operand tile from global to shared memory (TMA)";
  let description = [{
    Loads the A tile at tile coordinates `[tm, k]` or the B tile at
    `[k, tn]`, sized by the schedule (`!klx.tile`) or by its type
    (`!klx.tile<128x64xf16>`). One thread issues it; the copy engine does
    the work. With `transposed` (B only) the tensor holds B's transpose,
    N x K row-major, and the coordinates are `[tn, k]`: attention's
    `S = Q * K^T` reads K, stored one key per row, as B.

    ```mlir
    %a = klx.load a %A[%tm, %k]
    %kt = klx.load b %K[%j, %c0] transposed : !klx.tile<128x128xf16>
    ```
  }];
  let arguments = (ins Klx_OperandAttr:$operand, Klx_TensorType:$tensor,
                       Index:$row, Index:$col, UnitAttr:$transposed);
  let results = (outs Klx_TileType:$tile);
  let assemblyFormat = [{
    $operand $tensor `[` $row `,` $col `]` (`transposed` $transposed^)?
    attr-dict `` custom<OptionalTile>(type($tile))
  }];
  let hasVerifier = 1;
}

def Klx_ZeroOp : Klx_Op<"zero", [Pure]> {
  let summary = "accumulators set to zero";
  let results = (outs Klx_AccType:$acc);
  let assemblyFormat = "attr-dict `` custom<OptionalAcc>(type($acc))";
}

def Klx_MmaOp : Klx_Op<"mma", [Pure]> {
  let summary = "acc += a * b on the tensor cores (wgmma)";
  let description = [{
    `a` is an operand tile in shared memory (`!klx.tile`) or in registers
    (`!klx.frag`, from `klx.as_operand`); `b` is in shared memory. Shapes,
    where written, must agree: a M x K, b K x N, acc M x N.

    ```mlir
    %c2 = klx.mma %a, %b, %c
    %o2 = klx.mma %p, %v, %o : !klx.frag<128x128xf16>, !klx.tile<128x128xf16>, !klx.acc<128x128xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Klx_TileType, Klx_FragType]>:$a,
                       Klx_TileType:$b, Klx_AccType:$acc);
  let results = (outs Klx_AccType:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict ``
    custom<MmaTypes>(type($a), type($b), type($acc), type($result))
  }];
  let hasVerifier = 1;
}

def Klx_StoreOp : Klx_Op<"store"> {
  let summary = "the epilogue: write an output tile from registers";
  let arguments = (ins Klx_AccType:$acc, Klx_TensorType:$tensor,
                       Index:$row, Index:$col);
  let assemblyFormat = [{
    $acc `,` $tensor `[` $row `,` $col `]` attr-dict ``
    custom<OptionalAcc>(type($acc))
  }];
}

//===----------------------------------------------------------------------===//
// [SECTION] Computing on accumulators (what a user writes)
//===----------------------------------------------------------------------===//

def Klx_SplatOp : Klx_Op<"splat", [Pure]> {
  let summary = "a tile or vector with one value everywhere";
  let description = [{
    ```mlir
    %m0 = klx.splat %minus_inf : f32 -> !klx.row<128xf32>
    ```
  }];
  let arguments = (ins AnyFloat:$value);
  let results = (outs AnyTypeOf<[Klx_AccType, Klx_RowType, Klx_ColType]>:
                     $result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
}

def Klx_MapOp : Klx_Op<"map", [RecursiveMemoryEffects, SingleBlock]> {
  let summary = "element by element over accumulators and vectors";
  let description = [{
    The body runs once per element of the result: its arguments are each
    input's element there (a `!klx.row` input broadcast along the row, a
    `!klx.col` input down the column), then, where the block asks for
    them, the element's row and column in the tile (`index`, from 0); it
    yields the result's element. The body holds `arith` and `math` ops and
    may use values defined above (a scale, the tile coordinates), so one
    op says a fused epilogue (bias, GELU, a conversion to bf16), a mask
    from coordinates, or a vector's update. A result of `!klx.row` or
    `!klx.col` type takes vectors only, of its length.

    ```mlir
    %y = klx.map %acc, %bias : !klx.acc<128x256xf32>, !klx.col<256xf32>
           -> !klx.acc<128x256xbf16> {
    ^bb0(%x: f32, %b: f32):
      %s = arith.addf %x, %b : f32
      %h = arith.truncf %s : f32 to bf16
      klx.map_yield %h : bf16
    }
    ```
  }];
  let arguments = (ins
      Variadic<AnyTypeOf<[Klx_AccType, Klx_RowType, Klx_ColType]>>:$inputs);
  let results = (outs AnyTypeOf<[Klx_AccType, Klx_RowType, Klx_ColType]>:
                     $result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Klx_MapYieldOp : Klx_Op<"map_yield", [Pure, Terminator, ReturnLike,
                                          HasParent<"MapOp">]> {
  let summary = "one element of klx.map's result";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Klx_ReduceOp : Klx_Op<"reduce", [Pure]> {
  let summary = "each row's (or column's) max, min or sum";
  let description = [{
    `rows` yields one value per row of the accumulators (`!klx.row`),
    combined across the row's columns; `cols` one per column. On Hopper a
    row lives in one warpgroup: its threads combine their fragments in
    registers, then across the threads that share the row with shuffles.

    ```mlir
    %m = klx.reduce max rows %s : !klx.acc<128x128xf32> -> !klx.row<128xf32>
    ```
  }];
  let arguments = (ins Klx_ReduceKindAttr:$kind, Klx_AxisAttr:$axis,
                       Klx_AccType:$input);
  let results = (outs AnyTypeOf<[Klx_RowType, Klx_ColType]>:$result);
  let assemblyFormat = [{
    $kind $axis $input attr-dict `:` qualified(type($input)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Klx_LoadVectorOp : Klx_Op<"load_vector"> {
  let summary = "one value per row or column of a tile, from global memory";
  let description = [{
    The tensor is a vector of M values (a scale per row) or N values (a
    bias per column), and the index is the tile's row (`!klx.row`) or
    column (`!klx.col`) coordinate: the result is that tile's slice of it,
    zero past the vector's end.

    ```mlir
    %bias = klx.load_vector %Bias[%tn] : !klx.col<256xf32>
    ```
  }];
  let arguments = (ins Klx_TensorType:$tensor, Index:$index);
  let results = (outs AnyTypeOf<[Klx_RowType, Klx_ColType]>:$result);
  let assemblyFormat = "$tensor `[` $index `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Klx_AsOperandOp : Klx_Op<"as_operand", [Pure]> {
  let summary = "accumulators kept in registers as an MMA's A operand";
  let description = [{
    The accumulators, already 16-bit (`klx.map` converts them), become the
    A operand of the next `klx.mma` without going through shared memory:
    attention's `O += P * V` with P the softmax of `S = Q * K^T`. On
    Hopper a 16-bit accumulator fragment is laid out as wgmma's register
    A operand, so nothing moves.

    ```mlir
    %pa = klx.as_operand %p : !klx.acc<128x128xf16> -> !klx.frag<128x128xf16>
    ```
  }];
  let arguments = (ins Klx_AccType:$input);
  let results = (outs Klx_FragType:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// [SECTION] Warp roles (after klx-warp-specialize)
//===----------------------------------------------------------------------===//

def Klx_ChannelOp : Klx_Op<"channel"> {
  let summary = "tiles handed from a producer role to the consumer roles";
  let arguments = (ins I64Attr:$slots);
  let results = (outs Klx_ChannelType:$channel);
  let assemblyFormat = "`slots` `(` $slots `)` attr-dict";
}

def Klx_WarpSpecializeOp : Klx_Op<"warp_specialize", [SingleBlock,
                                                       NoTerminator]> {
  let summary = "the CTA split into warp roles";
  let description = [{
    Holds one `klx.role` per role. After lowering each role is one branch of
    a single if/else on the warpgroup index, which is where ptxas honours
    `setmaxnreg`.
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Klx_RoleOp : Klx_Op<"role", [SingleBlock, NoTerminator,
                                 HasParent<"WarpSpecializeOp">]> {
  let summary = "what some warpgroups of the CTA run";
  let description = [{
    `warpgroups` lists the warpgroups that run the role, `warps` the warps
    of each that take part (0-3), and `regs` the register count per thread
    the role sets with `setmaxnreg` on entry.

    ```mlir
    klx.role "producer" producer warpgroups [2] warps [0] regs 40 {
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Klx_RoleKindAttr:$kind,
                       DenseI64ArrayAttr:$warpgroups,
                       DenseI64ArrayAttr:$warps, I64Attr:$regs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name $kind `warpgroups` $warpgroups `warps` $warps `regs` $regs
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Klx_PushOp : Klx_Op<"push"> {
  let summary = "producer: hand the loaded tiles of one k step to the consumers";
  let arguments = (ins Klx_ChannelType:$channel,
                       Variadic<Klx_TileType>:$tiles);
  let assemblyFormat = "$channel `,` $tiles attr-dict";
}

def Klx_PopOp : Klx_Op<"pop"> {
  let summary = "consumer: take the tiles of the next k step";
  let arguments = (ins Klx_ChannelType:$channel);
  let results = (outs Variadic<Klx_TileType>:$tiles);
  let assemblyFormat = "$channel attr-dict `:` type($tiles)";
}

def Klx_ReleaseOp : Klx_Op<"release"> {
  let summary = "consumer: done with the tiles taken by the last pop";
  let arguments = (ins Klx_ChannelType:$channel);
  let assemblyFormat = "$channel attr-dict";
}

//===----------------------------------------------------------------------===//
// [SECTION] The circular buffer (after klx-circular-buffer)
//===----------------------------------------------------------------------===//

def Klx_PipelineOp : Klx_Op<"pipeline"> {
  let summary = "stages of shared memory with a full and an empty mbarrier each";
  let description = [{
    `full[i]` completes when the producer's copies into stage i have landed
    (initialised to one arrival, the producer's `arrive.expect_tx` of
    `tx_bytes`); `empty[i]` when every consumer has released stage i
    (initialised to `arrivals`). Both sides walk the stages with the same
    pipeline state, an index and a phase bit (`klx.advance`).

    With `full_of %other` the pipeline has no full barriers of its own: its
    producer arrives on `%other`'s, which are still initialised for one
    arrival. Two producers sharing one full barrier that way is the known
    deadlock; klx builds it on request (`shared_full_barrier`) to show it.

    ```mlir
    %a = klx.pipeline stages(4) tx_bytes(16384) arrivals(256)
    %b = klx.pipeline stages(4) tx_bytes(16384) arrivals(256) full_of %a
    ```
  }];
  let arguments = (ins I64Attr:$stages, I64Attr:$tx_bytes,
                       I64Attr:$arrivals,
                       Optional<Klx_PipelineType>:$full_of);
  let results = (outs Klx_PipelineType:$pipeline);
  let assemblyFormat = [{
    `stages` `(` $stages `)` `tx_bytes` `(` $tx_bytes `)`
    `arrivals` `(` $arrivals `)` (`full_of` $full_of^)? attr-dict
  }];
  let hasVerifier = 1;
}

class Klx_PipelineStateOp<string mnemonic> : Klx_Op<mnemonic> {
  let arguments = (ins Klx_PipelineType:$pipeline, Index:$index, I1:$phase);
  let assemblyFormat = "$pipeline `[` $index `]` `phase` $phase attr-dict";
}

def Klx_ProducerAcquireOp : Klx_PipelineStateOp<"producer_acquire"> {
  let summary = "wait until stage `index` is empty, then expect its bytes";
  let description = [{
    Waits on `empty[index]` for the phase before `phase` (so the first
    round through the stages does not wait), then arrives on `full[index]`
    expecting the stage's transaction bytes.
  }];
}

def Klx_ConsumerWaitOp : Klx_PipelineStateOp<"consumer_wait"> {
  let summary = "wait until stage `index` is full in phase `phase`";
}

def Klx_ConsumerReleaseOp : Klx_Op<"consumer_release"> {
  let summary = "arrive on `empty[index]`: this consumer is done with the stage";
  let arguments = (ins Klx_PipelineType:$pipeline, Index:$index);
  let assemblyFormat = "$pipeline `[` $index `]` attr-dict";
}

def Klx_CopyOp : Klx_Op<"copy"> {
  let summary = "TMA copy of an operand tile into a stage, completing on full[index]";
  let arguments = (ins Klx_OperandAttr:$operand, Klx_TensorType:$tensor,
                       Index:$row, Index:$col, Klx_PipelineType:$pipeline,
                       Index:$index);
  let assemblyFormat = [{
    $operand $tensor `[` $row `,` $col `]` `to` $pipeline `[` $index `]`
    attr-dict
  }];
}

def Klx_StageTileOp : Klx_Op<"stage_tile", [Pure]> {
  let summary = "the operand tile held in stage `index`";
  let arguments = (ins Klx_OperandAttr:$operand, Klx_PipelineType:$pipeline,
                       Index:$index);
  let results = (outs Klx_TileType:$tile);
  let assemblyFormat = "$operand $pipeline `[` $index `]` attr-dict";
}

def Klx_AdvanceOp : Klx_Op<"advance", [Pure]> {
  let summary = "the next pipeline state: index + 1, and the phase flips on wrap";
  let description = [{
    With `by %n` the state moves n stages at once (the phase flips once per
    wrap): a ping-pong consumer skips the stages of the tiles the other
    consumers take.
  }];
  let arguments = (ins Index:$index, I1:$phase, Optional<Index>:$count,
                       I64Attr:$stages);
  let results = (outs Index:$next_index, I1:$next_phase);
  let assemblyFormat = [{
    $index `,` $phase (`by` $count^)? `stages` `(` $stages `)` attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// [SECTION] Ping-pong turns (after klx-warp-specialize with pingpong)
//===----------------------------------------------------------------------===//

def Klx_TurnsOp : Klx_Op<"turns"> {
  let summary = "consumer warpgroups take the tensor cores in turn";
  let description = [{
    One mbarrier per consumer. Consumer c waits on `turn[c]` before its
    k loop and arrives on `turn[c + 1]` (mod consumers) after it, so the
    mainloops of the consumers alternate while each one's epilogue overlaps
    the next one's mainloop. Consumer 0 has the first turn.

    ```mlir
    %t = klx.turns consumers(2)
    klx.take_turn %t[0] phase %p
    klx.pass_turn %t[1]
    ```
  }];
  let arguments = (ins I64Attr:$consumers);
  let results = (outs Klx_TurnsType:$turns);
  let assemblyFormat = "`consumers` `(` $consumers `)` attr-dict";
}

def Klx_TakeTurnOp : Klx_Op<"take_turn"> {
  let summary = "wait until it is consumer `consumer`'s turn (phase `phase`)";
  let arguments = (ins Klx_TurnsType:$turns, I64Attr:$consumer, I1:$phase);
  let assemblyFormat = "$turns `[` $consumer `]` `phase` $phase attr-dict";
}

def Klx_PassTurnOp : Klx_Op<"pass_turn"> {
  let summary = "give the turn to consumer `consumer`";
  let arguments = (ins Klx_TurnsType:$turns, I64Attr:$consumer);
  let assemblyFormat = "$turns `[` $consumer `]` attr-dict";
}

//===----------------------------------------------------------------------===//
// [SECTION] Instructions MLIR has no op for (after klx-to-nvgpu)
//===----------------------------------------------------------------------===//

def Klx_WgmmaRegisterAOp : Klx_Op<"wgmma_register_a", [
    DeclareOpInterfaceMethods<BasicPtxBuilderOpInterface, ["getAsmValues"]>,
    AllTypesMatch<["inouts", "results"]>]> {
  let summary = "one wgmma.mma_async m64nNk16 with A in registers (RS form)";
  let description = [{
    `nvvm.wgmma.mma_async` and `nvgpu.warpgroup.mma` take A only from
    shared memory, by descriptor; an MMA fed by accumulators converted in
    registers (`klx.as_operand`) needs the other form. `a` is the thread's
    four 32-bit registers of the 64 x 16 A slice (pairs of 16-bit values,
    as an accumulator fragment leaves them), `descriptor_b` the 16 x N
    slice of B in shared memory; `inouts` the thread's N / 2 f32
    accumulators, which the op returns. It accumulates (scale-d 1) and
    reads B transposed, as klx lays B out (N contiguous).
    `convert-nvvm-to-llvm` lowers it to inline PTX, as it does
    `nvvm.wgmma.mma_async`: it implements the same interface.

    ```mlir
    %d1 = klx.wgmma_register_a %d0, [%a0, %a1, %a2, %a3], %descB
        {n = 64 : i64, element = bf16} : !llvm.struct<(f32, ...)>
    ```
  }];
  let arguments = (ins LLVM_AnyStruct:$inouts, Variadic<I32>:$a,
                       I64:$descriptor_b, I64Attr:$n, TypeAttr:$element);
  let results = (outs LLVM_AnyStruct:$results);
  let assemblyFormat = [{
    $inouts `,` `[` $a `]` `,` $descriptor_b attr-dict `:` type($inouts)
  }];
  let hasVerifier = 1;
}

#endif // KLX_DIALECT_KLX_IR_KLXOPS_TD
