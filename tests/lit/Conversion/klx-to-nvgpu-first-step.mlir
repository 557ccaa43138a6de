// The k loop that keeps one wgmma in flight tests `k != lb` before its
// release. In a kernel of one tile per CTA (-D persistent=false) LLVM
// would peel the first step to drop the test, and the peeled wgmma's zero
// accumulator was copied between wgmma.fence and the wgmma: ptxas warned
// C7519 and injected a warpgroup.arrive. That loop has unrolling (so
// peeling) off; the persistent kernel's loop, inside the tile loop, is
// left to LLVM (peeled, it is faster there: DeferredRelease.cpp).
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D persistent=false --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=ONETILE
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=PERSISTENT
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D persistent=false --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D persistent=false --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx pipeline %samples/nvidia/gemm_ws_persistent.mlir -D persistent=false 2>&1 | FileCheck %s --check-prefix=PTXAS

// ONETILE: #[[NOUNROLL:.*]] = #llvm.loop_unroll<disable = true>
// ONETILE: #[[ANNOTATION:.*]] = #llvm.loop_annotation<unroll = #[[NOUNROLL]]>
// ONETILE: nvgpu.warpgroup.mma
// ONETILE: } {loop_annotation = #[[ANNOTATION]]}
// ONETILE: nvvm.wgmma.wait.group.sync.aligned 0

// PERSISTENT-NOT: loop_annotation

// LLVM: !llvm.loop ![[LOOP:[0-9]+]]
// LLVM: ![[LOOP]] = distinct !{![[LOOP]], {{.*}}![[DISABLE:[0-9]+]]
// LLVM: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}

// One k step's four wgmma (m64n256k16 over tile_k 64), none peeled off.
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16
// PTX-NOT: wgmma.mma_async

// PTXAS-NOT: C7519
// PTXAS: gemm (sm_90a): {{[0-9]+}} registers
// PTXAS-NOT: C7519
