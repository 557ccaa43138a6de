// klx roles on a hand-written kernel whose consumer warpgroups ask for more
// registers than an SM has, and whose producer waits on a barrier nobody
// arrives on: both are errors at their lines, and klx exits 1. The JSON
// form carries the same tree. An AMD kernel has no warp roles.
// RUN: not klx roles %s 2>&1 | FileCheck %s
// RUN: not klx roles %s --json | FileCheck %s --check-prefix=JSON
// RUN: not klx roles %S/../../../samples/amd/lds_transpose.mlir 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: not klx roles %s --pass=no-such-step 2>&1 | FileCheck %s --check-prefix=STEP
// A leader that arrives only while k < K (`%leader and %more`): the
// arrivals are counted for the leader alone, and the checks pass.
// RUN: klx roles %S/../../../samples/nvidia/gemm_tma_wgmma.mlir | FileCheck %s --check-prefix=LEADER
// RUN: klx roles %S/../../../samples/nvidia/gemm_bar_array.mlir | FileCheck %s --check-prefix=LEADER
// LEADER: checks: registers, setmaxnreg placement and barriers are fine

// CHECK: roles after parse
// CHECK: kernel @k (thread-index branches): 384 threads, 3 warpgroups, 168 registers per thread at entry
// CHECK: warpgroup 0  240 regs  warps 0-3 consumer
// CHECK: warpgroup 2   40 regs  warp 8 producer (1 thread active); warps 9-11 producer (idle)
// CHECK: role producer: threads 256-383, 1 active, setmaxnreg.dec 40
// CHECK: barriers: wait empty[0], arrive.expect_tx full[0]
// CHECK: role consumer: threads 0-255, 256 active, setmaxnreg.inc 240
// CHECK: roles.mlir:[[@LINE+15]]:5: error: the roles need 128 x 240 + 128 x 240 + 128 x 40 = 66560 registers, more than the 65536 of an SM
// CHECK: roles.mlir:[[@LINE+31]]:11: error: role 'producer' waits on barrier 'empty[0]', which no role arrives on

// JSON: "register_total": 66560
// JSON: "name": "producer"
// JSON: "regs": 40
// JSON: "setmaxnreg": "dec"
// JSON: "severity": "error"

// AMD: warp roles (warpgroups, setmaxnreg) are NVIDIA's; gfx942 kernels have none
// STEP: klx roles: no step named 'no-such-step' ran

!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 384, 1, 1>,
                                     nvvm.minctasm = 1 : i32} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %ticks = arith.constant 1000 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %wg = arith.divui %tid, %c128 : index
      %full = nvgpu.mbarrier.create {klx.barrier = "full"} -> !bar
      %empty = nvgpu.mbarrier.create {klx.barrier = "empty"} -> !bar
      %producer = arith.cmpi eq, %wg, %c2 : index
      scf.if %producer {
        nvvm.setmaxregister decrease 40
        %lane = arith.remui %tid, %c128 : index
        %elected = arith.cmpi eq, %lane, %c0 : index
        scf.if %elected {
          nvgpu.mbarrier.try_wait.parity %empty[%c0], %false, %ticks : !bar
          nvgpu.mbarrier.arrive.expect_tx %full[%c0], %c128 : !bar
        }
      } else {
        nvvm.setmaxregister increase 240
        nvgpu.mbarrier.try_wait.parity %full[%c0], %false, %ticks : !bar
      } {klx.roles = ["producer", "consumer"]}
      gpu.return
    }
  }
}
