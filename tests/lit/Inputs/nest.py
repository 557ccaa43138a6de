"""Writes a kernel source (or a JSON document) whose brackets nest DEPTH
levels deep at their deepest, the way a generator or a fuzzer writes them:

  nest.py if DEPTH         a gpu.module kernel of nested scf.if regions
  nest.py generic DEPTH    scf.if regions in MLIR's generic form
  nest.py list DEPTH       an attribute of nested lists
  nest.py paren DEPTH      an affine map of nested parentheses
  nest.py angle DEPTH      an argument of nested !llvm.array types
  nest.py manifest DEPTH   a manifest.json whose "abi" nests arrays
"""
import json
import sys


def nested_ifs(depth):
    # gpu.module { gpu.func { scf.if { ... } } }: the ifs add depth - 2.
    ifs = depth - 2
    lines = ["gpu.module @deep {",
             "  gpu.func @deep(%p: memref<4xi32>, %c: i1) kernel attributes "
             "{known_block_size = array<i32: 128, 1, 1>} {",
             "    %c0 = arith.constant 0 : index",
             "    %v = arith.constant 1 : i32"]
    lines += ["scf.if %c {"] * ifs
    lines += ["memref.store %v, %p[%c0] : memref<4xi32>"]
    lines += ["}"] * ifs
    lines += ["    gpu.return", "  }", "}"]
    return "\n".join(lines) + "\n"


def generic_ifs(depth):
    # The function's body and each if's "({": braces nest `depth` deep,
    # parentheses one less.
    ifs = depth - 1
    yield_op = '"scf.yield"() : () -> ()'
    close = "}, {\n" + yield_op + "\n}) : (i1) -> ()\n"
    return ("func.func @f(%c: i1) {\n" + '"scf.if"(%c) ({\n' * ifs +
            yield_op + "\n" + (close + yield_op + "\n") * (ifs - 1) +
            close + "return\n}\n")


def nested_list(depth):
    # The attribute dictionary is one level of braces, not of lists.
    return ("func.func @f() attributes {x = " + "[" * depth + "1" +
            "]" * depth + "} {\n  return\n}\n")


def nested_parens(depth):
    # affine_map<(d0) -> (...)>: the result list is the first level.
    inner = "(" * (depth - 1) + "d0" + ")" * (depth - 1)
    return ("#m = affine_map<(d0) -> (" + inner + ")>\n"
            "func.func @f() attributes {m = #m} {\n  return\n}\n")


def nested_angles(depth):
    t = "!llvm.array<2 x " * depth + "i32" + ">" * depth
    return "func.func @f(%a: " + t + ") {\n  return\n}\n"


def nested_manifest(depth):
    # A real manifest's shape with its "abi" member nested `depth` - 1
    # arrays deep (the document itself is the first level).
    abi = "[" * (depth - 1) + "]" * (depth - 1)
    manifest = {"format": 1, "entry": "k", "binary": "kernel.cubin",
                "grid": [1, 1, 1], "block": [128, 1, 1], "params": []}
    text = json.dumps(manifest, indent=1)
    return text[:-2] + ',\n "abi": ' + abi + "\n}\n"


KINDS = {"if": nested_ifs, "generic": generic_ifs, "list": nested_list,
         "paren": nested_parens, "angle": nested_angles,
         "manifest": nested_manifest}

if __name__ == "__main__":
    sys.stdout.write(KINDS[sys.argv[1]](int(sys.argv[2])))
