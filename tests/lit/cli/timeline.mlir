// klx timeline: the simulated barrier protocol of each warp-specialized
// kernel, read after klx-circular-buffer, or of a kernel written with
// nvgpu mbarriers, read from its ops; exit 3 on a deadlock, with the
// blocked waits and the reasons.
// RUN: klx timeline %samples/nvidia/gemm_ws_persistent.mlir | FileCheck %s --check-prefix=WS
// RUN: klx timeline %samples/nvidia/gemm_two_producers.mlir | FileCheck %s --check-prefix=TWO
// RUN: klx timeline %samples/nvidia/gemm_two_producers.mlir -D shared_full_barrier=1 > %t.shared; test $? -eq 3
// RUN: FileCheck %s --check-prefix=SHARED < %t.shared
// RUN: klx timeline %samples/nvidia/gemm_pingpong.mlir --json --trace=%t.trace.json | FileCheck %s --check-prefix=PP
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace.json
// RUN: klx timeline %samples/nvidia/gemm_ws_persistent.mlir -D warp_specialize=0 | FileCheck %s --check-prefix=NOROLES
// RUN: klx timeline %samples/nvidia/gemm_ws_persistent.mlir --latency=mma=1024,tma=800 | FileCheck %s --check-prefix=SLOWMMA
// RUN: not klx timeline %samples/nvidia/gemm_ws_persistent.mlir --latency=mmx=3 2>&1 | FileCheck %s --check-prefix=BADLATENCY
// RUN: klx timeline %samples/nvidia/gemm_tma_wgmma.mlir | FileCheck %s --check-prefix=HAND
// RUN: klx timeline %samples/nvidia/gemm_tma_wgmma.mlir --json | FileCheck %s --check-prefix=HANDJSON
// The lowered form of a klx kernel, read from the nvgpu ops klx-to-nvgpu wrote.
// RUN: klx compile %samples/nvidia/gemm_two_producers.mlir -D shared_full_barrier=1 --stop-after=klx-to-nvgpu > %t.lowered.mlir
// RUN: klx timeline %t.lowered.mlir > %t.lowered; test $? -eq 3
// RUN: FileCheck %s --check-prefix=LOWERED < %t.lowered
// RUN: not klx timeline %samples/nvidia/saxpy.mlir 2>&1 | FileCheck %s --check-prefix=NONE

// WS: gemm_ws_persistent.mlir: simulated barrier timeline of @gemm after klx-circular-buffer
// WS-NEXT: bound: 4 tiles x 9 k steps
// WS-NEXT: latency model: TMA 500.00 cycles + bytes / 128.00 per cycle
// WS-NEXT: barriers: full x4 (init 1) empty x4 (init 256)
// WS-NEXT: role producer: 36 k steps, waits
// WS-NEXT: role consumer: 36 k steps, waits
// WS-NEXT: per tile: {{[0-9]+}} cycles; per k step: {{[0-9]+}} cycles
// WS-NEXT: verdict: completes in {{[0-9]+}} cycles
// WS-NOT: why:

// TWO: barriers: full_a x4 (init 1) empty_a x4 (init 256) full_b x4 (init 1) empty_b x4 (init 256)
// TWO: verdict: completes

// SHARED: barriers: full x4 (init 1) empty_a x4 (init 256) empty_b x4 (init 256)
// SHARED: verdict: DEADLOCK (protocol error): the barriers break after {{[0-9]+}} cycles
// SHARED: blocked: consumer at step 0, waiting on full[0] for parity 0: 0 phases completed, 0 arrivals and 16384 bytes pending (IR line {{[0-9]+}})
// SHARED: why: full: 2 arrivals per phase (producer_a 1, producer_b 1) but it is initialised for 1: the phase completes before every role has arrived
// SHARED: why: full[0]: producer_b arrives on phase 0, which already has its 1 arrival (initialised for 1)

