// klx steps reads a tile staged with linalg.copy (or memref.copy) from
// global into workgroup memory, as MLIR's GPU tests and transform
// schedules write it, as the load of its step; a copy from shared memory
// back to global is the store.
// RUN: klx steps %s | FileCheck %s
// CHECK: kernel host (gpu.launch): 3 steps
// CHECK-NEXT: step 1: load
// CHECK-NEXT: load line {{[0-9]+}} linalg.copy ins(%arg0 : memref<128xf32>)
// CHECK: step 2: load -> compute -> store
// CHECK: compute line {{[0-9]+}} %1 = arith.mulf
// CHECK: step 3: store
// CHECK-NEXT: why a new step: gpu.barrier
// CHECK-NEXT: store line {{[0-9]+}} memref.copy

module attributes {gpu.container_module} {
  func.func @host(%in: memref<128xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               workgroup(%tile : memref<128xf32, #gpu.address_space<workgroup>>) {
      linalg.copy ins(%in : memref<128xf32>)
                  outs(%tile : memref<128xf32, #gpu.address_space<workgroup>>)
      gpu.barrier
      %v = memref.load %tile[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %tile[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.copy %tile, %out : memref<128xf32, #gpu.address_space<workgroup>> to memref<128xf32>
      gpu.terminator
    }
    return
  }
}
