// Barrier addresses kept in a register array, as a kernel DSL keeps
// `uint32_t bars[stages]`: bars[s] = base + 8 s is written once, and each
// k step waits (nvvm.mbarrier.try_wait.parity on a pointer) on bars[k mod
// 2]. klx follows the addresses through the array, per thread, and reads
// the same protocol as with the barrier group's index.
//
// RUN: klx timeline %s | FileCheck %s --check-prefix=TIMELINE
// RUN: klx verify %s | FileCheck %s --check-prefix=VERIFY
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// TIMELINE: barriers: full x2 (init 1) bar.sync x1 (init 128)
// TIMELINE: role thread 0: waits
// TIMELINE: role threads 1-127: waits
// TIMELINE: verdict: completes in
// VERIFY: verified: no deadlock, protocol error or stage race for any timing
// ROLES: barriers: {{.*}}wait full
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
//
// Without the CTA barrier in the loop, thread 0 refills a stage that
// other threads may still be reading.
// RUN: sed -e '/stage-free/d' %s > %t.race.mlir
// RUN: not klx verify %t.race.mlir | FileCheck %s --check-prefix=RACE
// RACE: FAILS for some timing: stage race: thread 0 copies into dynamic smem [0, 8192) while threads 1-127's read of dynamic smem [0, 8192) may still be in progress
//
// With the second address written at an index read from memory, klx can
// no longer tell which barrier a wait is on: it says so, at the line,
// rather than guess.
// RUN: sed -e 's/memref.store %%bar1, %%bars\[%%c1\]/memref.store %%bar1, %%bars[%%where]/' %s > %t.lost.mlir
// RUN: not klx timeline %t.lost.mlir 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not klx verify %t.lost.mlir 2>&1 | FileCheck %s --check-prefix=LOST
// LOST: @bar_array: the barrier protocol is unknown: running thread {{[0-9]+}}: at IR line {{[0-9]+}}, the mbarrier address is not known: it was written at an index klx does not know

!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!smem = memref<?xi8, #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bar_array(%mapPtr: !llvm.ptr, %where: index) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c6 = arith.constant 6 : index
      %stageBytes = arith.constant 8192 : index
      %eight = arith.constant 8 : i32
      %ticks = arith.constant 10000000 : i32
      %map = builtin.unrealized_conversion_cast %mapPtr : !llvm.ptr to !map
      %tid = gpu.thread_id x
      %leader = arith.cmpi eq, %tid, %c0 : index
      %smem = gpu.dynamic_shared_memory : !smem
      %full = nvgpu.mbarrier.create -> !bars
      %bars = memref.alloca() : memref<2xi32>
      %bar0 = nvgpu.mbarrier.get %full[%c0] : !bars -> i32
      %bar1 = arith.addi %bar0, %eight : i32
      memref.store %bar0, %bars[%c0] : memref<2xi32>
      memref.store %bar1, %bars[%c1] : memref<2xi32>
      scf.if %leader {
        nvgpu.mbarrier.init %full[%c0], %c1 : !bars
        nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      }
      gpu.barrier
      scf.for %k = %c0 to %c6 step %c1 {
        %s = arith.remui %k, %c2 : index
        %at = arith.muli %s, %stageBytes : index
        %stage = memref.view %smem[%at][] : !smem to !tile
        scf.if %leader {
          nvgpu.mbarrier.arrive.expect_tx %full[%s], %stageBytes : !bars
          nvgpu.tma.async.load %map[%c0, %c0], %full[%s] to %stage : !map, !bars -> !tile
        }
        %round = arith.divui %k, %c2 : index
        %p = arith.remui %round, %c2 : index
        %p32 = arith.index_cast %p : index to i32
        %address = memref.load %bars[%s] : memref<2xi32>
        %pointer = llvm.inttoptr %address : i32 to !llvm.ptr<3>
        nvvm.mbarrier.try_wait.parity %pointer, %p32, %ticks : !llvm.ptr<3>, i32, i32
        %x = memref.load %stage[%tid, %c0] : !tile
        // Every thread has read the stage before it is filled again.
        gpu.barrier // stage-free
      }
      gpu.return
    }
  }
}
