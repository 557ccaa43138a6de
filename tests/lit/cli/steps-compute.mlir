// klx steps reads the ops that compute on accumulators, at parse: a bias
// is a load, klx.map and klx.reduce are compute (a run of them is one
// line with their counts), klx.as_operand moves nothing.
// The compile stops at klx-materialize-schedule (exit 1) after parse.
// RUN: not klx steps %S/../Dialect/Klx/compute-ops.mlir --pass=parse 2>/dev/null | FileCheck %s

// CHECK: kernel linear: 1 step
// CHECK-NEXT: step 1: load -> compute -> store
// CHECK-NEXT: load {{.*}}klx.load x2
// CHECK-NEXT: compute {{.*}}klx.mma
// CHECK-NEXT: load {{.*}}klx.load_vector {{.*}}!klx.col<256xf32>
// CHECK-NEXT: compute {{.*}}klx.map {{.*}}-> !klx.acc<128x256xbf16>
// CHECK-NEXT: store {{.*}}klx.store

// CHECK: kernel attention: 1 step
// CHECK: compute {{.*}}klx.mma
// CHECK-NEXT: compute {{.*}}: 7 klx.map, 2 klx.reduce
// CHECK-NOT: klx.as_operand
// CHECK: compute {{.*}}klx.mma {{.*}}!klx.frag<128x128xf16>
// CHECK: store {{.*}}klx.store
