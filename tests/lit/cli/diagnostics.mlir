// A kernel with a type error: klx prints file:line:col, exits 1, and names
// the step that found it.
// RUN: not klx compile %s 2>&1 | FileCheck %s
// RUN: not klx pipeline %s 2>&1 | FileCheck %s --check-prefix=TABLE

// CHECK: diagnostics.mlir:[[@LINE+6]]:21: error: use of value '%x' expects different type than prior uses: 'f32' vs 'i32' [parse]
// CHECK: diagnostics.mlir:[[@LINE+4]]:15: note: prior use here
// TABLE: 0  parse {{.*}} FAILED
// TABLE: input-error
gpu.module @m {
  gpu.func @k(%x: i32) kernel {
    %y = arith.addf %x, %x : f32
    gpu.return
  }
}
