// klx-bridge-steps: a value one step of a kernel makes and a later step
// uses goes through a workgroup buffer (one slot per thread) across a
// gpu.barrier; kernels it cannot bridge keep it in registers, with a
// warning that says why.
// RUN: klx-opt %s -split-input-file -klx-bridge-steps -verify-diagnostics | FileCheck %s

// The indirect gather: the offset (i32) is stored after it is built, read
// back after the barrier, and widened to an index there.
// CHECK-LABEL: gpu.func @indirect
// CHECK-SAME: workgroup(%[[SLOTS:.*]] : memref<128xi32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[J:.*]] = memref.load %arg0
// CHECK: %[[J2:.*]] = arith.addi %[[J]]
// CHECK: memref.store %[[J2]], %[[SLOTS]][%[[TID]]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[BACK:.*]] = memref.load %[[SLOTS]][%[[TID]]]
// CHECK-NEXT: %[[OFF:.*]] = arith.index_cast %[[BACK]] : i32 to index
// CHECK-NEXT: memref.load %arg1[%[[OFF]]]
gpu.module @m {
  gpu.func @indirect(%idx: memref<?xi32>, %x: memref<?xf32>, %y: memref<?xf32>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i = gpu.thread_id x
    %j = memref.load %idx[%i] : memref<?xi32>
    %c2 = arith.constant 2 : i32
    %j2 = arith.addi %j, %c2 : i32
    %off = arith.index_cast %j2 : i32 to index
    %v = memref.load %x[%off] : memref<?xf32>
    memref.store %v, %y[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// One step: nothing to bridge.
// CHECK-LABEL: gpu.func @direct
// CHECK-NOT: workgroup(
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @direct(%x: memref<?xf32>, %y: memref<?xf32>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %off = arith.addi %i, %c2 : index
    %v = memref.load %x[%off] : memref<?xf32>
    memref.store %v, %y[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// Two levels of indirection are three steps: two bridges, two barriers.
// CHECK-LABEL: gpu.func @twice
// CHECK-SAME: workgroup(%{{.*}} : memref<64xindex, #gpu.address_space<workgroup>>, %{{.*}} : memref<64xindex, #gpu.address_space<workgroup>>)
// CHECK-COUNT-2: gpu.barrier
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @twice(%a: memref<?xindex>, %b: memref<?xindex>, %x: memref<?xf32>,
                  %y: memref<?xf32>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %i = gpu.thread_id x
    %j = memref.load %a[%i] : memref<?xindex>
    %k = memref.load %b[%j] : memref<?xindex>
    %v = memref.load %x[%k] : memref<?xf32>
    memref.store %v, %y[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// No known block size: no slot count.
gpu.module @m {
  // expected-warning @+1 {{no one-dimensional known_block_size}}
  gpu.func @unsized(%idx: memref<?xindex>, %x: memref<?xf32>, %y: memref<?xf32>)
      kernel {
    %i = gpu.thread_id x
    %j = memref.load %idx[%i] : memref<?xindex>
    %v = memref.load %x[%j] : memref<?xf32>
    memref.store %v, %y[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// The later step begins inside a branch: a barrier there would be
// divergent.
gpu.module @m {
  gpu.func @branch(%idx: memref<?xindex>, %x: memref<?xf32>, %y: memref<?xf32>,
                   %n: index)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i = gpu.thread_id x
    %j = memref.load %idx[%i] : memref<?xindex>
    %inside = arith.cmpi ult, %i, %n : index
    // expected-warning @+1 {{step 2 begins inside this op}}
    scf.if %inside {
      %v = memref.load %x[%j] : memref<?xf32>
      memref.store %v, %y[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Vectors do not go through one slot per thread.
gpu.module @m {
  gpu.func @vector(%idx: memref<?xindex>, %x: memref<?xf32>, %z: memref<?xf32>,
                   %y: memref<?xf32>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i = gpu.thread_id x
    %j = memref.load %idx[%i] : memref<?xindex>
    // expected-warning @+1 {{only scalars cross through shared memory}}
    %w = vector.load %z[%i] : memref<?xf32>, vector<4xf32>
    %v = memref.load %x[%j] : memref<?xf32>
    %s = vector.broadcast %v : f32 to vector<4xf32>
    %sum = arith.addf %w, %s : vector<4xf32>
    vector.store %sum, %y[%i] : memref<?xf32>, vector<4xf32>
    gpu.return
  }
}
