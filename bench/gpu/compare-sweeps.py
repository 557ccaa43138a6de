#!/usr/bin/env python3
"""Two `klx-run --sweep --json` results of one sweep, variant by variant:
klx / cuBLAS (each process's cuBLAS timed on the GPU its klx ran on) with
its [min, max] over the processes, the GPUs each used, and whether the
second's median lies inside the first's range."""
import json
import sys


def rows(path):
    with open(path) as f:
        result = json.load(f)
    out = {}
    for table in result["sizes"]:
        for row in table["rows"]:
            out[(table["size"], row["variant"])] = row
    return result.get("device", ""), out


def cell(row):
    if row.get("status") != "passed":
        return f"{row.get('status')}: {row.get('message', '')}"
    return (f"{row['ratio']:.3f} [{row['ratio_min']:.3f}, {row['ratio_max']:.3f}]"
            f" on GPU {','.join(str(g) for g in row.get('gpus', []))}")


def main():
    (device_a, a), (device_b, b) = rows(sys.argv[1]), rows(sys.argv[2])
    print(f"A: {sys.argv[1]}: {device_a}")
    print(f"B: {sys.argv[2]}: {device_b}")
    print("| size | variant | A klx/cuBLAS | B klx/cuBLAS | B - A |")
    print("|---|---|---|---|---|")
    for key in sorted(a):
        ra, rb = a[key], b.get(key, {})
        delta = ""
        if ra.get("status") == "passed" and rb.get("status") == "passed":
            delta = f"{rb['ratio'] - ra['ratio']:+.3f}"
        print(f"| {key[0]} | {key[1]} | {cell(ra)} | {cell(rb) if rb else '-'} | {delta} |")


if __name__ == "__main__":
    main()
