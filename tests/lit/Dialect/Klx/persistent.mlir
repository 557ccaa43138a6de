// klx-persistent: one output tile per CTA, or a grid-stride loop over the
// tiles with the k loop inside; a producer's merged (tile x k) loop becomes
// the same two loops, so the tile's coordinates (divisions) are worked out
// once per tile, not at every k step, and the pipeline state goes through
// both loops.
// RUN: klx-opt %s -split-input-file --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent | FileCheck %s

// CHECK-LABEL: klx.kernel @persistent
// CHECK: klx.role "producer"
// CHECK:   %[[TM:.*]] = arith.ceildivui %arg3, %c128
// CHECK:   %[[TN:.*]] = arith.ceildivui %arg4, %c128
// CHECK:   %[[KT:.*]] = arith.ceildivui %arg5, %c64
// CHECK:   %[[BID:.*]] = gpu.block_id x
// CHECK:   %[[GRID:.*]] = gpu.grid_dim x
// CHECK:   %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]]
// CHECK:   %[[MINE:.*]] = arith.select
// CHECK:   %[[OUT:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %[[MINE]] step %{{.*}} iter_args(%[[IDX:.*]] = %c0, %[[PH:.*]] = %false)
// CHECK:     %[[S:.*]] = arith.muli %[[J]], %[[GRID]]
// CHECK:     %[[T:.*]] = arith.addi %[[BID]], %[[S]]
// CHECK:     %[[ROW:.*]] = arith.divui %[[T]], %[[TN]]
// CHECK:     %[[COL:.*]] = arith.remui %[[T]], %[[TN]]
// CHECK:     %[[IN:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %[[KT]] step %{{.*}} iter_args(%[[I2:.*]] = %[[IDX]], %[[P2:.*]] = %[[PH]])
// CHECK-NOT:   arith.divui
// CHECK:       klx.producer_acquire %{{.*}}[%[[I2]]] phase %[[P2]]
// CHECK:       klx.copy a %arg0[%[[ROW]], %[[K]]]
// CHECK:       klx.copy b %arg1[%[[K]], %[[COL]]]
// CHECK:       klx.advance %[[I2]], %[[P2]]
// CHECK:     scf.yield %[[IN]]#0, %[[IN]]#1
// CHECK: klx.role "consumer"
// CHECK:   scf.for %[[U:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:     arith.muli %[[U]], %{{.*}}
// CHECK:     scf.for
// CHECK:       klx.consumer_wait
// CHECK-NOT: klx.for_each_tile
module attributes {klx.params = {persistent = true}} {
  klx.kernel @persistent(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                         %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = klx.zero
      %kt = klx.k_tiles %K
      %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (!klx.acc) {
        %a = klx.load a %A[%tm, %k]
        %b = klx.load b %B[%k, %tn]
        %n = klx.mma %a, %b, %c
        scf.yield %n : !klx.acc
      }
      klx.store %acc, %D[%tm, %tn]
    }
  }
}

// -----

// Not persistent: the tile is (block_id.y, block_id.x); the consumer's body
// runs once, the producer loops over k.
// CHECK-LABEL: klx.kernel @one_tile_per_cta
// CHECK: klx.role "producer"
// CHECK:   %[[KT:.*]] = arith.ceildivui %arg5, %c64
// CHECK:   %[[Y:.*]] = gpu.block_id y
// CHECK:   %[[X:.*]] = gpu.block_id x
// CHECK:   scf.for %[[K:.*]] = %{{.*}} to %[[KT]]
// CHECK:     klx.copy a %arg0[%[[Y]], %[[K]]]
// CHECK:     klx.copy b %arg1[%[[K]], %[[X]]]
// CHECK: klx.role "consumer"
// CHECK:   %[[CY:.*]] = gpu.block_id y
// CHECK:   %[[CX:.*]] = gpu.block_id x
// CHECK-NOT: scf.for %{{.*}} iter_args(%{{.*}} = %c0{{.*}}, %{{.*}} = %false) -> (index, i1)
// CHECK:   scf.for
// CHECK:   klx.store %{{.*}}, %arg2[%[[CY]], %[[CX]]]
klx.kernel @one_tile_per_cta(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                             %M: index, %N: index, %K: index) {
  klx.for_each_tile (%tm, %tn) in (%M, %N) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = klx.zero
    %kt = klx.k_tiles %K
    %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%c = %zero) -> (!klx.acc) {
      %a = klx.load a %A[%tm, %k]
      %b = klx.load b %B[%k, %tn]
      %n = klx.mma %a, %b, %c
      scf.yield %n : !klx.acc
    }
    klx.store %acc, %D[%tm, %tn]
  }
}
