// A TMA store in a gpu.launch, the epilogue of a Hopper kernel as people
// write it by hand: every thread writes its part of a 32x64 f32 tile into
// a memref.global in address space 3, fences it for the async proxy, the
// CTA syncs, and thread 0 stores the tile with one TMA store, commits the
// bulk group and waits until the store has read shared memory.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .shared .align {{[0-9]+}} .b8 result[8192];
// PTX: st.shared.b32
// PTX: fence.proxy.async.shared::cta;
// PTX: bar.sync 0;
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 0;
//
// No mbarrier: the barrier analyses say there is no protocol to model
// (exit 2), not a verdict.
// RUN: klx timeline %s 2> %t.time; test $? -eq 2
// RUN: FileCheck %s --check-prefix=TIME < %t.time
// RUN: klx verify %s 2> %t.verify; test $? -eq 2
// RUN: FileCheck %s --check-prefix=TIME < %t.verify
// TIME-NOT: deadlock
// TIME: no kernel with a barrier protocol at any step
//
// The steps: the shared-memory writes, then (after the barrier) the TMA
// store, which is a store to global memory.
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// STEPS: kernel store_tile (gpu.launch): 2 steps
// STEPS: step 1: store
// STEPS: store (shared) {{.*}}memref.store
// STEPS: step 2: store
// STEPS: why a new step: gpu.barrier
// STEPS: store {{.*}}nvgpu.tma.async.store
//
// Thread 0's store is not a role of its own: it touches no barrier.
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// ROLES: (single role): 128 threads, 1 warpgroup
// ROLES: nvgpu.tma.async.store x1 (line {{[0-9]+}})
// ROLES: checks: registers, setmaxnreg placement and barriers are fine

!tile = memref<32x64xf32, 3>
!desc = !nvgpu.tensormap.descriptor<tensor = !tile, swizzle = none, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  memref.global "private" @result : !tile
  func.func @store_tile(%dst: memref<128x64xf32>, %row: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %unranked = memref.cast %dst : memref<128x64xf32> to memref<*xf32>
    %desc = nvgpu.tma.create.descriptor %unranked box[%c32, %c64] : memref<*xf32> -> !desc
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %smem = memref.get_global @result : !tile
      // Each thread writes 16 elements: its own value, the thread's index.
      %value = arith.index_cast %tx : index to i32
      %f = arith.sitofp %value : i32 to f32
      scf.for %i = %c0 to %c16 step %c1 {
        %base = arith.muli %i, %c128 : index
        %flat = arith.addi %base, %tx : index
        %r = arith.divui %flat, %c64 : index
        %c = arith.remui %flat, %c64 : index
        memref.store %f, %smem[%r, %c] : !tile
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        nvgpu.tma.async.store %smem to %desc[%c0, %row] : !tile -> !desc
        nvvm.cp.async.bulk.commit.group
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      gpu.terminator
    }
    return
  }
}
