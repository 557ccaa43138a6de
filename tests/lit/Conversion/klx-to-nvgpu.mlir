// klx-to-nvgpu: a gpu.func with the roles as one if/else on the warpgroup,
// setmaxregister on entry of each branch, TMA into the stages, wgmma on
// each consumer's rows, and the epilogue through shared memory and TMA
// stores.
// RUN: klx-opt %samples/nvidia/gemm_ws_persistent.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent --klx-to-nvgpu | FileCheck %s
// A pipeline with other stages than the schedule's would overrun shared
// memory (sized, and the epilogue's boxes placed, by the schedule):
// -D deferred_release=0: each k step waits for its own MMA (wait_group 0)
// before releasing the stage, instead of keeping one MMA in flight.
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=DEFERRED
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D deferred_release=0 --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=NOTDEFERRED
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --stop-after=klx-persistent --emit=mlir | sed -e 's/klx.pipeline stages(4)/klx.pipeline stages(3)/' | not klx-opt --klx-to-nvgpu 2>&1 | FileCheck %s --check-prefix=STAGES
// Roles klx-to-nvgpu cannot lower: consumers on part of their warpgroups,
// a producer of two warps.
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --stop-after=klx-persistent --emit=mlir | sed -e 's/consumer warpgroups \[0, 1\] warps \[0, 1, 2, 3\]/consumer warpgroups [0, 1] warps [0, 1]/' | not klx-opt --klx-to-nvgpu 2>&1 | FileCheck %s --check-prefix=PARTWARPS
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --stop-after=klx-persistent --emit=mlir | sed -e 's/producer warpgroups \[2\] warps \[0\]/producer warpgroups [2] warps [0, 1]/' | not klx-opt --klx-to-nvgpu 2>&1 | FileCheck %s --check-prefix=PRODUCERWARPS
// STAGES: error: 'klx.pipeline' op has 3 stages, the schedule 4: klx-to-nvgpu sizes shared memory by the schedule

// CHECK: module attributes {gpu.container_module
// CHECK: gpu.module @gemm_kernels {
// CHECK: gpu.func @gemm(%[[MAPA:.*]]: !llvm.ptr, %[[MAPB:.*]]: !llvm.ptr, %[[MAPD:.*]]: !llvm.ptr, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) kernel
// CHECK-SAME: klx.launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 1, 1, 1>, cluster_tiles = array<i64: 1, 1>, dtype = "f16", dynamic_shared_memory = 231424 : i64, grid = "persistent",
// CHECK-SAME: params = [{box = array<i64: 128, 64>, dtype = "f16", kind = "tensor_map", name = "A", swizzle = 128 : i64}, {box = array<i64: 64, 64>, dtype = "f16", kind = "tensor_map", name = "B", swizzle = 128 : i64}, {box = array<i64: 64, 32>, dtype = "f32", kind = "tensor_map", name = "D", swizzle = 128 : i64}, {kind = "scalar", name = "M"}, {kind = "scalar", name = "N"}, {kind = "scalar", name = "K"}],
// CHECK-SAME: tile = array<i64: 128, 256, 64>}
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128
// CHECK: builtin.unrealized_conversion_cast %[[MAPA]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b
// CHECK: builtin.unrealized_conversion_cast %[[MAPB]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b
// CHECK: %[[DESCD:.*]] = builtin.unrealized_conversion_cast %[[MAPD]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x32xf32, 3>, swizzle = swizzle_128b
// CHECK: gpu.dynamic_shared_memory
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create {klx.barrier = "full"} -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.create {klx.barrier = "empty"}
// CHECK: nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %c256
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK: %[[P:.*]] = arith.cmpi eq, %[[WG]], %c2
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK:   nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK:   nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c49152
// CHECK:   nvgpu.tma.async.load {{.*}} to %{{.*}} : <tensor = memref<128x64xf16, 3>
// CHECK:   nvgpu.tma.async.load
// CHECK:   nvgpu.tma.async.load
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK:   nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK:   nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK:   nvgpu.warpgroup.generate.descriptor {{.*}} : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK:   nvgpu.warpgroup.generate.descriptor {{.*}} : memref<64x256xf16, #gpu.address_space<workgroup>>
// CHECK:   nvgpu.warpgroup.mma {{.*}} {transposeB}
// CHECK:   nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:   nvgpu.mbarrier.arrive %[[EMPTY]]
// The epilogue (TMA stores): per box of 64 x 32 f32, the consumer writes
// it and fences it for the async proxy; the first thread waits until the
// previous box's store has read its buffer (the next box's); one barrier;
// the box is stored.
// CHECK:   builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to !{{.*}}
// CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK:   nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:   nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:   nvvm.barrier id = %[[BAR:.*]] number_of_threads = %c128_i32
// CHECK:   nvgpu.tma.async.store %{{.*}} to %[[DESCD]][%{{.*}}, %{{.*}}] : memref<64x32xf32, #gpu.address_space<workgroup>>
// CHECK:   nvvm.cp.async.bulk.commit.group
// CHECK-NOT: nvgpu.warpgroup.mma.store
// CHECK: } {klx.roles = ["producer", "consumer"]}
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK-NEXT: gpu.return
// CHECK-NOT: klx.
// DEFERRED: nvgpu.warpgroup.mma {{.*}} {transposeB}
// DEFERRED: nvvm.wgmma.wait.group.sync.aligned 0
// NOTDEFERRED: nvgpu.warpgroup.mma {{.*}} {transposeB, waitGroup = 0 : i64}
// NOTDEFERRED-NOT: nvvm.wgmma.wait.group.sync.aligned

// PARTWARPS: error: 'klx.role' op klx-to-nvgpu lowers consumers that use all four warps of their warpgroups
// PRODUCERWARPS: error: 'klx.role' op klx-to-nvgpu lowers producer roles of one warp each on the last warpgroup
