// Two gpu.launch ops in one host function, as MLIR's two-modules test
// writes them: outlining makes a gpu.module of each (@main_kernel,
// @main_kernel_0). Their PTX cannot share one stream: klx says so and
// names them; --module picks one.
//
// RUN: klx compile %s --emit=ptx > /dev/null 2> %t.err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=REFUSED < %t.err
// REFUSED: the file has 2 gpu.modules (@main_kernel, @main_kernel_0) and their ptx cannot share one file or stream
// RUN: klx compile %s --emit=ptx --module=main_kernel_0 | FileCheck %s --check-prefix=SECOND
// (outlining names each module's kernel main_kernel; the second loads)
// SECOND: .visible .entry main_kernel(
// SECOND: ld.global
// RUN: klx pipeline %s | FileCheck %s --check-prefix=PIPE
// PIPE: {{^}}gpu.module @main_kernel{{$}}
// PIPE: {{^}}gpu.module @main_kernel_0{{$}}
// Each launch is a kernel of its own to the analyses.
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// ROLES: kernel @gpu.launch in @main (single role): 64 threads
// ROLES: kernel @gpu.launch in @main (single role): 128 threads
// A pass nested on gpu.module runs once per module: "NAME @MODULE" names
// one, a plain NAME the first.
// RUN: klx steps %s --pass='convert-gpu-to-nvvm @main_kernel_0' | FileCheck %s --check-prefix=NESTED
// NESTED: steps after convert-gpu-to-nvvm @main_kernel_0
// RUN: klx steps %s --pass=cse#2 | FileCheck %s --check-prefix=PLAIN
// PLAIN: steps after cse#2 @main_kernel{{$}}
// RUN: not klx steps %s --pass='cse#2 @nope' 2>&1 | FileCheck %s --check-prefix=NOPE
// NOPE: no step named 'cse#2 @nope' ran

func.func @main(%a: memref<128xi32>, %b: memref<128xi32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %id = arith.index_cast %tx : index to i32
    memref.store %id, %a[%tx] : memref<128xi32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<128xi32>
    %twice = arith.addi %v, %v : i32
    memref.store %twice, %b[%tx] : memref<128xi32>
    gpu.terminator
  }
  return
}
