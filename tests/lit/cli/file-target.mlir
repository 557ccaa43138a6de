// A file that names its chip in a gpu.module target attribute, as MLIR's
// own GPU tests and other compilers' dumps do: with no --target it is
// compiled for that chip; --target overrides it with a warning at the
// attribute's line; a chip klx does not build is said, not replaced
// silently; and a file that does not parse shows its parse error whatever
// --target and --emit ask.
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
// OVERRIDE: sm90a.mlir:[[@LINE+14]]:3: warning: --target=gfx950 overrides the file's #nvvm.target<chip = "sm_90a">; compiling for gfx950 [parse]
//
// RUN: sed 's/CHIP/nvvm.target<chip = "sm_70">/' %s > %t/sm70.mlir
// RUN: klx compile %t/sm70.mlir --emit=ptx 2> %t/sm70.err | FileCheck %s --check-prefix=SM70
// RUN: FileCheck %s --check-prefix=SM70-WARN < %t/sm70.err
// SM70: .target sm_90a
// SM70-WARN: sm70.mlir:[[@LINE+8]]:3: warning: the file's #nvvm.target<chip = "sm_70"> names a chip klx does not build (sm_90a, gfx942, gfx950); compiling for sm_90a (--target=CHIP chooses)
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
