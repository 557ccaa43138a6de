// Two asynchronous producer warps, as nvFuser's warp-specialized GEMM has
// them: warp 0 (one lane, picked by elect.sync after the warp index is
// broadcast with shfl.sync) loads A tiles, warp 1 loads B tiles, each
// through a full/empty pair of its own; warpgroup 1 waits for both, runs
// a wgmma on the stage and releases it when the wgmma is done. Written by
// hand in nvgpu ops: klx reads it as it stands.
//
// The roles, the simulated timeline and every interleaving agree: it
// completes.
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// RUN: klx timeline %s | FileCheck %s --check-prefix=TIMELINE
// RUN: klx verify %s | FileCheck %s --check-prefix=VERIFY
// ROLES: kernel @two_producers (thread-index branches): 256 threads
// ROLES: warpgroup 0 {{.*}} warps 0-1 producer (1 thread active); warps 2-3 producer (idle)
// ROLES: role producer: threads 0-127, 2 active
// ROLES: barriers: wait emptyA, arrive.expect_tx fullA, complete_tx fullA, wait emptyB, arrive.expect_tx fullB, complete_tx fullB
// ROLES: role consumer: threads 128-255, 128 active
// ROLES: barriers: wait fullA, wait fullB, arrive emptyA, arrive emptyB
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// TIMELINE: barriers: fullA x2 (init 1) emptyA x2 (init 128) fullB x2 (init 1) emptyB x2 (init 128)
// TIMELINE: role producer (thread 0): waits
// TIMELINE: role producer (thread 32): waits
// TIMELINE: role consumer: waits
// TIMELINE: verdict: completes in
// TIMELINE-NOT: but:
// VERIFY: klx verify @two_producers after parse, read from nvgpu ops
// VERIFY: verified: no deadlock, protocol error or stage race for any timing, up to the kernel's own loop bounds
// VERIFY: explored {{[0-9]+}} states
//
// The seed's hang: warp 1 completes its bytes on warp 0's full barrier
// (initialised for one arrival), so two producers arrive on one phase.
// RUN: sed -e 's/fullB\[%%s\]/fullA[%%s]/g' %s > %t.shared.mlir
// RUN: not klx verify %t.shared.mlir | FileCheck %s --check-prefix=SHARED
// SHARED: FAILS for some timing: arrival beyond the expected count: producer (thread 32) arrives on fullA[0] (1 arrival) when its phase 0 has 0 pending (initialised for 1)
// SHARED: counterexample, {{[0-9]+}} moves
// SHARED: producer (thread 0) {{ *}}arrive.expect_tx fullA[0] (8192 bytes), k step 0  (IR line {{[0-9]+}})
// SHARED: producer (thread 32) {{ *}}arrive.expect_tx fullA[0]: no pending arrival left, k step 0
//
// The consumer releases a stage as soon as it has issued the wgmma
// (`wait_group 1` leaves it in flight): the next copy into that stage can
// overwrite what the wgmma still reads.
// RUN: sed -e 's/wgmma.wait.group.sync.aligned 0/wgmma.wait.group.sync.aligned 1/' %s > %t.early.mlir
// RUN: not klx verify %t.early.mlir | FileCheck %s --check-prefix=EARLY
// EARLY: FAILS for some timing: stage race: producer (thread 0) copies into dynamic smem [0, 8192) while consumer's read of dynamic smem [0, 8192) may still be in progress
// EARLY: wgmma.wait_group 1, k step 0
// EARLY: arrive emptyA[0], k step 0
// The simulation alone finds nothing; the timeline says verify does.
// RUN: not klx timeline %t.early.mlir | FileCheck %s --check-prefix=EARLYSIM
// EARLYSIM: verdict: completes in {{[0-9]+}} cycles
// EARLYSIM-NEXT: but: completes under this latency model; klx verify finds a failure for another timing: stage race

