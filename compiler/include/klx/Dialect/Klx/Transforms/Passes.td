//===- Passes.td - Passes on the klx dialect ---------------*- tablegen -*-===//
//
// Kept in alphabetical order.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_DIALECT_KLX_TRANSFORMS_PASSES_TD
#define KLX_DIALECT_KLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KlxCircularBufferPass : Pass<"klx-circular-buffer", "mlir::ModuleOp"> {
  let summary = "Give the tiles between roles shared-memory stages with "
                "full/empty mbarriers";
  let description = [{
    Replaces each `klx.channel` with a `klx.pipeline` of `stages` stages
    and rewrites both sides the way CUTLASS's TMA pipelines work: the
    producer `producer_acquire`s a stage (waits for it to be empty and
    expects the bytes its copies bring), copies into it, and advances; each
    consumer `consumer_wait`s for the stage to be full, reads its tiles,
    `consumer_release`s it, and advances. The pipeline state (index, phase)
    is carried through every loop on both sides, across output tiles too.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def KlxMaterializeSchedulePass
    : Pass<"klx-materialize-schedule", "mlir::ModuleOp"> {
  let summary = "Read the module's klx.params into a checked #klx.schedule";
  let description = [{
    Builds each kernel's `#klx.schedule` from `klx.params` (with defaults
    for what is not given) and rejects schedules the hardware cannot run,
    saying why: no stages, tile sizes wgmma or TMA cannot take, more
    registers than the register file has, more shared memory than a CTA
    may use, an accumulator that does not fit the consumers' registers.
  }];
}

def KlxPersistentPass : Pass<"klx-persistent", "mlir::ModuleOp"> {
  let summary = "Map klx.for_each_tile onto CTAs: one tile each, or a "
                "persistent grid-stride loop";
  let description = [{
    With `persistent = true` each CTA walks the output tiles from its block
    index in steps of the grid size (launch as many CTAs as there are SMs);
    the cta-k loop stays inside. A producer's merged (tile x k) loop becomes
    one loop over this CTA's tiles times the k tiles. Otherwise each CTA
    computes the tile at (block_id.y, block_id.x).

    `grid-stride=false` gives persistent schedules one tile per CTA too:
    the AMD pipeline uses it, since the grid size is read there through a
    device-library call (`__ockl_get_num_groups`) that klx does not link.
  }];
  let options = [
    Option<"gridStride", "grid-stride", "bool", "true",
           "persistent schedules stride over tiles by the grid size">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def KlxWarpSpecializePass : Pass<"klx-warp-specialize", "mlir::ModuleOp"> {
  let summary = "Split a tile program into a producer role and consumer "
                "warpgroups";
  let description = [{
    Separates the load sub-DAG of the k loop (the producer role: the last
    warpgroup, whose warp 0 issues the TMA copies) from the compute sub-DAG
    (the consumer warpgroups, 0 to consumers-1), connected by a
    `klx.channel`. As nvFuser does for
    persistent matmul, the producer iterates one merged (output tile x k)
    loop, since it has no epilogue between tiles, while the consumers keep
    separate output-tile and k loops.
  }];
}

#endif // KLX_DIALECT_KLX_TRANSFORMS_PASSES_TD
