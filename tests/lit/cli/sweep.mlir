// klx sweep compiles every combination of the -D lists (the first varies
// slowest), reports what the compiler knows of each, writes a bundle per
// variant and sweep.json for klx-run --sweep, and says it ran nothing
// where klx-run finds no GPU (KLX_LIBCUDA points at no driver, so this
// holds on a machine with one too).
// RUN: rm -rf %t && mkdir -p %t && env KLX_LIBCUDA=%t/no-such-libcuda.so klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D tile_n=128,256 -D stages=4,5 -D out_dtype=bf16 -o %t/sw --size=1024x512x256 2>%t/progress | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s --check-prefix=PROGRESS < %t/progress
// RUN: FileCheck %s --check-prefix=PLAN < %t/sw/sweep.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sw/tile_n-256_stages-4/manifest.json
// RUN: test -s %t/sw/tile_n-128_stages-5/kernel.cubin && not test -e %t/sw/tile_n-256_stages-5
// klx-run --sweep reads the folder; with no GPU it says so, exit 2.
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so not klx-run --sweep %t/sw 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so klx-run --sweep %t/sw; test $? -eq 2
// --json: one document with the variants and why nothing ran; --csv: a row
// per variant.
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so klx sweep %samples/nvidia/gemm_pingpong.mlir -D stages=2,3 --json 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so klx sweep %samples/nvidia/gemm_pingpong.mlir -D stages=2,3 --csv=%t/sweep.csv > /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=CSV < %t/sweep.csv
// The AMD lowering's resources come from the code object's metadata.
// RUN: klx sweep %samples/amd/gemm_mfma.mlir -D stages=2,3 2>/dev/null | FileCheck %s --check-prefix=AMD
// A ladder: each --ladder rung adds its values to the one before, in
// order; sweep.json says "ordered".
// RUN: env KLX_LIBCUDA=%t/no-such-libcuda.so klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D tile_n=128 --ladder="no roles: warp_specialize=0" --ladder="roles: warp_specialize=1" --ladder="stages=3" -o %t/ladder 2>/dev/null | FileCheck %s --check-prefix=LADDER
// RUN: FileCheck %s --check-prefix=ORDERED < %t/ladder/sweep.json
// RUN: test -s %t/ladder/03-stages-3/kernel.cubin
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D tile_n=128,256 --ladder="stages=3" 2>&1 | FileCheck %s --check-prefix=LADDERLIST
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir --ladder="a: stages" 2>&1 | FileCheck %s --check-prefix=LADDERBAD
// Usage errors, exit 2, and a sweep where nothing compiles, exit 1.
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir 2>&1 | FileCheck %s --check-prefix=NOAXES
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D stages=2,3 -D stages=4 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D stages=2,,3 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D stages=1,2,3,4,5,6,7 -D tile_n=1,2,3,4,5,6 -D tile_m=1,2,3,4,5,6,7 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D stages=2,3 --size=12x 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D stages=2,3 --json --csv=%t/x.csv 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: klx sweep %samples/nvidia/gemm_ws_persistent.mlir -D nosuch=1,2 > %t/none.txt 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NONE < %t/none.txt

