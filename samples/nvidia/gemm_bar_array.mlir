// Lesson: barrier addresses kept in a register array go to local memory.
// This is the TMA + wgmma GEMM of gemm_tma_wgmma.mlir with one change:
// the shared addresses of its two mbarriers are kept in a small array,
// `bars[s] = base + 8 s`, as a kernel DSL keeps `uint32_t bars[stages]`,
// and each k step waits on `bars[k mod 2]`. GPU registers cannot be
// indexed at run time, so an array read at a run-time index lives in local
// memory: `ptxas -v` reports a stack frame and the PTX stores the array to
// `.local` and loads from it every k step (STL/LDL in SASS).
//
// `-D const_reg_tensor=1` runs klx-const-reg-tensor first: every element
// is written once with base + 8 i before any read, so each read becomes
// base + 8 k and the array goes away: no `.local`, a 0-byte frame.
// Compare the cubin step's report and the `ld/st.local` count of the two.
//
// Launch: as gemm_tma_wgmma.mlir (grid N/128 x M/128, 128 threads, 67584
// bytes of dynamic shared memory; k_tiles = K / 64).
//
// RUN: klx pipeline %s -D const_reg_tensor=0 | FileCheck %s --check-prefix=ARRAY
// RUN: klx pipeline %s -D const_reg_tensor=1 | FileCheck %s --check-prefix=ARITH
// RUN: klx compile %s -D const_reg_tensor=0 --emit=ptx | FileCheck %s --check-prefix=PTX-ARRAY
// RUN: klx compile %s -D const_reg_tensor=1 --emit=ptx | FileCheck %s --check-prefix=PTX-ARITH
// ARRAY-NOT: klx-const-reg-tensor
// ARRAY: gemm_bar_array (sm_90a): {{[0-9]+}} registers, {{[0-9]+}} bytes smem, {{[1-9][0-9]*}} bytes stack frame
// ARRAY: ptx: {{.*}} ld/st.local {{[1-9]}}
// ARITH: klx-const-reg-tensor {{.*}} yes
// ARITH: gemm_bar_array (sm_90a): {{[0-9]+}} registers, {{[0-9]+}} bytes smem, 0 bytes stack frame
// ARITH: ptx: {{.*}} ld/st.local 0,
// PTX-ARRAY: .local .align 4 .b8 __local_depot0[8];
// PTX-ARRAY: st.local.b32
// PTX-ARRAY: ld.local.b32
// PTX-ARITH-NOT: .local
// PTX-ARITH: mbarrier.try_wait.parity.shared

!mapA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!full = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!smem = memref<?xi8, #gpu.address_space<workgroup>>

