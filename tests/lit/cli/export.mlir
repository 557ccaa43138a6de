// klx export writes a Bundle that klx-run reads without MLIR; klx-run
// checks the bundle before it looks for a GPU, and says "no CUDA device"
// (exit 2) where there is none.
// RUN: rm -rf %t && klx export %samples/nvidia/gemm_ws_persistent.mlir -D stages=3 --size=1024x512x256 -o %t/ws | FileCheck %s --check-prefix=WROTE
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/ws/manifest.json
// RUN: FileCheck %s --check-prefix=PARAMS < %t/ws/manifest.json
// RUN: test -s %t/ws/kernel.cubin && test -s %t/ws/kernel.ptx
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so not klx-run %t/ws 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so klx-run %t/ws --json; test $? -eq 2
// RUN: not klx-run %t/ws --size=1000x500x256 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not klx-run %t/ws --trace=%t/t.json 2>&1 | FileCheck %s --check-prefix=NOTRACE
// With --trace the bundle also holds the instrumented build.
// RUN: klx export %samples/nvidia/gemm_pingpong.mlir --trace -o %t/traced | FileCheck %s --check-prefix=TRACED
// RUN: test -s %t/traced/kernel.trace.cubin
// RUN: FileCheck %s --check-prefix=TRACEPTX < %t/traced/kernel.trace.ptx
// RUN: FileCheck %s --check-prefix=MMAEND < %t/traced/kernel.trace.ptx
// A chosen set of CTAs; a wrong one is refused before compiling.
// RUN: klx export %samples/nvidia/gemm_pingpong.mlir --trace --trace-ctas=0,5,131 -o %t/some
// RUN: FileCheck %s --check-prefix=SOMECTAS < %t/some/manifest.json
// RUN: not klx export %samples/nvidia/gemm_pingpong.mlir --trace --trace-ctas=first -o %t/bad-ctas 2>&1 | FileCheck %s --check-prefix=BADCTAS
// RUN: not klx export %samples/nvidia/gemm_pingpong.mlir --trace --trace-ctas=5,3,5 -o %t/twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: FileCheck %s --check-prefix=TRACEMANIFEST < %t/traced/manifest.json
// RUN: mkdir -p %t/bad && cp %t/ws/kernel.cubin %t/bad/ && sed -e 's/"entry": "gemm",//' %t/ws/manifest.json > %t/bad/manifest.json
// RUN: not klx-run %t/bad 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: head -c 60 %t/ws/manifest.json > %t/bad/manifest.json
// RUN: not klx-run %t/bad 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not klx export %samples/nvidia/gemm_ws_persistent.mlir --size=100x128x60 -o %t/odd 2>&1 | FileCheck %s --check-prefix=ODD
// A hand-written kernel exports when it carries klx.launch itself.
// RUN: klx export %samples/nvidia/gemm_tma_wgmma.mlir --size=512x1024x1024 -o %t/hand | FileCheck %s --check-prefix=HAND
// RUN: FileCheck %s --check-prefix=HANDMANIFEST < %t/hand/manifest.json
// It records no timeline: the recording is added by klx-to-nvgpu.
// RUN: not klx export %samples/nvidia/gemm_tma_wgmma.mlir --trace -o %t/hand-traced 2>&1 | FileCheck %s --check-prefix=HANDTRACE
// RUN: test ! -e %t/hand-traced
// Nor does a tile kernel lowered for AMD.
// RUN: not klx export %samples/nvidia/gemm_ws_persistent.mlir --target=gfx942 -D tile_n=128 --trace -o %t/amd-traced 2>&1 | FileCheck %s --check-prefix=AMDTRACE
// RUN: not klx export %samples/nvidia/saxpy.mlir -o %t/saxpy 2>&1 | FileCheck %s --check-prefix=SAXPY

// WROTE: wrote {{.*}}ws: kernel.cubin ({{[0-9]+}} bytes), kernel.ptx, manifest.json (sm_90a, gemm, block 384, 182272 bytes of dynamic shared memory, persistent grid, 1024x512x256)

