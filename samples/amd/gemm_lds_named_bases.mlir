// Lesson: several named LDS bases in one allocation, and the waits the
// AMDGPU backend must put before reading them. One wave (64 threads)
// computes a 32x32 tile of D = A * Bt^T with MFMA 32x32x8 (f16 in, f32
// accumulate) on gfx942 or gfx950. A and Bt reach LDS by LDS-DMA
// (`amdgpu.gather_to_lds`, global_load_lds_dword): k-tiles alternate between
// two stages, so while the wave multiplies stage 0 the DMAs for stage 1
// are in flight, and the other way round. The four stage buffers are
// named bases carved out of one 4 KB workgroup buffer: a0, a1, b0, b1.
//
// The backend sees one LDS allocation. Its waitcnt insertion knows a
// ds_read can only need the DMAs that write what it reads if alias scopes
// say so; without them every read of a0 waits for every DMA in flight
// (`s_waitcnt vmcnt(0)`), including the ones filling a1 and b1, and the
// copy never overlaps the multiply. The kernel declares its bases
// (`klx.lds_bases`, offset and size in bytes) and klx-lds-alias-scope,
// after convert-gpu-to-rocdl, gives each its own alias scope with the
// others as noalias; the hot loop then waits with vmcnt(N), only for the
// DMAs into the stage it reads. `-D alias_scopes=0` leaves the pass out.
// Compare the `loop vmcnt(0)` and `loop vmcnt(N)` counts of the two, and
// the waits before each ds_read in the AMDGCN.
//
// Launch: grid (N/32, M/32), 64 threads, 4096 bytes of LDS. A is MxK, Bt is
// NxK (B transposed), both row-major f16; D is MxN row-major f32; K is a
// multiple of 32 and k_pairs = K / 32. No AMD GPU has run it here.
//
// RUN: klx pipeline %s --json -D alias_scopes=0 > %t.without.json
// RUN: klx pipeline %s --json -D alias_scopes=1 > %t.with.json
// RUN: %python %S/../../tests/lit/Inputs/compare-waits.py %t.without.json %t.with.json | FileCheck %s --check-prefix=DIRECTION
// RUN: klx pipeline %s --target=gfx950 --json -D alias_scopes=0 > %t.without950.json
// RUN: klx pipeline %s --target=gfx950 --json -D alias_scopes=1 > %t.with950.json
// RUN: %python %S/../../tests/lit/Inputs/compare-waits.py %t.without950.json %t.with950.json | FileCheck %s --check-prefix=DIRECTION
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// RUN: klx compile %s --emit=amdgcn | FileCheck %s --check-prefix=ISA
// DIRECTION: direction: fewer vmcnt(0), more vmcnt(N) with alias scopes
// STEPS: klx-lds-alias-scope {{.*}} yes
// STEPS: gemm_lds_named_bases: {{[0-9]+}} VGPRs, {{.*}} 4096 bytes LDS
// ISA: global_load_lds_dword
// ISA: s_waitcnt vmcnt({{[1-9]}})
// ISA-NEXT: ds_read
// ISA: v_mfma_f32_32x32x8_f16