// Four variants: tile_n=256 with 5 stages does not fit in shared memory
// (the schedule's error, at the kernel's line); the others compile, with
// no spills and a protocol that completes.
// TABLE: klx sweep: {{.*}}gemm_ws_persistent.mlir: 4 variants, 3 compiled, in {{[0-9.]+}} s on {{[0-9]+}} thread
// TABLE-NEXT: | variant | compiles | registers | shared bytes | stack | spills st/ld | roles | simulated protocol |
// TABLE-NEXT: |---|
// TABLE-NEXT: | tile_n=128 stages=4 | yes | {{[0-9]+}} | {{[0-9]+}} | 0 | 0/0 | producer, consumer | completes in {{[0-9]+}} cycles ({{[0-9.]+}} per 1k outputs) |
// TABLE-NEXT: | tile_n=128 stages=5 | yes | {{[0-9]+}} | {{[0-9]+}} | 0 | 0/0 | producer, consumer | completes in {{[0-9]+}} cycles ({{[0-9.]+}} per 1k outputs) |
// TABLE-NEXT: | tile_n=256 stages=4 | yes | {{[0-9]+}} | {{[0-9]+}} | 0 | 0/0 | producer, consumer | completes in {{[0-9]+}} cycles ({{[0-9.]+}} per 1k outputs) |
// TABLE-NEXT: | tile_n=256 stages=5 | no: {{.*}}gemm_ws_persistent.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'klx.kernel' op schedule: 5 stages of 49152 bytes {{.*}} more than the 232448 a CTA may use [klx-materialize-schedule] | - | - | - | - | - | - |
// Every variant's timeline over the same work, the most any needs (5
// stages: 11 k steps a tile).
// TABLE-NEXT: simulated over 4 tiles x 11 k steps, every variant
// TABLE-NEXT: bundles and sweep.json: {{.*}}sw
// TABLE-NEXT: not run: no CUDA device: {{.*}}; on a machine with a GPU: klx-run --sweep {{.*}}sw

// PROGRESS-DAG: /4] tile_n=128 stages=4: compiled
// PROGRESS-DAG: /4] tile_n=256 stages=5: {{.*}}error:

// PLAN: "klx_sweep": 1,
// PLAN: "sizes": [
// PLAN-NEXT: "1024x512x256"
// PLAN: "bundle": "tile_n-128_stages-4",
// PLAN: "compiled": true,
// PLAN: "out_dtype": "bf16",
// PLAN: "name": "tile_n=128 stages=4",
// PLAN: "bundle": "",
// PLAN-NEXT: "compile_seconds"
// PLAN-NEXT: "compiled": false,
// PLAN: "error": "{{.*}}more than the 232448 a CTA may use

// The bundle carries its -D values, fixed ones included.
// MANIFEST-DAG: "stages": "4"
// MANIFEST-DAG: "tile_n": "256"
// MANIFEST-DAG: "out_dtype": "bf16"

// NODEVICE: klx-run: no CUDA device

// JSON: "not_run": "not run: no CUDA device: {{.*}}; -o DIR writes each variant's bundle
// JSON: "name": "stages=2",
// JSON: "name": "stages=3",

// CSV: variant,compiled,error,registers,shared_memory,stack,spill_store_bytes,spill_load_bytes,roles,role_check_errors,simulated
// CSV-NEXT: stages=2,yes,,{{[0-9]+}},{{[0-9]+}},0,0,0,"producer, consumers, consumer0, consumer1",0,completes in {{[0-9]+}} cycles
// CSV-NEXT: stages=3,yes,

// AMD: | stages=2 | yes | v{{[0-9]+}} a{{[0-9]+}} s{{[0-9]+}} | {{[0-9]+}} | 0 | - |

// LADDER: klx sweep: {{.*}}: 3 variants, 3 compiled
// LADDER: | no roles | yes | {{.*}} | all threads |
// LADDER-NEXT: | roles | yes | {{.*}} | producer, consumer |
// LADDER-NEXT: | stages=3 | yes |
// ORDERED: "ordered": true,
// LADDERLIST: klx sweep: -D tile_n=128,256: a ladder takes one value per -D
// LADDERBAD: klx sweep: --ladder=a: stages: expected NAME=VALUE

// NOAXES: klx sweep: give the values to sweep: -D NAME=V1,V2,...
// TWICE: klx sweep: -D stages is given twice; list its values once
// EMPTY: klx sweep: -D stages=2,,3: an empty value in the list
// TOOMANY: klx sweep: the -D lists make more than 256 variants
// SIZE: klx sweep: --size=12x is not MxNxK
// BOTH: klx sweep: --json and --csv are one or the other
// NONE: | nosuch=1 | no: {{.*}}error: unknown parameter 'nosuch'
// NONE: not run: no variant compiled
