// A file that names its chip in a gpu.module target attribute, as MLIR's
// own GPU tests and other compilers' dumps do: with no --target it is
// compiled for that chip (any chip LLVM knows, sm_80 for mma.sync tests);
// --target overrides it with a warning at the attribute's line; a chip
// LLVM does not know is said, not replaced silently; a chip this ptxas
// does not build says which it builds; and a file that does not parse
// shows its parse error whatever --target and --emit ask.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/CHIP/rocdl.target<chip = "gfx942">/' %s > %t/rocdl.mlir
// RUN: klx compile %t/rocdl.mlir --emit=amdgcn 2> %t/rocdl.err | FileCheck %s --check-prefix=ROCDL
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t/rocdl.err
// ROCDL: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// QUIET-NOT: warning
//
// RUN: sed 's/CHIP/nvvm.target<chip = "sm_90a">/' %s > %t/sm90a.mlir
// RUN: klx compile %t/sm90a.mlir --target=gfx950 --emit=amdgcn 2>&1 >/dev/null | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: sm90a.mlir:[[@LINE+32]]:3: warning: --target=gfx950 overrides the file's #nvvm.target<chip = "sm_90a">; compiling for gfx950 [parse]
//
// RUN: sed 's/CHIP/nvvm.target<chip = "sm_80">/' %s > %t/sm80.mlir
// RUN: klx compile %t/sm80.mlir --emit=ptx 2> %t/sm80.err | FileCheck %s --check-prefix=SM80
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t/sm80.err
// SM80: .target sm_80
//
// RUN: sed 's/CHIP/nvvm.target<chip = "sm_70">/' %s > %t/sm70.mlir
// RUN: klx compile %t/sm70.mlir --emit=ptx | FileCheck %s --check-prefix=SM70
// RUN: not klx compile %t/sm70.mlir --emit=cubin -o %t/sm70.cubin 2>&1 | FileCheck %s --check-prefix=SM70-CUBIN
// SM70: .target sm_70
// SM70-CUBIN: error: ptxas {{[0-9.]+}} cannot build sm_70; it builds sm_{{.*}}, sm_90a, {{.*}}(--target=CHIP chooses) [cubin]
//
// RUN: sed 's/CHIP/nvvm.target<chip = "sm_999">/' %s > %t/sm999.mlir
// RUN: klx compile %t/sm999.mlir --emit=ptx 2> %t/sm999.err | FileCheck %s --check-prefix=SM999
// RUN: FileCheck %s --check-prefix=SM999-WARN < %t/sm999.err
// SM999: .target sm_90a
// SM999-WARN: sm999.mlir:[[@LINE+15]]:3: warning: the file's #nvvm.target<chip = "sm_999"> names a chip LLVM's NVPTX backend does not know; compiling for sm_90a (--target=CHIP chooses)
//
// The klx tile dialect lowers for its own chips only; a kernel written in
// nvgpu ops with Hopper's TMA is stopped at the op's line.
// RUN: not klx compile %S/../../../samples/nvidia/gemm_ws_persistent.mlir --target=sm_80 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: error: the klx tile dialect lowers for sm_90a, gfx942, gfx950, not sm_80
// RUN: not klx compile %S/../../../samples/nvidia/gemm_tma_wgmma.mlir --target=sm_80 2>&1 | FileCheck %s --check-prefix=HOPPER
// HOPPER: gemm_tma_wgmma.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'nvvm.cp.async.bulk.tensor.shared.cluster.global' op is not supported on sm_80
//
// RUN: sed 's/CHIP/nvvm.target<chip = "sm_90a">/; s/arith.addf %%v, %%v/arith.addf %%v,/' %s > %t/broken.mlir
// RUN: not klx compile %t/broken.mlir --target=gfx942 --emit=sass 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: broken.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// BROKEN-NOT: produces no

module attributes {gpu.container_module} {
  gpu.module @kernels [#CHIP] {
    gpu.func @scale(%x: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%t] : memref<256xf32>
      gpu.return
    }
  }
}
