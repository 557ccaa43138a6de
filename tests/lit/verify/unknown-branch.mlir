// A kernel whose threads arrive depending on a flag each loads from
// memory: klx cannot tell how many arrive per phase, and says so with the
// branch's line and the reason, instead of a verdict. The role tree gives
// a note (exit 0); the timeline and verify say the protocol is unknown
// (exit 2), naming the thread, the op that stopped it and why.
//
// RUN: klx roles %s 2>&1 | FileCheck %s --check-prefix=ROLES
// RUN: klx timeline %s 2> %t.timeline; test $? -eq 2
// RUN: FileCheck %s --check-prefix=UNKNOWN < %t.timeline
// RUN: klx verify %s 2> %t.verify; test $? -eq 2
// RUN: FileCheck %s --check-prefix=UNKNOWN < %t.verify
// ROLES: unknown-branch.mlir:[[@LINE+23]]:14: note: arrivals per phase on barrier 'bar' are unknown: the branch at IR line {{[0-9]+}} decides per thread, and klx cannot evaluate its condition: 'memref.load' reads memory
// ROLES-NOT: error:
// UNKNOWN: @flagged: the barrier protocol is unknown: running thread {{[0-9]+}}: at IR line {{[0-9]+}}, the branch condition is not known: it is loaded from memory

!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @flagged(%flags: memref<128xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0 : i32
      %ticks = arith.constant 1000000 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bar = nvgpu.mbarrier.create -> !bar
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bar
      }
      gpu.barrier
      %flag = memref.load %flags[%tid] : memref<128xi32>
      %go = arith.cmpi ne, %flag, %zero : i32
      scf.if %go {
        %t = nvgpu.mbarrier.arrive %bar[%c0] : !bar -> !nvgpu.mbarrier.token
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !bar
      gpu.return
    }
  }
}
