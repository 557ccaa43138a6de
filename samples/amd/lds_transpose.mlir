// Lesson: a 32x32 tile transposed through LDS (AMD's shared memory) on
// gfx942. Each thread writes one element of the tile into LDS, the
// workgroup meets at a barrier, and each thread reads its transposed
// element back.
//
// Watch convert-gpu-to-rocdl turn workgroup memory into an LDS global and
// gpu.barrier into s_barrier; in the AMDGCN the LDS traffic is ds_write /
// ds_read guarded by s_waitcnt lgkmcnt, the global traffic global_load /
// global_store guarded by s_waitcnt vmcnt, and the kernel metadata reports
// 4224 bytes of LDS (32 rows of 33 floats).
//
// Launch: grid (N/32, M/32), 32x32 threads; in is MxN, out is NxM, f32.
//
// RUN: klx compile %s --emit=amdgcn | FileCheck %s --check-prefix=ISA
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// ISA: lds_transpose:
// ISA: ds_write
// ISA: s_barrier
// ISA: ds_read
// ISA: s_endpgm
// ISA: .amdhsa_group_segment_fixed_size 4224
// STEPS: lds_transpose.mlir -> gfx942
// STEPS: convert-gpu-to-rocdl {{.*}} yes
// STEPS: amdgcn
// STEPS: lds_transpose: {{[0-9]+}} VGPRs, {{[0-9]+}} AGPRs, {{[0-9]+}} SGPRs, 0 bytes scratch, 4224 bytes LDS

module attributes {gpu.container_module, klx.target = "gfx942"} {
  gpu.module @transpose {
    gpu.func @lds_transpose(%in: memref<?x?xf32>, %out: memref<?x?xf32>)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 32, 1>} {
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c32 : index
      %col0 = arith.muli %bx, %c32 : index

      // Read in[row0 + ty][col0 + tx]: consecutive threads, consecutive
      // addresses. The tile row is padded to 33 so that the transposed
      // read below does not hit one LDS bank 32 times.
      %row = arith.addi %row0, %ty : index
      %col = arith.addi %col0, %tx : index
      %v = memref.load %in[%row, %col] : memref<?x?xf32>
      memref.store %v, %tile[%ty, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      gpu.barrier

      // Write out[col0 + ty][row0 + tx] = tile[tx][ty], again coalesced.
      %t = memref.load %tile[%tx, %ty] : memref<32x33xf32, #gpu.address_space<workgroup>>
      %orow = arith.addi %col0, %ty : index
      %ocol = arith.addi %row0, %tx : index
      memref.store %t, %out[%orow, %ocol] : memref<?x?xf32>
      gpu.return
    }
  }
}
