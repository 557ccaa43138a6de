// A kernel in the form of MLIR's own sm90 integration tests: written
// inside gpu.launch in the host function, one thread (warp 0, the lane
// elect.sync picks after the warp index is broadcast with shfl.sync)
// initialises an mbarrier and issues one TMA copy; every thread waits on
// parity 0, then thread 0 copies the tile out. klx reads it as it stands,
// before the pipeline converts its ops and outlines it.
//
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// RUN: klx timeline %s | FileCheck %s --check-prefix=TIMELINE
// RUN: klx verify %s | FileCheck %s --check-prefix=VERIFY
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// ROLES: kernel @gpu.launch in @host (single role): 128 threads
// ROLES: barriers: arrive.expect_tx bar[0], complete_tx bar[0], wait bar[0]
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// TIMELINE: simulated barrier timeline of gpu.launch in @host after parse, read from nvgpu ops
// TIMELINE: barriers: bar x1 (init 1) bar.sync x1 (init 128)
// TIMELINE: role thread 0: waits
// TIMELINE: role threads 1-127: waits
// TIMELINE: verdict: completes in
// VERIFY: klx verify gpu.launch in @host after parse
// VERIFY: verified: no deadlock, protocol error or stage race for any timing, up to the kernel's own loop bounds
// STEPS: steps after parse
// STEPS: kernel host (gpu.launch): 1 step
// STEPS: load {{.*}}nvgpu.tma.async.load
// STEPS: load (shared) {{.*}}memref.load
//
// Without elect.sync the whole of warp 0 arrives on a barrier that
// expects one arrival: the role tree says so, and verify shows it.
// RUN: sed -e 's/%%leader = arith.andi %%first, %%pick/%%leader = arith.andi %%first, %%first/' %s > %t.warp.mlir
// RUN: not klx roles %t.warp.mlir 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: not klx verify %t.warp.mlir | FileCheck %s --check-prefix=WARP-VERIFY
// WARP: error: barrier 'bar[0]' is initialised for 1 arrival per phase, but producer arrive on it: 32 per phase
// WARP-VERIFY: FAILS for some timing: arrival beyond the expected count: producer (threads {{[0-9-]+}}) arrives on bar[0] ({{[0-9]+}} arrivals) when its phase 0 has 1 pending

!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x128xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @host(%src: memref<*xf16>, %out: memref<64x128xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %bytes = arith.constant 16384 : i32
    %map = nvgpu.tma.create.descriptor %src box[%c64, %c128] : memref<*xf16> -> !desc
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %expect = arith.constant 16384 : index
      %ticks = arith.constant 1000000 : index
      %false = arith.constant false
      %all = arith.constant -1 : i32
      %zero = arith.constant 0 : i32
      %lanes = arith.constant 31 : i32
      %five = arith.constant 5 : i32
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %tile = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x128xf16, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bar
      %t = gpu.thread_id x
      %t32 = arith.index_cast %t : index to i32
      %w = arith.shrui %t32, %five : i32
      %warp = nvvm.shfl.sync idx %all, %w, %zero, %lanes : i32 -> i32
      %first = arith.cmpi eq, %warp, %zero : i32
      %pick = nvvm.elect.sync -> i1
      %leader = arith.andi %first, %pick : i1
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bar
      }
      gpu.barrier
      scf.if %leader {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %expect : !bar
        nvgpu.tma.async.load %map[%c0, %c0], %bar[%c0] to %tile : !desc, !bar -> memref<64x128xf16, #gpu.address_space<workgroup>>
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !bar
      // Thread 0 copies the tile out, the same index spelled the long way.
      %bdx = gpu.block_dim x
      %ty32 = gpu.thread_id y
      %row = arith.muli %ty32, %bdx : index
      %linear = arith.addi %t, %row : index
      %isZero = arith.cmpi eq, %linear, %c0 : index
      scf.if %isZero {
        scf.for %i = %c0 to %c64 step %one {
          scf.for %j = %c0 to %c128 step %one {
            %v = memref.load %tile[%i, %j] : memref<64x128xf16, #gpu.address_space<workgroup>>
            memref.store %v, %out[%i, %j] : memref<64x128xf16>
          }
        }
      }
      gpu.terminator
    }
    return
  }
}
