// klx steps: each kernel body as ordered load -> compute -> store steps,
// as JSON for scripts; a step named with --pass; the errors. klx export
// writes a gather bundle that klx-run checks before it looks for a GPU.
// RUN: klx steps %samples/nvidia/gather_indirect.mlir --json | FileCheck %s --check-prefix=JSON
// RUN: klx steps %samples/nvidia/gather_indirect.mlir -D bridge_steps=1 --pass=klx-bridge-steps | FileCheck %s --check-prefix=PASS
// RUN: klx steps %samples/nvidia/gemm_ws_persistent.mlir --pass=klx-materialize-schedule | FileCheck %s --check-prefix=KLX
// RUN: not klx steps %samples/nvidia/gather_indirect.mlir --pass=no-such-step 2>&1 | FileCheck %s --check-prefix=NOSTEP
// RUN: not klx steps %s 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// Nothing to read is exit 2, as in klx roles, timeline and verify.
// RUN: klx steps %s > /dev/null 2>&1; test $? -eq 2
// RUN: klx roles %S/modules.mlir > /dev/null 2>&1; test $? -eq 2
// RUN: rm -rf %t && klx export %samples/nvidia/gather_indirect.mlir --size=4096 -o %t/g | FileCheck %s --check-prefix=WROTE
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/g/manifest.json
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so not klx-run %t/g 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: not klx-run %t/g --size=4000 2>&1 | FileCheck %s --check-prefix=RUNSIZE
// RUN: not klx export %samples/nvidia/gather_indirect.mlir --size=64x64x64 -o %t/bad 2>&1 | FileCheck %s --check-prefix=GEMMSIZE

// JSON: "file": "{{.*}}gather_indirect.mlir",
// JSON: "step": "convert-vector-to-scf",
// JSON: "kernel": "gather_indirect",
// JSON: "shape": "load -> compute",
// JSON: "role": "load",
// JSON-NEXT: "op": "memref.load",
// JSON-NEXT: "line": {{[0-9]+}},
// JSON-NEXT: "source_line": {{[0-9]+}},
// JSON: "step": 2,
// JSON-NEXT: "shape": "load -> compute -> store",
// JSON-NEXT: "why": "memref.load at line {{[0-9]+}} takes its address from data that memref.load at line {{[0-9]+}} loads in step 1",
// JSON: "crossings": [
// JSON-NEXT: {
// JSON-NEXT: "op": "arith.index_cast",
// JSON-NEXT: "line": {{[0-9]+}},
// JSON-NEXT: "from": 1,
// JSON-NEXT: "to": 2

// PASS: steps after klx-bridge-steps
// PASS: store (shared)
// PASS: why a new step: gpu.barrier
// PASS-NOT: crossing

// KLX: kernel gemm: 1 step
// KLX-NEXT: step 1: load -> compute -> store
// KLX-NEXT: load {{.*}} klx.load x2

// NOSTEP: klx steps: no step named 'no-such-step' ran

// NOKERNEL: klx steps: {{.*}}steps.mlir: no kernel body to read at any step (kernels are read as gpu.func, gpu.launch, klx.kernel or an LLVM kernel function)

// WROTE: manifest.json (sm_90a, gather_indirect, block 256, 0 bytes of dynamic shared memory, elements grid, N=4096)
// MANIFEST-DAG: "grid": "elements",
// MANIFEST-DAG: "kind": "gather",
// MANIFEST-DAG: "formula": "y[i] = x[idx[i] + 2] + 1, idx in [0, N)",
// MANIFEST-DAG: "N": 4096
// MANIFEST-NOT: "tile"
// NODEVICE: gather: y[i] = x[idx[i] + 2] + 1
// NODEVICE: result: no_device
// RUNSIZE: result: bundle_error: --size=4000: N must be a positive multiple of the block (256 threads, one element each; the kernel does not mask)
// GEMMSIZE: klx export: --size=64x64x64: @gather_indirect is a gather; give its element count N

func.func @host_only(%a: f32) -> f32 {
  return %a : f32
}
