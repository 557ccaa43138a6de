// The klx-lint step, right after parse, says at the user's line what
// would lower silently into something else; the compile goes on (exit 0
// for a warning). A WMMA op for a CDNA chip gets the lint's reason before
// upstream's bare "failed to legalize".
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: klx compile %s --emit=ptx 2> %t/err > %t/ptx
// RUN: FileCheck %s --check-prefix=ALLOC < %t/err
// ALLOC: lint.mlir:[[@LINE+20]]:15: warning: 'memref.alloc' of workgroup memory inside a kernel does not make shared memory: it lowers to a call of the device malloc in each thread{{.*}} [klx-lint]
// ALLOC: lint.mlir:[[@LINE+17]]:5: note: the kernel
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEP
// STEP: 0  parse
// STEP-NEXT: 1  klx-lint
//
// RUN: sed 's/CHIP/gfx942/' %S/../Transforms/lint-amd.mlir | sed '/expected-/d; /nvvm.read/d' > %t/wmma.mlir
// RUN: not klx compile %t/wmma.mlir --target=gfx942 2> %t/wmma.err
// RUN: FileCheck %s --check-prefix=WMMA < %t/wmma.err
// WMMA: warning: 'amdgpu.wmma' is an RDNA instruction (gfx11, gfx12), and gfx942 is a CDNA chip, which has none (use amdgpu.mfma){{.*}} [klx-lint]
// WMMA: error:
//
// A kernel that declares its shared memory is quiet.
// RUN: klx compile %S/../../../samples/nvidia/gemm_tma_wgmma.mlir --stop-after=klx-lint 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: warning

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stage(%in: memref<256xf32>, %out: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tile = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
      %tx = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %v = memref.load %in[%tx] : memref<256xf32>
      memref.store %v, %tile[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %next = arith.addi %tx, %c1 : index
      %w = memref.load %tile[%next] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tx] : memref<256xf32>
      gpu.return
    }
  }
}
