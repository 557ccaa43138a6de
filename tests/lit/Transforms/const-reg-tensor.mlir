// klx-const-reg-tensor: a register array holding base + i * step, read at
// a run-time index, becomes the arithmetic; anything else is left alone.
// RUN: klx-opt %s -split-input-file -klx-const-reg-tensor | FileCheck %s

// Barrier addresses 8 bytes apart from a shared base: bars[stage] becomes
// base + stage * 8.
// CHECK-LABEL: func.func @barrier_addresses
// CHECK-SAME: (%[[BASE:.*]]: i32, %[[STAGE:.*]]: index)
// CHECK-NOT: memref.alloca
// CHECK: %[[I:.*]] = arith.index_cast %[[STAGE]] : index to i32
// CHECK: %[[SCALED:.*]] = arith.muli %[[I]], %c8_i32
// CHECK: %[[OFF:.*]] = arith.addi %[[SCALED]], %c0_i32
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[OFF]]
// CHECK: return %[[ADDR]]
func.func @barrier_addresses(%base: i32, %stage: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c24 = arith.constant 24 : i32
  %bars = memref.alloca() : memref<4xi32>
  memref.store %base, %bars[%c0] : memref<4xi32>
  %b1 = arith.addi %base, %c8 : i32
  memref.store %b1, %bars[%c1] : memref<4xi32>
  %b2 = arith.addi %base, %c16 : i32
  memref.store %b2, %bars[%c2] : memref<4xi32>
  %b3 = arith.addi %c24, %base : i32
  memref.store %b3, %bars[%c3] : memref<4xi32>
  %a = memref.load %bars[%stage] : memref<4xi32>
  return %a : i32
}

// -----

// Constants only (an offset table): 100, 96, 92 becomes 100 - 4 k.
// CHECK-LABEL: func.func @constants
// CHECK-NOT: memref.alloca
// CHECK: arith.muli %{{.*}}, %c-4_i64
// CHECK: arith.addi %{{.*}}, %c100_i64
func.func @constants(%k: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v0 = arith.constant 100 : i64
  %v1 = arith.constant 96 : i64
  %v2 = arith.constant 92 : i64
  %t = memref.alloca() : memref<3xi64>
  memref.store %v0, %t[%c0] : memref<3xi64>
  memref.store %v1, %t[%c1] : memref<3xi64>
  memref.store %v2, %t[%c2] : memref<3xi64>
  %r = memref.load %t[%k] : memref<3xi64>
  return %r : i64
}

// -----

// Not a sequence: 0, 8, 24.
// CHECK-LABEL: func.func @not_a_sequence
// CHECK: memref.alloca
func.func @not_a_sequence(%base: i32, %k: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : i32
  %c24 = arith.constant 24 : i32
  %a = memref.alloca() : memref<3xi32>
  memref.store %base, %a[%c0] : memref<3xi32>
  %b1 = arith.addi %base, %c8 : i32
  memref.store %b1, %a[%c1] : memref<3xi32>
  %b2 = arith.addi %base, %c24 : i32
  memref.store %b2, %a[%c2] : memref<3xi32>
  %r = memref.load %a[%k] : memref<3xi32>
  return %r : i32
}

// -----

// An element written at a run-time index, one written after the read, one
// never written, and an array passed on: all left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: memref.alloca
func.func @left_alone(%base: i32, %k: index, %j: index) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : i32
  %b1 = arith.addi %base, %c8 : i32
  %dyn = memref.alloca() : memref<2xi32>
  memref.store %base, %dyn[%c0] : memref<2xi32>
  memref.store %b1, %dyn[%j] : memref<2xi32>
  %r0 = memref.load %dyn[%k] : memref<2xi32>
  %late = memref.alloca() : memref<2xi32>
  memref.store %base, %late[%c0] : memref<2xi32>
  %r1 = memref.load %late[%k] : memref<2xi32>
  memref.store %b1, %late[%c1] : memref<2xi32>
  %hole = memref.alloca() : memref<2xi32>
  memref.store %base, %hole[%c0] : memref<2xi32>
  %r2 = memref.load %hole[%k] : memref<2xi32>
  %passed = memref.alloca() : memref<2xi32>
  memref.store %base, %passed[%c0] : memref<2xi32>
  memref.store %b1, %passed[%c1] : memref<2xi32>
  func.call @use(%passed) : (memref<2xi32>) -> ()
  return %r0, %r1, %r2 : i32, i32, i32
}
func.func private @use(memref<2xi32>)
