// A TMA load made by a transform script, in the shape of MLIR's sm90
// transform-dialect TMA tests: a linalg.copy from global memory into a
// shared-memory global inside a gpu.launch, and a schedule that rewrites
// it with transform.nvgpu.rewrite_copy_as_tma. The rewrite makes the
// descriptor on the host, an mbarrier initialised for every thread of the
// block, and in the kernel `if (tid == 0) { TMA load; expect_tx 4096 }
// else { expect_tx 0 }`: the two arms bring 1 + 127 arrivals, which klx
// roles counts together.
//
// RUN: klx pipeline %s | FileCheck %s --check-prefix=STEPS
// STEPS: 1  transform.structured.match
// STEPS-NEXT: 2  transform.nvgpu.rewrite_copy_as_tma {{.*}} yes
// STEPS-NEXT: 3  klx-lint
//
// RUN: klx compile %s --stop-after=transform.nvgpu.rewrite_copy_as_tma | FileCheck %s --check-prefix=REWRITTEN
// REWRITTEN: nvgpu.tma.create.descriptor
// REWRITTEN: gpu.launch
// REWRITTEN: nvgpu.mbarrier.init {{.*}}, %c128
// REWRITTEN: scf.if
// REWRITTEN: nvgpu.tma.async.load
// REWRITTEN: nvgpu.mbarrier.arrive.expect_tx {{.*}}, %c4096
// REWRITTEN: } else {
// REWRITTEN: nvgpu.mbarrier.arrive.expect_tx
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// ROLES: roles after transform.nvgpu.rewrite_copy_as_tma
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
//
// RUN: klx steps %s | FileCheck %s --check-prefix=LOADS
// LOADS: steps after transform.nvgpu.rewrite_copy_as_tma
// LOADS: load {{.*}}nvgpu.tma.async.load
// RUN: klx steps %s --pass=parse | FileCheck %s --check-prefix=COPY
// COPY: load {{.*}}linalg.copy ins(%arg0 : memref<32x64xf16>) outs(%0 : memref<32x64xf16, 3>)
//
// RUN: klx timeline %s | FileCheck %s --check-prefix=TIME
// TIME: after transform.nvgpu.rewrite_copy_as_tma
// TIME: verdict: completes in

!tile = memref<32x64xf16, 3>
module attributes {gpu.container_module, transform.with_named_sequence} {
  memref.global "private" @staged : !tile
  func.func @copy_tile(%src: memref<32x64xf16>, %dst: memref<32x64xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %smem = memref.get_global @staged : !tile
      linalg.copy ins(%src : memref<32x64xf16>) outs(%smem : !tile)
      scf.for %i = %c0 to %c16 step %c1 {
        %base = arith.muli %i, %c128 : index
        %flat = arith.addi %base, %tx : index
        %r = arith.divui %flat, %c64 : index
        %c = arith.remui %flat, %c64 : index
        %v = memref.load %smem[%r, %c] : !tile
        memref.store %v, %dst[%r, %c] : memref<32x64xf16>
      }
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copy = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copy : (!transform.any_op) -> ()
    transform.yield
  }
}
