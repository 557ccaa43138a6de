// Input nested deeper than anyone writes by hand but a generator or a
// fuzzer does is refused before anything parses it, never a crash (5000
// nested scf.if regions overflowed the parser's stack): at the limit
// (1000 levels of each kind of bracket) it compiles; one level past it,
// the error names the line and column of the bracket that went past.
//
// RUN: rm -rf %t && mkdir -p %t
// Regions, at the limit: the whole pipeline to PTX, and the analyses that
// walk every op of every step (about 2 s each on the 2-core machine).
// RUN: %python %S/../Inputs/nest.py if 1000 > %t/if-1000.mlir
// RUN: klx compile %t/if-1000.mlir --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .entry deep
// RUN: klx steps %t/if-1000.mlir | FileCheck %s --check-prefix=STEPS
// STEPS: step 1: store
// RUN: klx roles %t/if-1000.mlir | FileCheck %s --check-prefix=ROLES
// ROLES: ops: scf.if x998
// Regions, one past the limit (line 1003 opens the 1001st level), and far
// past it: exit 1 and the place, from every subcommand.
// RUN: %python %S/../Inputs/nest.py if 1001 > %t/if-1001.mlir
// RUN: not klx compile %t/if-1001.mlir 2> %t/err
// RUN: FileCheck %s --check-prefix=IF < %t/err
// IF: if-1001.mlir:1003:11: error: regions ({) nest deeper than 1000 levels here; klx reads kernels nested up to 1000 levels of each kind of bracket [parse]
// RUN: %python %S/../Inputs/nest.py if 5000 > %t/if-5000.mlir
// RUN: klx compile %t/if-5000.mlir --emit=ptx 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/err
// IF5000: if-5000.mlir:1003:11: error: regions ({) nest deeper than 1000 levels
// RUN: klx steps %t/if-5000.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/err
// RUN: klx roles %t/if-5000.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/err
// RUN: klx timeline %t/if-5000.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/err
// RUN: klx verify %t/if-5000.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/err
// RUN: klx pipeline %t/if-5000.mlir 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/err
// RUN: klx export %t/if-5000.mlir -o %t/bundle 2> %t/err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/err
// RUN: klx compile %t/if-5000.mlir --compare "a=1" "a=2" > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IF5000 < %t/out
// RUN: klx sweep %t/if-5000.mlir -D stages=2,3 -o %t/sweep > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SWEEP < %t/out
// SWEEP: /2] stages={{[23]}}: {{.*}}if-5000.mlir:1003:11: error: regions ({) nest deeper than 1000 levels
// SWEEP: 2 variants, 0 compiled
// Regions in the generic form, lists, parentheses and angle brackets: at
// the limit each parses; one past it, refused where it went past.
// RUN: %python %S/../Inputs/nest.py generic 1000 > %t/generic-1000.mlir
// RUN: klx compile %t/generic-1000.mlir --stop-after=parse > /dev/null
// RUN: %python %S/../Inputs/nest.py generic 1001 > %t/generic-1001.mlir
// RUN: not klx compile %t/generic-1001.mlir 2> %t/err
// RUN: FileCheck %s --check-prefix=GENERIC < %t/err
// GENERIC: generic-1001.mlir:1001:15: error: regions ({) nest deeper than 1000 levels
// RUN: %python %S/../Inputs/nest.py list 1000 > %t/list-1000.mlir
// RUN: klx compile %t/list-1000.mlir --stop-after=parse > /dev/null
// RUN: %python %S/../Inputs/nest.py list 100000 > %t/list-100000.mlir
// RUN: not klx compile %t/list-100000.mlir 2> %t/err
// RUN: FileCheck %s --check-prefix=LIST < %t/err
// LIST: list-100000.mlir:1:1032: error: lists ([) nest deeper than 1000 levels
// RUN: %python %S/../Inputs/nest.py paren 1000 > %t/paren-1000.mlir
// RUN: klx compile %t/paren-1000.mlir --stop-after=parse > /dev/null
// RUN: %python %S/../Inputs/nest.py paren 100000 > %t/paren-100000.mlir
// RUN: not klx compile %t/paren-100000.mlir 2> %t/err
// RUN: FileCheck %s --check-prefix=PAREN < %t/err
// PAREN: paren-100000.mlir:1:1025: error: parentheses (() nest deeper than 1000 levels
// RUN: %python %S/../Inputs/nest.py angle 1000 > %t/angle-1000.mlir
// RUN: klx compile %t/angle-1000.mlir --stop-after=parse > /dev/null
// RUN: %python %S/../Inputs/nest.py angle 100000 > %t/angle-100000.mlir
// RUN: not klx compile %t/angle-100000.mlir 2> %t/err
// RUN: FileCheck %s --check-prefix=ANGLE < %t/err
// ANGLE: angle-100000.mlir:1:16029: error: angle brackets (<) nest deeper than 1000 levels
// Brackets in comments and strings are not brackets.
// RUN: %python -c "print('// ' + '{' * 5000); print('func.func @f() attributes {s = \"' + '[' * 5000 + '\"} {'); print('  return'); print('}')" > %t/quoted.mlir
// RUN: klx compile %t/quoted.mlir --stop-after=parse > /dev/null
// klx-run: a manifest nested past 64 levels is refused at its place.
// RUN: %python %S/../Inputs/nest.py manifest 64 > %t/m64.json
// RUN: mkdir -p %t/m64 %t/m65 %t/m100000 && cp %t/m64.json %t/m64/manifest.json
// RUN: klx-run %t/m64 > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=M64 < %t/out
// M64: bundle_error: {{.*}}m64/manifest.json: klx_bundle is missing
// RUN: %python %S/../Inputs/nest.py manifest 65 > %t/m65/manifest.json
// RUN: klx-run %t/m65 > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=M65 < %t/out
// M65: bundle_error: {{.*}}/manifest.json:16:72: arrays and objects nest deeper than 64 levels here; klx reads JSON nested up to 64 levels
// RUN: %python %S/../Inputs/nest.py manifest 100000 > %t/m100000/manifest.json
// RUN: klx-run %t/m100000 > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=M65 < %t/out