// MANIFEST-DAG: "klx_bundle": 1,
// MANIFEST-DAG: "source_digest": "xxh3:{{[0-9a-f]+}}",
// MANIFEST-DAG: "entry": "gemm",
// MANIFEST-DAG: "target": "sm_90a",
// MANIFEST-DAG: "grid": "persistent",
// MANIFEST-DAG: "dynamic_shared_memory": 182272,
// MANIFEST-DAG: "stages": "3"
// MANIFEST-DAG: "M": 1024,
// MANIFEST-DAG: "N": 512,
// MANIFEST-DAG: "K": 256,
// MANIFEST-DAG: "kind": "gemm",
// MANIFEST-DAG: "registers": {{[0-9]+}},
// MANIFEST-DAG: "stack_frame": 0,
// The simulated protocol of the same kernel, for klx-run to cite on a hang.
// MANIFEST-DAG: "simulated": {
// MANIFEST-DAG: "completes": true,
// The tensor maps' boxes: A 128 rows x 64 columns, B 64 x 64.
// PARAMS: "params": [
// PARAMS: "box": [
// PARAMS-NEXT: 128,
// PARAMS-NEXT: 64
// PARAMS: "kind": "tensor_map",
// PARAMS-NEXT: "name": "A",
// PARAMS-NEXT: "swizzle": 128
// PARAMS: "kind": "tensor_map",
// PARAMS-NEXT: "name": "B",
// D is a tensor map of the epilogue's 64 x 32 f32 boxes (TMA stores).
// PARAMS: "box": [
// PARAMS-NEXT: 64,
// PARAMS-NEXT: 32
// PARAMS: "dtype": "f32",
// PARAMS-NEXT: "kind": "tensor_map",
// PARAMS-NEXT: "name": "D",
// PARAMS-NEXT: "swizzle": 128

// NODEVICE: result: no_device: no CUDA device: the driver does not load: {{.*}}no-such-libcuda.so

// SIZE: result: bundle_error: --size=1000x500x256: N and K must be multiples of 8 (TMA needs row strides of A and B in multiples of 16 bytes)

// NOTRACE: result: bundle_error: --trace: the bundle has no instrumented build (export it with `klx export --trace`)

// TRACED: manifest.json ({{.*}}), kernel.trace.cubin
// TRACEMANIFEST: "trace": {
// TRACEMANIFEST: "binary": "kernel.trace.cubin",
// TRACEMANIFEST: "clock": "clock64, aligned by globaltimer",
// TRACEMANIFEST: "cta_list": [],
// TRACEMANIFEST: "ctas": 0,
// TRACEMANIFEST: "format": 3,
// TRACEMANIFEST: "kind": "trace",
// TRACEMANIFEST: "warp_roles": [
// TRACEMANIFEST-NEXT: "consumer0",
// TRACEMANIFEST: "consumer1",
// TRACEMANIFEST: "producer",
// TRACEMANIFEST: "warps": 12

// MISSING: result: bundle_error: {{.*}}bad/manifest.json: entry is missing

// TRUNCATED: result: bundle_error: {{.*}}bad/manifest.json:{{[0-9]+}}:{{[0-9]+}}: {{.*}}unexpected end of input

// ODD: klx export: --size=100x128x60: N and K must be multiples of 8

// HAND: wrote {{.*}}hand: kernel.cubin ({{[0-9]+}} bytes), kernel.ptx, manifest.json (sm_90a, gemm_tma_wgmma, block 128, 67584 bytes of dynamic shared memory, tiles grid, 512x1024x1024)
// HANDMANIFEST: "name": "k_tiles"
// AMDTRACE: error: klx export --trace: kernel 'gemm': its target, gfx942, records none: the recording is added as klx-to-nvgpu lowers a tile kernel for sm_90a. Export it without --trace to time it
// HANDTRACE: error: klx export --trace: kernel 'gemm_tma_wgmma': it is written in gpu/nvgpu ops, and only klx tile kernels (klx.kernel) record a timeline: the recording is added as klx-to-nvgpu lowers them. Export it without --trace to time it

// SAXPY: error: klx export: no kernel carries launch facts (klx.launch): klx-to-nvgpu writes them for klx tile kernels, and a hand-written gpu.func can carry its own (see gemm_tma_wgmma.mlir)
// The counter lives in a register: no local memory; events are 8-byte
// stores.
// TRACEPTX-NOT: .local
// TRACEPTX: %globaltimer
// TRACEPTX: %smid
// TRACEPTX: st.global.b64
// Ping-pong's release after an MMA waited for at once is stamped late: its
// word (kind 7 and the late bit, 0x80) is built without a clock read, and
// none sits between it and the arrive.
// TRACEPTX: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 135;
// TRACEPTX-NOT: %clock64
// TRACEPTX: mbarrier.arrive.shared.b64
// From the MMA's end on, the block before the branch to that word reads
// no clock either (each consumer's loop has one).
// MMAEND: wgmma.wait_group.sync.aligned 0;
// MMAEND-NOT: %clock64
// MMAEND: bra.uni
// MMAEND: wgmma.wait_group.sync.aligned 0;
// MMAEND-NOT: %clock64
// MMAEND: bra.uni
// SOMECTAS: "cta_list": [
// SOMECTAS-NEXT: 0,
// SOMECTAS-NEXT: 5,
// SOMECTAS-NEXT: 131
// SOMECTAS: "ctas": 0,
// BADCTAS: klx export: --trace-ctas=first: 'first' is not a CTA: give all, a count (4) or block ids (0,5,131)
// TWICE: klx export: --trace-ctas=5,3,5: lists CTA 5 twice; name each once