!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!smem = memref<?xi8, #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_producers(%mapAPtr: !llvm.ptr, %mapBPtr: !llvm.ptr,
                            %d: memref<64x64xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %c128 = arith.constant 128 : index
      %tileBytes = arith.constant 8192 : index
      %bBase = arith.constant 16384 : index
      %ticks = arith.constant 10000000 : index
      %all = arith.constant -1 : i32
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %lanes = arith.constant 31 : i32
      %five = arith.constant 5 : i32
      %two = arith.constant 2 : i32
      %mapA = builtin.unrealized_conversion_cast %mapAPtr : !llvm.ptr to !map
      %mapB = builtin.unrealized_conversion_cast %mapBPtr : !llvm.ptr to !map

      // The warp index, the same in every lane of a warp (CUTLASS's
      // canonical_warp_idx_sync), and its warpgroup.
      %tid = gpu.thread_id x
      %t32 = arith.index_cast %tid : index to i32
      %w = arith.shrui %t32, %five : i32
      %warp = nvvm.shfl.sync idx %all, %w, %zero, %lanes : i32 -> i32
      %group = arith.shrui %warp, %two : i32
      %elected = nvvm.elect.sync -> i1

      %smem = gpu.dynamic_shared_memory : !smem
      %fullA = nvgpu.mbarrier.create -> !bars
      %emptyA = nvgpu.mbarrier.create -> !bars
      %fullB = nvgpu.mbarrier.create -> !bars
      %emptyB = nvgpu.mbarrier.create -> !bars
      %isWarp0 = arith.cmpi eq, %warp, %zero : i32
      %leader = arith.andi %isWarp0, %elected : i1
      scf.if %leader {
        scf.for %s = %c0 to %c2 step %c1 {
          nvgpu.mbarrier.init %fullA[%s], %c1 : !bars
          nvgpu.mbarrier.init %emptyA[%s], %c128 : !bars
          nvgpu.mbarrier.init %fullB[%s], %c1 : !bars
          nvgpu.mbarrier.init %emptyB[%s], %c128 : !bars
        }
      }
      gpu.barrier

      %isProducers = arith.cmpi eq, %group, %zero : i32
      scf.if %isProducers {
        %isWarp1 = arith.cmpi eq, %warp, %one : i32
        %leadA = arith.andi %isWarp0, %elected : i1
        %leadB = arith.andi %isWarp1, %elected : i1
        // k-tile k goes to stage k mod 2; a fresh empty barrier passes the
        // first wait on parity 1.
        scf.if %leadA {
          scf.for %k = %c0 to %c5 step %c1 {
            %s = arith.remui %k, %c2 : index
            %round = arith.divui %k, %c2 : index
            %p = arith.remui %round, %c2 : index
            %q = arith.xori %p, %c1 : index
            %parity = arith.index_cast %q : index to i1
            nvgpu.mbarrier.try_wait.parity %emptyA[%s], %parity, %ticks : !bars
            nvgpu.mbarrier.arrive.expect_tx %fullA[%s], %tileBytes : !bars
            %at = arith.muli %s, %tileBytes : index
            %tileA = memref.view %smem[%at][] : !smem to !tile
            nvgpu.tma.async.load %mapA[%c0, %c0], %fullA[%s] to %tileA : !map, !bars -> !tile
          }
        }
        scf.if %leadB {
          scf.for %k = %c0 to %c5 step %c1 {
            %s = arith.remui %k, %c2 : index
            %round = arith.divui %k, %c2 : index
            %p = arith.remui %round, %c2 : index
            %q = arith.xori %p, %c1 : index
            %parity = arith.index_cast %q : index to i1
            nvgpu.mbarrier.try_wait.parity %emptyB[%s], %parity, %ticks : !bars
            nvgpu.mbarrier.arrive.expect_tx %fullB[%s], %tileBytes : !bars
            %stage = arith.muli %s, %tileBytes : index
            %at = arith.addi %bBase, %stage : index
            %tileB = memref.view %smem[%at][] : !smem to !tile
            nvgpu.tma.async.load %mapB[%c0, %c0], %fullB[%s] to %tileB : !map, !bars -> !tile
          }
        }
      } else {
        %init = nvgpu.warpgroup.mma.init.accumulator -> !acc
        %result = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (!acc) {
          %s = arith.remui %k, %c2 : index
          %round = arith.divui %k, %c2 : index
          %p = arith.remui %round, %c2 : index
          %parity = arith.index_cast %p : index to i1
          nvgpu.mbarrier.try_wait.parity %fullA[%s], %parity, %ticks : !bars
          nvgpu.mbarrier.try_wait.parity %fullB[%s], %parity, %ticks : !bars
          %atA = arith.muli %s, %tileBytes : index
          %atB = arith.addi %bBase, %atA : index
          %tileA = memref.view %smem[%atA][] : !smem to !tile
          %tileB = memref.view %smem[%atB][] : !smem to !tile
          %descA = nvgpu.warpgroup.generate.descriptor %tileA, %mapA : !tile, !map -> !nvgpu.warpgroup.descriptor<tensor = !tile>
          %descB = nvgpu.warpgroup.generate.descriptor %tileB, %mapB : !tile, !map -> !nvgpu.warpgroup.descriptor<tensor = !tile>
          %next = nvgpu.warpgroup.mma %descA, %descB, %acc {transposeB}
              : <tensor = !tile>, <tensor = !tile>, !acc -> !acc
          // The stage is free once the wgmma that reads it is done.
          nvvm.wgmma.wait.group.sync.aligned 0
          %ta = nvgpu.mbarrier.arrive %emptyA[%s] : !bars -> !nvgpu.mbarrier.token
          %tb = nvgpu.mbarrier.arrive %emptyB[%s] : !bars -> !nvgpu.mbarrier.token
          scf.yield %next : !acc
        }
        nvgpu.warpgroup.mma.store %result, %d : !acc to memref<64x64xf32>
      }
      gpu.return
    }
  }
}