// PP: "completes": true,
// PP: "name": "producer",
// PP: "steps": 36,
// PP: "name": "consumer0",
// PP: "steps": 18,
// PP: "name": "consumer1",
// PP: "findings": []

// TRACE: "name":"thread_name"
// TRACE-SAME: "name":"consumer0"
// TRACE: "name":"take turn[0]"
// Flow arrows from the arrive that completes a phase to the wait it ends.
// TRACE: "bp":"e","cat":"barrier","id":{{[0-9]+}},"name":"releases","ph":"f"

// Without roles: one program, thread 0 issuing the first copies of each
// tile and then refilling the ring stages-1 steps ahead.
// NOROLES: barriers: full x4 (init 1) empty x4 (init 256)
// NOROLES-NEXT: role all threads: 36 k steps, waits
// NOROLES-NEXT: per tile:
// NOROLES-NEXT: verdict: completes

// A slower MMA: the producer, four stages ahead, waits nearly all the time.
// SLOWMMA: latency model: TMA 800.00 cycles + bytes / 128.00 per cycle (copies stream one after another), MMA 1024.00 cycles per k step
// SLOWMMA-NEXT: barriers:
// SLOWMMA-NEXT: role producer: 36 k steps, waits 9{{[0-9]}}% of its time
// BADLATENCY: klx timeline: --latency=mmx=3: unknown latency 'mmx' (known: tma, tma_bytes, mma, issue, wake, delay.ROLE)

// The hand-written kernel: thread 0 issues the copies and also multiplies;
// the other 127 threads wait and multiply, and all meet at gpu.barrier.
// HAND: gemm_tma_wgmma.mlir: simulated barrier timeline of @gemm_tma_wgmma after parse, read from nvgpu ops
// HAND-NEXT: model: CTA 0 of a grid of one CTA, k_tiles = 5; one thread of each class run through the kernel
// HAND-NEXT: bound: 5 k steps
// HAND-NEXT: latency model:
// HAND-NEXT: barriers: full x2 (init 1) bar.sync x1 (init 128)
// HAND-NEXT: role thread 0: 5 k steps, waits
// HAND-NEXT: role threads 1-127: 5 k steps, waits
// HAND-NEXT: verdict: completes in {{[0-9]+}} cycles
// HAND-NOT: why:

// HANDJSON: "read_from": "nvgpu ops",
// HANDJSON: "findings": []

// LOWERED: simulated barrier timeline of @gemm after parse, read from nvgpu ops
// LOWERED: barriers: full x4 (init 1) empty_a x4 (init 256) empty_b x4 (init 256) bar.sync x1
// LOWERED: role consumer (threads 0-127): 36 k steps
// LOWERED: role consumer (threads 128-255): 36 k steps
// LOWERED: role producer_a: 36 k steps
// LOWERED: role producer_b: 36 k steps
// LOWERED: verdict: DEADLOCK (protocol error)
// LOWERED: why: full[0]: producer_b arrives on phase 0, which already has its 1 arrival (initialised for 1)

// NONE: klx timeline: {{.*}}saxpy.mlir: no kernel with a barrier protocol at any step

// One role started late (delay.ROLE=cycles): the failure of the shared
// full barrier moves thousands of cycles later, it does not go away. A
// role the kernel does not have is refused.
// RUN: not klx timeline %S/../../../samples/nvidia/gemm_two_producers.mlir -D shared_full_barrier=1 --latency=delay.producer_b=2000 | FileCheck %s --check-prefix=DELAY
// RUN: not klx timeline %S/../../../samples/nvidia/gemm_two_producers.mlir --latency=delay.producer_c=5 2>&1 | FileCheck %s --check-prefix=NOROLE
// DELAY: latency model: {{.*}}, producer_b starts 2000.00 cycles late
// DELAY: verdict: DEADLOCK (protocol error): the barriers break after 2036 cycles
// DELAY: why: full[0] completed phase 0 early: producer_b arrived for it after it had completed
// NOROLE: klx timeline: --latency: no role named 'producer_c' (roles: producer_a, producer_b, consumer)
