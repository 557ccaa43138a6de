// An MMA fed from registers: each k step multiplies S = A B, converts S
// to bf16 in registers (klx.map), and feeds it as the A operand of a second
// MMA with the same B tile (klx.as_operand): O += bf16(S) B. Not a kernel
// anyone needs; the smallest program with the chain attention has (P from
// registers into P V) that the schedule's one k loop holds: P is tile_m x
// tile_n, so tile_n = tile_k.
// klx-to-nvgpu packs each pair of S's bf16 elements into one register
// (cvt.rn.bf16x2.f32) and issues wgmma's register form, per consumer
// fragment and 16 k one klx.wgmma_register_a, B's descriptor advanced 16
// rows (128 in descriptor units) at a time; ptxas assembles it. The role
// tree and the steps count the instructions as MMAs.
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: klx compile %s --emit=cubin -o %t.cubin
// RUN: klx compile %s --stop-after=klx-to-nvgpu --emit=mlir | FileCheck %s --check-prefix=IR
// RUN: klx roles %s | FileCheck %s --check-prefix=ROLES
// RUN: klx steps %s | FileCheck %s --check-prefix=STEPS
// RUN: klx verify %s | FileCheck %s --check-prefix=VERIFY
// RUN: sed 's/128x64xbf16/128x128xbf16/' %s > %t.wide.mlir
// RUN: not klx compile %t.wide.mlir -D tile_n=128 2>&1 | FileCheck %s --check-prefix=WIDE
// PTX: .entry chain
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1,  1, 0,  1;
// PTX: cvt.rn.bf16x2.f32
// PTX: wgmma.fence.sync.aligned;
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 0;
// IR: gpu.func @chain
// IR: nvgpu.warpgroup.mma
// IR: %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.warpgroup.descriptor<tensor = memref<64x64xbf16, 3>> to i64
// IR: nvvm.wgmma.fence.aligned
// IR: klx.wgmma_register_a %{{.*}}, [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %[[B]] {element = bf16, n = 64 : i64}
// IR: %[[B1:.*]] = llvm.add %[[B]], %{{.*}} : i64
// IR: klx.wgmma_register_a %{{.*}}, [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %[[B1]]
// IR-COUNT-2: klx.wgmma_register_a
// IR: nvvm.wgmma.commit.group.sync.aligned
// IR: nvvm.wgmma.wait.group.sync.aligned 0
// IR-NOT: klx.as_operand
// ROLES: role consumer: threads 0-255
// The first MMA at its line, the second's four instructions at theirs.
// ROLES: nvgpu.warpgroup.mma x1 (line [[#@LINE+25]]){{.*}}klx.wgmma_register_a x4 (line [[#@LINE+32]])
// ROLES: checks: registers, setmaxnreg placement and barriers are fine
// STEPS: step 1: load -> compute -> store
// STEPS: compute {{.*}}nvvm.wgmma.mma_async x4
// STEPS: compute {{.*}}arith.truncf x32
// STEPS: compute {{.*}}klx.wgmma_register_a x4
// VERIFY: verified: no deadlock, protocol error or stage race for any timing
// WIDE: .mlir:[[#@LINE+24]]:{{[0-9]+}}: error: 'klx.as_operand' op makes an A operand of tile_m x tile_n = 128 x 128, which the MMA it feeds multiplies by a k step of tile_k = 64 rows of B: needs tile_n = tile_k

module attributes {klx.target = "sm_90a",
                   klx.params = {tile_m = 128 : i64, tile_n = 64 : i64, tile_k = 64 : i64,
                                 stages = 3 : i64, dtype = "bf16", out_dtype = "f32",
                                 epilogue = "direct", deferred_release = false,
                                 persistent = false, consumers = 2 : i64}} {
  klx.kernel @chain(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                    %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = klx.zero
      %k_tiles = klx.k_tiles %K
      %o = scf.for %k = %c0 to %k_tiles step %c1
          iter_args(%oi = %zero) -> (!klx.acc) {
        %a = klx.load a %A[%tm, %k]
        %b = klx.load b %B[%k, %tn]
        %s = klx.mma %a, %b, %zero
        %h = klx.map %s : !klx.acc -> !klx.acc<128x64xbf16> {
        ^bb0(%x: f32):
          %y = arith.truncf %x : f32 to bf16
          klx.map_yield %y : bf16
        }
        %p = klx.as_operand %h : !klx.acc<128x64xbf16> -> !klx.frag
        %on = klx.mma %p, %b, %oi : !klx.frag, !klx.tile, !klx.acc
        scf.yield %on : !klx.acc
      }
      klx.store %o, %D[%tm, %tn]
    }
  }
}
