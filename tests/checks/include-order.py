#!/usr/bin/env python3
"""The compiler's layers include only downwards.

    include-order.py COMPILER_DIR

The compiler is one library per layer (compiler/lib/CMakeLists.txt):

    Support < Dialect < Analysis < Transforms < Conversion < Target
            < Pipeline < Export < InitAll

A file of a layer (compiler/include/klx/LAYER/..., compiler/lib/LAYER/...)
may include headers of its own layer and the layers below it, and the
runtime's std-only formats (klx/Runtime/...). Link lists cannot refuse an
include of a higher layer's header that holds only enums or inline code,
so this does: each include against the order is printed as
FILE:LINE: LAYER includes HEADER (layer HIGHER), and the exit code is 1.
"""
import pathlib
import re
import sys

LAYERS = ["Support", "Dialect", "Analysis", "Transforms", "Conversion",
          "Target", "Pipeline", "Export", "InitAll"]
# A klx header ("klx/Pipeline/Compiler.h", "klx/InitAll.h") or a private
# one of lib/ named from lib/ ("Analysis/Threads/Divergence.h").
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"((?:klx/)?([A-Za-z]+)[/.][^"]*)"',
                     re.M)


def layer_of(path, root):
    """The layer a file of the compiler belongs to, or None."""
    parts = path.relative_to(root).parts
    if parts[:2] == ("include", "klx"):
        parts = parts[2:]
    elif parts[:1] == ("lib",):
        parts = parts[1:]
    else:
        return None
    name = parts[0].split(".")[0] if parts else ""
    return name if name in LAYERS else None


def violations(root):
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".h", ".cpp", ".td") or not path.is_file():
            continue
        layer = layer_of(path, root)
        if layer is None:
            continue
        text = path.read_text(errors="replace")
        for match in INCLUDE.finditer(text):
            header, included = match.group(1), match.group(2)
            if included not in LAYERS:
                continue  # Runtime, a file of the same folder, ...
            if LAYERS.index(included) > LAYERS.index(layer):
                line = text.count("\n", 0, match.start()) + 1
                yield (f"{path.relative_to(root.parent)}:{line}: {layer} "
                       f"includes {header} (layer {included})")


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    found = list(violations(root))
    for v in found:
        print(v)
    if found:
        print(f"include-order: {len(found)} include(s) against the order "
              f"{' < '.join(LAYERS)}")
        return 1
    print(f"include-order: every include of {root} follows "
          f"{' < '.join(LAYERS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
