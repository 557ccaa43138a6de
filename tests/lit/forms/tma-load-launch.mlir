// A TMA load in a gpu.launch, in the shape of MLIR's sm90 TMA tests: the
// host makes the tensor map (nvgpu.tma.create.descriptor on an unranked
// memref), the kernel stages a 32x64 f16 box into a memref.global in
// address space 3, thread 0 sets the mbarrier up for one arrival and
// 4096 bytes, every thread waits on parity 0 and then copies the tile out.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .shared .align {{[0-9]+}} .b8 staged[4096];
// PTX: mbarrier.init.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: mbarrier.try_wait.parity.shared.b64
//
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// ROLES: 128 threads, 1 warpgroup
// ROLES: barriers: complete_tx bar[0], arrive.expect_tx bar[0], wait bar[0]
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
//
// Initialised for 128 arrivals while one thread arrives: the wait never
// passes, and klx roles says so at the arrival.
// RUN: sed 's/nvgpu.mbarrier.init %bar\[%c0\], %c1 /nvgpu.mbarrier.init %bar[%c0], %c128 /' %s > %t.mlir
// RUN: not klx roles %t.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: barrier 'bar[0]' is initialised for 128 arrivals per phase, but all threads brings only 1: its phases never complete
//
// RUN: klx timeline %s | FileCheck %s --check-prefix=TIME
// TIME: barriers: bar x1 (init 1) bar.sync x1 (init 128)
// A copy test has no k loop: its roles count no k steps (its loop is
// the copy's).
// TIME-NOT: k steps
// TIME: role thread 0: waits
// TIME: role threads 1-127: waits
// TIME: verdict: completes in
//
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// STEPS: kernel copy_tile (gpu.launch): 1 step
// STEPS: load {{.*}}nvgpu.tma.async.load
// STEPS: load (shared) {{.*}}memref.load
// STEPS: store {{.*}}memref.store

!tile = memref<32x64xf16, 3>
!desc = !nvgpu.tensormap.descriptor<tensor = !tile, swizzle = none, l2promo = none, oob = zero, interleave = none>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // The staging buffer: shared memory, as MLIR's TMA tests declare it.
  memref.global "private" @staged : !tile
  func.func @copy_tile(%src: memref<128x64xf16>, %dst: memref<32x64xf16>, %row: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %unranked = memref.cast %src : memref<128x64xf16> to memref<*xf16>
    %desc = nvgpu.tma.create.descriptor %unranked box[%c32, %c64] : memref<*xf16> -> !desc
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %bytes = arith.constant 4096 : index
      %false = arith.constant false
      %ticks = arith.constant 10000000 : index
      %smem = memref.get_global @staged : !tile
      %bar = nvgpu.mbarrier.create -> !barriers
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !barriers
      }
      gpu.barrier
      scf.if %first {
        nvgpu.tma.async.load %desc[%c0, %row], %bar[%c0] to %smem : !desc, !barriers -> !tile
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !barriers
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !barriers
      %c16 = arith.constant 16 : index
      scf.for %i = %c0 to %c16 step %c1 {
        %base = arith.muli %i, %c128 : index
        %flat = arith.addi %base, %tx : index
        %r = arith.divui %flat, %c64 : index
        %c = arith.remui %flat, %c64 : index
        %v = memref.load %smem[%r, %c] : !tile
        memref.store %v, %dst[%r, %c] : memref<32x64xf16>
      }
      gpu.terminator
    }
    return
  }
}
