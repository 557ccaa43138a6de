// klx compile --compare: two variants of one kernel side by side, as text
// and as JSON; one variant against the file as given; another file; and
// the usage errors.
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --compare "stages=2" "stages=4" | FileCheck %s
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --compare "stages=2" "stages=4" --json | FileCheck %s --check-prefix=JSON
// RUN: klx compile %samples/nvidia/gather_indirect.mlir --compare bridge_steps=1 | FileCheck %s --check-prefix=ONE
// RUN: klx compile %samples/nvidia/gather_indirect.mlir --compare %samples/nvidia/gather_direct.mlir | FileCheck %s --check-prefix=FILE
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --compare=stages=3 --pass=klx-circular-buffer | FileCheck %s --check-prefix=PASS
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir --compare 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir --compare "stages=2,=3" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not klx compile %samples/nvidia/gemm_ws_persistent.mlir --compare stages=2 --pass=no-such-step 2>&1 | FileCheck %s --check-prefix=STEP
// RUN: klx compile %samples/nvidia/gemm_two_producers.mlir --compare shared_full_barrier=1 --pass=klx-to-nvgpu | FileCheck %s --check-prefix=DEAD

// CHECK: comparing {{.*}}gemm_ws_persistent.mlir
// CHECK-NEXT: A: stages=2 B: stages=4
// CHECK: * launch dynamic shared memory (@gemm) 133120 bytes 231424 bytes
// CHECK: resources registers (@gemm)
// CHECK: ptx wgmma.mma_async
// CHECK: roles role producer (@gemm) threads 256-383, 1 active, setmaxnreg.dec 40
// CHECK: * timeline waits, consumer (@gemm)
// CHECK: steps steps (@gemm) {{[0-9]+}}: load -> compute -> store | store
// CHECK: IR after klx-to-nvgpu: {{[0-9]+}} lines (A), {{[0-9]+}} lines (B); B adds {{[0-9]+}} and removes {{[0-9]+}}
// CHECK: {{[0-9]+}} of {{[0-9]+}} rows differ (marked *)

// JSON: "label": "stages=2",
// JSON: "label": "stages=4",
// JSON: "comparison": {
// JSON: "step": "klx-to-nvgpu",
// JSON: "name": "dynamic shared memory (@gemm)",
// JSON-NEXT: "a": "133120 bytes",
// JSON-NEXT: "b": "231424 bytes",
// JSON-NEXT: "differs": true
// JSON: "differing":

// ONE: A: as given B: bridge_steps=1
// ONE: * resources shared memory (@gather_indirect) 0 bytes 1024 bytes
// ONE: * ptx bar.sync 0 1
// ONE: * steps crossings in registers (@gather_indirect) 1 0

// FILE: B: {{.*}}gather_direct.mlir
// FILE: * steps steps (@gather_indirect | @gather_direct) 2: load -> compute | load -> compute -> store 1: load -> compute -> store

// PASS: IR after klx-circular-buffer:

// NONE: klx compile --compare: expected FILE and one or two variants (NAME=VALUE[,NAME=VALUE] or a file), got 0
// BAD: klx compile --compare: '=3' in variant 'stages=2,=3' is not NAME=VALUE
// STEP: klx compile --compare: no step named 'no-such-step' ran

// The variant that shares one full barrier between two producers compiles
// (exit 0), but fails klx roles' checks and deadlocks in the simulation:
// the comparison says so.
// DEAD: * roles checks (@gemm) pass {{[0-9]+}} failed
// DEAD: * timeline verdict (@gemm) completes in {{[0-9]+}} cycles DEADLOCK (protocol error)
