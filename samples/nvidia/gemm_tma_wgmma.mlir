// Lesson: one CTA computes a 128x128 tile of D = A * B (f16 in, f32
// accumulate) with the Hopper data path: TMA copies A and B tiles into
// shared memory and completes them on an mbarrier; one warpgroup (128
// threads) multiplies them with wgmma; two stages let the copy of k-tile
// k+1 run while k-tile k is multiplied.
//
// Watch convert-nvgpu-to-nvvm expand nvgpu.tma.async.load into
// nvvm.cp.async.bulk.tensor, the mbarrier ops into nvvm.mbarrier.*, and one
// nvgpu.warpgroup.mma into eight wgmma.mma_async m64n128k16 (two 64-row
// halves x four k16 steps). In SASS (where nvdisasm exists) they become
// UTMALDG, SYNCS and HGMMA.
//
// Tensor maps: a !nvgpu.tensormap.descriptor in a gpu.func signature does
// not legalize in MLIR 22, so the kernel takes each CUtensorMap by pointer
// (!llvm.ptr to the 128-byte map in global memory, written by the host
// with cuTensorMapEncodeTiled before the launch) and casts it to the
// descriptor type; after lowering the cast folds away and the pointer goes
// straight to cp.async.bulk.tensor.
//
// Launch: grid (N/128, M/128), 128 threads, 67584 bytes of dynamic shared
// memory (2 stages x 32 KB, plus 2 KB to start the stages on a 1024-byte
// boundary, which the 128-byte swizzle needs, clear of the mbarriers). A is MxK and B is KxN, both row-major f16;
// D is MxN row-major f32; K is a multiple of 64 and at least 64. The
// kernel's klx.launch attribute describes all of that for `klx export`
// (klx's own kernels get it from klx-to-nvgpu), so klx-run can run it.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// PTX: .entry gemm_tma_wgmma
// PTX: mbarrier.init.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.fence.sync.aligned
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned
// STEPS: convert-nvgpu-to-nvvm {{.*}} yes
// STEPS: gemm_tma_wgmma (sm_90a): {{[0-9]+}} registers
// STEPS: ptx: {{.*}} wgmma.mma_async 8, cp.async.bulk.tensor 6, {{.*}} mbarrier.try_wait 1

!mapA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!full = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!smem = memref<?xi8, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @gemm {
    gpu.func @gemm_tma_wgmma(%mapAPtr: !llvm.ptr, %mapBPtr: !llvm.ptr,
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
        nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %timeout : !full

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
