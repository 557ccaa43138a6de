// A file with several gpu.modules, the way MLIR's own GPU tests and
// outlined dumps hold them: each module's LLVM IR, PTX, cubin and AMDGCN
// stays its own. One stream or file cannot hold two modules' assembly
// (two PTX headers, two cubins back to back, duplicate AMDGCN symbols),
// so that is refused with exit 2 naming the modules and both ways out;
// --module=NAME picks one, -o DIR/ writes one file per module, and JSON
// keeps each module's text apart.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: klx compile %s --emit=ptx > %t/both.ptx 2> %t/refused.err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=REFUSED < %t/refused.err
// RUN: test ! -s %t/both.ptx
// REFUSED: klx compile: the file has 2 gpu.modules (@scale_kernels, @square_kernels) and their ptx cannot share one file or stream; choose one with --module=NAME, or write one file per module with -o DIR/
//
// RUN: not klx compile %s --emit=cubin -o %t/both.cubin 2>&1 | FileCheck %s --check-prefix=REFUSED-CUBIN
// RUN: test ! -e %t/both.cubin
// REFUSED-CUBIN: 2 gpu.modules (@scale_kernels, @square_kernels) and their cubin cannot share
// RUN: not klx compile %s --target=gfx942 2>&1 | FileCheck %s --check-prefix=REFUSED-AMD
// REFUSED-AMD: and their amdgcn cannot share
//
// RUN: klx compile %s --emit=ptx --module=square_kernels | FileCheck %s --check-prefix=ONE
// ONE: .target sm_90a
// ONE-NOT: .entry scale
// ONE: .visible .entry square(
// ONE-NOT: .version
// RUN: klx compile %s --emit=ptx --module=@scale_kernels | FileCheck %s --check-prefix=OTHER
// OTHER: .visible .entry scale(
// OTHER-NOT: square
//
// RUN: not klx compile %s --emit=ptx --module=cube_kernels 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: klx compile: no gpu.module named 'cube_kernels'; the file has @scale_kernels, @square_kernels
//
// RUN: klx compile %s --emit=cubin -o %t/out/ 2>&1 | FileCheck %s --check-prefix=FOLDER
// RUN: head -c 4 %t/out/scale_kernels.cubin | od -An -c | FileCheck %s --check-prefix=ELF
// RUN: head -c 4 %t/out/square_kernels.cubin | od -An -c | FileCheck %s --check-prefix=ELF
// FOLDER: wrote {{.*}}out{{/+}}scale_kernels.cubin
// FOLDER: wrote {{.*}}out{{/+}}square_kernels.cubin
// ELF: 177   E   L   F
// RUN: klx compile %s --target=gfx942 -o %t/amd/ 2>/dev/null
// RUN: FileCheck %s --check-prefix=AMD-SCALE < %t/amd/scale_kernels.s
// AMD-SCALE: .amdhsa_kernel scale
// AMD-SCALE-NOT: .amdhsa_kernel square
//
// RUN: klx compile %s --emit=ptx --json | FileCheck %s --check-prefix=JSON
// JSON: "outputs": {
// JSON-NEXT: "scale_kernels": "{{.*}}.visible .entry scale(
// JSON-NEXT: "square_kernels": "{{.*}}.visible .entry square(
//
// MLIR output is the whole module, whatever it holds.
// RUN: klx compile %s --emit=mlir | FileCheck %s --check-prefix=MLIR
// MLIR: gpu.module @scale_kernels
// MLIR: gpu.module @square_kernels

module attributes {gpu.container_module} {
  gpu.module @scale_kernels {
    gpu.func @scale(%x: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  gpu.module @square_kernels {
    gpu.func @square(%x: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
