// Bad input never crashes: each case ends with exit code 1 (the input is
// wrong) or 2 (usage or environment), never a signal, and says what is
// wrong, with file:line:col where there is one.
//
// RUN: rm -rf %t && mkdir -p %t
// Empty, blank, truncated, binary, invalid UTF-8, too large.
// RUN: printf '' > %t/empty.mlir
// RUN: klx compile %t/empty.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=EMPTY < %t/err
// RUN: printf '  \n\n\t\n' > %t/blank.mlir
// RUN: klx compile %t/blank.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=EMPTY < %t/err
// EMPTY: {{(empty|blank)}}.mlir: error: the file is empty: nothing to compile
// RUN: head -c 3300 %samples/nvidia/gemm_tma_wgmma.mlir > %t/truncated.mlir
// RUN: klx compile %t/truncated.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TRUNCATED < %t/err
// TRUNCATED: truncated.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// RUN: printf 'func \000\001\002\377\376 {\n' > %t/binary.mlir
// RUN: klx compile %t/binary.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BINARY < %t/err
// BINARY: binary.mlir:1:7: error: unexpected character [parse]
// RUN: printf 'func.func @f() {\n  %%%%0 = "test.\377\376"() : () -> i32\n  return\n}\n' > %t/utf8.mlir
// RUN: klx compile %t/utf8.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=UTF8 < %t/err
// UTF8: utf8.mlir:2:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// RUN: %python -c "import sys; f = open(sys.argv[1], 'w'); f.write(open(sys.argv[2]).read()); [f.write('// ' + 'x' * 1021 + '\n') for _ in range(51200)]" %t/big.mlir %samples/nvidia/saxpy.mlir
// RUN: klx compile %t/big.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BIG < %t/err
// BIG: big.mlir: error: the file is 50.{{[0-9]}} MB; klx compiles kernels of up to 16 MB
// A device that never ends, a directory, standard input.
// RUN: klx compile /dev/zero 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ZERO < %t/err
// ZERO: /dev/zero: error: the input goes on past 16 MB; klx compiles kernels of up to 16 MB
// RUN: klx compile %t 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=DIR < %t/err
// DIR: error: cannot read the file: it is a directory, not a kernel source
// RUN: klx compile - --emit=ptx < %samples/nvidia/saxpy.mlir | FileCheck %s --check-prefix=STDIN
// STDIN: .entry saxpy_kernel
// Unknown dialect, type mismatch.
// RUN: printf 'func.func @f() {\n  %%%%0 = frob.nicate 1 : i32\n  return\n}\n' > %t/dialect.mlir
// RUN: klx compile %t/dialect.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DIALECT < %t/err
// DIALECT: dialect.mlir:2:8: error: Dialect `frob' not found for custom op 'frob.nicate'
// RUN: klx compile %fixtures/bad/type-error.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TYPE < %t/err
// TYPE: type-error.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}type
// Schedules that cannot fit the device.
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D stages=8 -D tile_n=256 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SMEM < %t/err
// SMEM: gemm_ws_persistent.mlir:{{[0-9]+}}:3: error: 'klx.kernel' op schedule: 8 stages of 49152 bytes and the epilogue's 32768 bytes need 428032 bytes of shared memory, more than the 232448 a CTA may use
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D consumer_regs=256 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=REGS < %t/err
// REGS: error: 'klx.kernel' op schedule: the roles do not fit the register file: 128 x 40 + 2 x 128 x 256 = 70656 registers > 65536
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir -D stages=many 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=BADVALUE < %t/err
// BADVALUE: error: parameter 'stages' cannot be 'many': it is declared as 4 : i64 [-D]
// Targets and tools.
// RUN: klx compile %samples/nvidia/saxpy.mlir --target=sm_8O 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=TARGET < %t/err
// TARGET: klx: unknown target 'sm_8O' (a chip LLVM's NVPTX or AMDGPU backend knows: sm_90a, sm_80, gfx942, gfx950, ...)
// RUN: klx compile %samples/nvidia/saxpy.mlir --emit=cubin --ptxas=%t/no-ptxas -o %t/out.cubin 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=NOPTXAS < %t/err
// NOPTXAS: saxpy.mlir: error: ptxas not found at '{{.*}}no-ptxas' [cubin]
// RUN: printf '#!/bin/sh\necho "ptxas fatal : out of cheese" >&2\nexit 255\n' > %t/bad-ptxas && chmod +x %t/bad-ptxas
// RUN: klx compile %samples/nvidia/saxpy.mlir --emit=cubin --ptxas=%t/bad-ptxas -o %t/out.cubin 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BADPTXAS < %t/err
// BADPTXAS: saxpy.mlir: error: ptxas: out of cheese [cubin]
// RUN: klx compile %samples/nvidia/saxpy.mlir --emit=sass --nvdisasm=%t/no-nvdisasm 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=NONVDISASM < %t/err
// NONVDISASM: klx compile: no sass: nvdisasm not found at '{{.*}}no-nvdisasm' (--nvdisasm); the cubin is still built
// Bundles: a corrupt manifest and a truncated cubin, refused before any
// driver call.
// RUN: klx export %samples/nvidia/gather_direct.mlir --size=1024 -o %t/b > /dev/null
// RUN: mkdir -p %t/corrupt && cp %t/b/kernel.cubin %t/corrupt/ && printf '{"klx_bundle": 1, "target": ' > %t/corrupt/manifest.json
// RUN: klx-run %t/corrupt > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CORRUPT < %t/out
// CORRUPT: result: bundle_error: {{.*}}corrupt/manifest.json:1:{{[0-9]+}}:
// RUN: mkdir -p %t/cut && cp %t/b/manifest.json %t/cut/ && head -c 2000 %t/b/kernel.cubin > %t/cut/kernel.cubin
// RUN: klx-run %t/cut > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CUT < %t/out
// CUT: result: bundle_error: {{.*}}cut/kernel.cubin: not a whole cubin (truncated: its section headers end at byte {{[0-9]+}}, the file has 2000)
// RUN: mkdir -p %t/garbage && cp %t/b/manifest.json %t/garbage/ && printf 'not an elf at all, just text: hello' > %t/garbage/kernel.cubin
// RUN: klx-run %t/garbage > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=GARBAGE < %t/out
// GARBAGE: result: bundle_error: {{.*}}garbage/kernel.cubin: not a whole cubin (no ELF header)
// --trace-events sizes a recording: out of range, or without --trace, it
// is a usage error before any driver call.
// RUN: klx-run %t/b --trace=%t/t.json --trace-events=0 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=EVENTS0 < %t/err
// EVENTS0: klx-run: --trace-events needs 1 to 16777216
// RUN: klx-run %t/b --trace-events=64 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=EVENTSALONE < %t/err
// EVENTSALONE: klx-run: --trace-events sizes a recording: it needs --trace
// A compile that runs past --timeout (default 300 s) is stopped, exit 3.
// RUN: klx compile %samples/nvidia/gemm_ws_persistent.mlir --timeout=0.01 > /dev/null 2> %t/err; test $? -eq 3
// RUN: FileCheck %s --check-prefix=TIMEOUT < %t/err
// TIMEOUT: klx: the compile did not finish within 0.01 s (--timeout); stopped
// RUN: klx compile %samples/nvidia/saxpy.mlir --timeout=soon 2> %t/err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=BADTIMEOUT < %t/err
// BADTIMEOUT: klx compile: --timeout expects seconds, got 'soon'

// The window's --measured-cta takes a block id: anything else is refused
// before a window opens (exit 2).
// RUN: klx --measured-cta=x 2> %t/cta-err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=MEASURED-CTA < %t/cta-err
// RUN: klx --measured-cta=-1 2> %t/cta-err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=MEASURED-CTA < %t/cta-err
// MEASURED-CTA: klx: --measured-cta expects a CTA's block id (0 or more)