!lds = memref<4096xi8, #gpu.address_space<workgroup>>
!tileL = memref<32x16xf16, #gpu.address_space<workgroup>>
module attributes {gpu.container_module, klx.target = "gfx942", klx.params = {alias_scopes = true}} {
  gpu.module @gemm {
    gpu.func @gemm_lds_named_bases(%a: memref<?x?xf16>, %bt: memref<?x?xf16>, %d: memref<?x?xf32>, %kPairs: index)
        workgroup(%smem: !lds) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>,
                    klx.lds_bases = {a0 = [0, 1024], a1 = [1024, 1024], b0 = [2048, 1024], b1 = [3072, 1024]}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      %c3072 = arith.constant 3072 : index
      %lane = gpu.thread_id x
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %m0 = arith.muli %by, %c32 : index
      %n0 = arith.muli %bx, %c32 : index
      %a0 = memref.view %smem[%c0][] : !lds to !tileL
      %a1 = memref.view %smem[%c1024][] : !lds to !tileL
      %b0 = memref.view %smem[%c2048][] : !lds to !tileL
      %b1 = memref.view %smem[%c3072][] : !lds to !tileL
      // DMA lane l: row l / 8 (+8 per instruction), columns 2 * (l % 8).
      %lrow = arith.divui %lane, %c8 : index
      %lmod = arith.remui %lane, %c8 : index
      %lcol = arith.muli %lmod, %c2 : index
      // MFMA 32x32x8: lane l reads row l % 32, k 4 * (l / 32) (+8).
      %mrow = arith.remui %lane, %c32 : index
      %mhalf = arith.divui %lane, %c32 : index
      %mk = arith.muli %mhalf, %c4 : index
      %mk8 = arith.addi %mk, %c8 : index
      %zero = arith.constant dense<0.0> : vector<16xf32>
      // Tile k of A (rows m0..m0+31) and of Bt (rows n0..n0+31), columns
      // 16k..16k+15, into the named bases %sa and %sb: four DMAs each.
      // Prologue: k-tile 0 into A0, B0.
      scf.for %i = %c0 to %c4 step %c1 {
        %r8 = arith.muli %i, %c8 : index
        %r = arith.addi %r8, %lrow : index
        %ga = arith.addi %m0, %r : index
        %gb = arith.addi %n0, %r : index
        amdgpu.gather_to_lds %a[%ga, %lcol], %a0[%r8, %c0] : vector<2xf16>, memref<?x?xf16>, !tileL
        amdgpu.gather_to_lds %bt[%gb, %lcol], %b0[%r8, %c0] : vector<2xf16>, memref<?x?xf16>, !tileL
      }
      %result = scf.for %kp = %c0 to %kPairs step %c1 iter_args(%acc = %zero) -> (vector<16xf32>) {
        %k0 = arith.muli %kp, %c32 : index
        %k1 = arith.addi %k0, %c16 : index
        %k2 = arith.addi %k0, %c32 : index
        // k-tile 2kp+1 into A1, B1 while A0, B0 are multiplied.
        scf.for %i = %c0 to %c4 step %c1 {
          %r8 = arith.muli %i, %c8 : index
          %r = arith.addi %r8, %lrow : index
          %ga = arith.addi %m0, %r : index
          %gb = arith.addi %n0, %r : index
          %kc = arith.addi %k1, %lcol : index
          amdgpu.gather_to_lds %a[%ga, %kc], %a1[%r8, %c0] : vector<2xf16>, memref<?x?xf16>, !tileL
          amdgpu.gather_to_lds %bt[%gb, %kc], %b1[%r8, %c0] : vector<2xf16>, memref<?x?xf16>, !tileL
        }
        %x0 = vector.load %a0[%mrow, %mk] : !tileL, vector<4xf16>
        %y0 = vector.load %b0[%mrow, %mk] : !tileL, vector<4xf16>
        %acc1 = amdgpu.mfma 32x32x8 %x0 * %y0 + %acc blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
        %x1 = vector.load %a0[%mrow, %mk8] : !tileL, vector<4xf16>
        %y1 = vector.load %b0[%mrow, %mk8] : !tileL, vector<4xf16>
        %acc2 = amdgpu.mfma 32x32x8 %x1 * %y1 + %acc1 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
        // k-tile 2kp+2 into A0, B0 (now read) while A1, B1 are multiplied.
        %kpNext = arith.addi %kp, %c1 : index
        %more = arith.cmpi ult, %kpNext, %kPairs : index
        scf.if %more {
          scf.for %i = %c0 to %c4 step %c1 {
            %r8 = arith.muli %i, %c8 : index
            %r = arith.addi %r8, %lrow : index
            %ga = arith.addi %m0, %r : index
            %gb = arith.addi %n0, %r : index
            %kc = arith.addi %k2, %lcol : index
            amdgpu.gather_to_lds %a[%ga, %kc], %a0[%r8, %c0] : vector<2xf16>, memref<?x?xf16>, !tileL
            amdgpu.gather_to_lds %bt[%gb, %kc], %b0[%r8, %c0] : vector<2xf16>, memref<?x?xf16>, !tileL
          }
        }
        %x2 = vector.load %a1[%mrow, %mk] : !tileL, vector<4xf16>
        %y2 = vector.load %b1[%mrow, %mk] : !tileL, vector<4xf16>
        %acc3 = amdgpu.mfma 32x32x8 %x2 * %y2 + %acc2 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
        %x3 = vector.load %a1[%mrow, %mk8] : !tileL, vector<4xf16>
        %y3 = vector.load %b1[%mrow, %mk8] : !tileL, vector<4xf16>
        %acc4 = amdgpu.mfma 32x32x8 %x3 * %y3 + %acc3 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
        scf.yield %acc4 : vector<16xf32>
      }
      // The 32x32 result: lane l holds rows 8 * (i / 4) + 4 * (l / 32) + i % 4
      // of column l % 32 in element i.
      %col = arith.addi %n0, %mrow : index
      scf.for %i = %c0 to %c16 step %c1 {
        %blk = arith.divui %i, %c4 : index
        %sub = arith.remui %i, %c4 : index
        %rb = arith.muli %blk, %c8 : index
        %rr = arith.addi %rb, %mk : index
        %rl = arith.addi %rr, %sub : index
        %row = arith.addi %m0, %rl : index
        %v = vector.extract %result[%i] : f32 from vector<16xf32>
        memref.store %v, %d[%row, %col] : memref<?x?xf32>
      }
      gpu.return
    }
  }
}