module attributes {gpu.container_module,
                   klx.params = {const_reg_tensor = false}} {
  gpu.module @gemm {
    gpu.func @gemm_bar_array(%mapAPtr: !llvm.ptr, %mapBPtr: !llvm.ptr,
                             %d: memref<?x?xf32>, %kTiles: index) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>,
                    // What klx export writes into a Bundle's manifest, so
                    // that klx-run can launch this hand-written kernel.
                    klx.launch = {block = array<i64: 128, 1, 1>,
                                  dtype = "f16", grid = "tiles",
                                  dynamic_shared_memory = 67584 : i64,
                                  tile = array<i64: 128, 128, 64>,
                                  params = [
      {name = "A", kind = "tensor_map", box = array<i64: 128, 64>, swizzle = 128 : i64, dtype = "f16"},
      {name = "B", kind = "tensor_map", box = array<i64: 64, 64>, swizzle = 128 : i64, dtype = "f16"},
      {name = "D", kind = "memref", rank = 2 : i64, dtype = "f32"},
      {name = "k_tiles", kind = "scalar"}]}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c1024 = arith.constant 1024 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %c32768 = arith.constant 32768 : index
      %timeout = arith.constant 10000000 : index
      %mapA = builtin.unrealized_conversion_cast %mapAPtr : !llvm.ptr to !mapA
      %mapB = builtin.unrealized_conversion_cast %mapBPtr : !llvm.ptr to !mapB

      %tid = gpu.thread_id x
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %n0 = arith.muli %bx, %c128 : index
      %m0 = arith.muli %by, %c128 : index
      %leader = arith.cmpi eq, %tid, %c0 : index

      // Stage s holds A at pad + s*16384 and B at pad + 32768 + s*16384,
      // B as two 64-column halves 8192 bytes apart (one TMA box each).
      // MLIR 22 lowers gpu.dynamic_shared_memory to a 1-byte shared
      // variable laid out among the static ones (the mbarriers), so start
      // the stages at least 64 bytes past it, on a 1024-byte boundary.
      %smem = gpu.dynamic_shared_memory : !smem
      %base = memref.extract_aligned_pointer_as_index %smem : !smem -> index
      %guarded = arith.addi %base, %c64 : index
      %mis = arith.remui %guarded, %c1024 : index
      %gap = arith.subi %c1024, %mis : index
      %align = arith.remui %gap, %c1024 : index
      %pad = arith.addi %align, %c64 : index

      %full = nvgpu.mbarrier.create -> !full
      // The barriers' shared addresses in a small array, as a DSL keeps
      // them: bars[s] = base + 8 s.
      %bars = memref.alloca() : memref<2xi32>
      %bar0 = nvgpu.mbarrier.get %full[%c0] : !full -> i32
      %c8_i32 = arith.constant 8 : i32
      %bar1 = arith.addi %bar0, %c8_i32 : i32
      memref.store %bar0, %bars[%c0] : memref<2xi32>
      memref.store %bar1, %bars[%c1] : memref<2xi32>
      %ticks = arith.constant 10000000 : i32
      scf.if %leader {
        nvgpu.mbarrier.init %full[%c0], %c1 : !full
        nvgpu.mbarrier.init %full[%c1], %c1 : !full
        nvgpu.tma.prefetch.descriptor %mapA : !mapA
        nvgpu.tma.prefetch.descriptor %mapB : !mapB
      }
      gpu.barrier

      // The leader issues the copies of k-tile %k into stage %k mod 2; the
      // first is issued here, each next one an iteration ahead.
      scf.if %leader {
        %aOff = arith.addi %pad, %c0 : index
        %bOff = arith.addi %pad, %c32768 : index
        %b1Off = arith.addi %bOff, %c8192 : index
        %a = memref.view %smem[%aOff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %b0 = memref.view %smem[%bOff][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %b1 = memref.view %smem[%b1Off][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %n1 = arith.addi %n0, %c64 : index
        nvgpu.mbarrier.arrive.expect_tx %full[%c0], %c32768 : !full
        nvgpu.tma.async.load %mapA[%c0, %m0], %full[%c0] to %a : !mapA, !full -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %mapB[%n0, %c0], %full[%c0] to %b0 : !mapB, !full -> memref<64x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %mapB[%n1, %c0], %full[%c0] to %b1 : !mapB, !full -> memref<64x64xf16, #gpu.address_space<workgroup>>
      }

      %zero = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %result = scf.for %k = %c0 to %kTiles step %c1 iter_args(%accIn = %zero) -> (!acc) {
        // Copy k-tile k+1 into the other stage, freed at the end of k-1.
        %next = arith.addi %k, %c1 : index
        %more = arith.cmpi ult, %next, %kTiles : index
        %issue = arith.andi %leader, %more : i1
        scf.if %issue {
          %ns = arith.remui %next, %c2 : index
          %stageBytes = arith.muli %ns, %c16384 : index
          %aOff = arith.addi %pad, %stageBytes : index
          %bStart = arith.addi %aOff, %c32768 : index
          %b1Off = arith.addi %bStart, %c8192 : index
          %a = memref.view %smem[%aOff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
          %b0 = memref.view %smem[%bStart][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
          %b1 = memref.view %smem[%b1Off][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
          %kc = arith.muli %next, %c64 : index
          %n1 = arith.addi %n0, %c64 : index
          nvgpu.mbarrier.arrive.expect_tx %full[%ns], %c32768 : !full
          nvgpu.tma.async.load %mapA[%kc, %m0], %full[%ns] to %a : !mapA, !full -> memref<128x64xf16, #gpu.address_space<workgroup>>
          nvgpu.tma.async.load %mapB[%n0, %kc], %full[%ns] to %b0 : !mapB, !full -> memref<64x64xf16, #gpu.address_space<workgroup>>
          nvgpu.tma.async.load %mapB[%n1, %kc], %full[%ns] to %b1 : !mapB, !full -> memref<64x64xf16, #gpu.address_space<workgroup>>
        }

        // Wait for k-tile k: stage k mod 2 completes its phase (k / 2) mod 2.
        %s = arith.remui %k, %c2 : index
        %round = arith.divui %k, %c2 : index
        %parityIndex = arith.remui %round, %c2 : index
        %parity = arith.index_cast %parityIndex : index to i1
        %barAddr = memref.load %bars[%s] : memref<2xi32>
        %barPtr = llvm.inttoptr %barAddr : i32 to !llvm.ptr<3>
        %parity32 = arith.extui %parity : i1 to i32
        nvvm.mbarrier.try_wait.parity %barPtr, %parity32, %ticks : !llvm.ptr<3>, i32, i32

        %stageBytes = arith.muli %s, %c16384 : index
        %aOff = arith.addi %pad, %stageBytes : index
        %bOff = arith.addi %aOff, %c32768 : index
        %aTile = memref.view %smem[%aOff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %bTile = memref.view %smem[%bOff][] : !smem to memref<64x128xf16, #gpu.address_space<workgroup>>
        %descA = nvgpu.warpgroup.generate.descriptor %aTile, %mapA : memref<128x64xf16, #gpu.address_space<workgroup>>, !mapA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>
        %descB = nvgpu.warpgroup.generate.descriptor %bTile, %mapB : memref<64x128xf16, #gpu.address_space<workgroup>>, !mapB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>
        %accOut = nvgpu.warpgroup.mma %descA, %descB, %accIn {transposeB}
            : <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, !acc -> !acc
        // The stage is free once every warp's wgmma has read it.
        nvvm.wgmma.wait.group.sync.aligned 0
        gpu.barrier
        scf.yield %accOut : !acc
      }

      %tile = memref.subview %d[%m0, %n0] [128, 128] [1, 1]
          : memref<?x?xf32> to memref<128x128xf32, strided<[?, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %result, %tile
          : !acc to memref<128x128xf32, strided<[?, 1], offset: ?>>
      gpu.return
    }
  }
}
