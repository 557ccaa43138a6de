#!/usr/bin/env bash
# The performance goal of klx's GEMM schedules: builds klx-run here (the
# GPU machine) and runs every bundle under ${1:-bench-bundles}, bf16 in
# with f32 accumulation, D in f32 or (rows named *_out_bf16) bf16, at
# each size of $SIZES (default 8192^3 and 4096^3) in $PROCS separate processes each (default 3), cuBLAS in
# every process, and prints one table of medians over the processes, with
# the card's state (nvidia-smi) before and after. Bundles come from
# bench/gpu/export-gemm-bundles.sh.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bundles=${1:-$root/bench-bundles}
logs=${2:-/tmp/klx-bench}
sizes=${SIZES:-8192x8192x8192 4096x4096x4096}
procs=${PROCS:-3}
mkdir -p "$logs"
source "$root/bench/gpu/gpu-common.sh"
run=$KLX_RUN
echo "before: $(card)" >"$logs/card.txt"
# Rounds over the schedules, so that each schedule's processes are spread
# over the run rather than back to back.
for ((p = 1; p <= procs; p++)); do
  for size in $sizes; do
    for dir in "$bundles"/*/; do
      name=$(basename "$dir")
      timeout 300 "$run" "$dir" --size="$size" --repeat=20 --json \
        >"$logs/$name@$size@$p.json" 2>"$logs/$name@$size@$p.err"
      echo "$name $size $p rc=$?" >>"$logs/rc.txt"
    done
  done
done
echo "after: $(card)" >>"$logs/card.txt"
cat "$logs/card.txt"
echo "cuBLAS: $KLX_CUBLAS; $(nvidia-smi | grep -o 'CUDA Version: [0-9.]*'); $(date -u +%F)"
python3 - "$logs" <<'PY'
import json, os, sys, glob, statistics
from collections import defaultdict
logs = sys.argv[1]
runs = defaultdict(list)  # (name, size) -> [result or None]
for path in sorted(glob.glob(os.path.join(logs, "*@*@*.json"))):
    name, size, _ = os.path.basename(path)[:-5].split("@")
    try:
        runs[(name, size)].append(json.load(open(path)))
    except Exception:
        runs[(name, size)].append(None)
first = next((r for rs in runs.values() for r in rs if r and r.get("device")), {})
print(f"device: {first.get('device', '?')}; bf16 in, f32 accumulate, D of the out column; 20 timed launches per process, median; "
      f"medians over processes, [min, max] of the ratio")
print(f"peak: {first.get('peak_tflops', 0):.0f} TFLOP/s ({first.get('peak_formula', '?')})")
print("| schedule | size | out | processes ok | klx alone TFLOP/s | cuBLAS TFLOP/s | klx / cuBLAS (alternating) | rel. error vs CPU | vs cuBLAS |")
print("|---|---|---|---|---|---|---|---|---|")
med = lambda xs: statistics.median(xs) if xs else float("nan")
for (name, size), rs in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    ok = [r for r in rs if r and r.get("status") == "passed"]
    bad = [(r or {}).get("status", "no output") + " " + (r or {}).get("message", "") for r in rs if r not in ok]
    alone = med([r.get("tflops", 0) for r in ok])
    blas = med([r.get("cublas_tflops", 0) for r in ok])
    ratios = [r["alternating_tflops"] / r["cublas_tflops"] for r in ok if r.get("cublas_tflops")]
    ratio = f"{med(ratios):.2f}x [{min(ratios):.2f}, {max(ratios):.2f}]" if ratios else "-"
    cpu = max([r.get("cpu_check", {}).get("relative_error", float("nan")) for r in ok] or [float("nan")])
    vs = max([r.get("cublas_check", {}).get("relative_error", float("nan")) for r in ok] or [float("nan")])
    note = f" ({'; '.join(bad)})" if bad else ""
    out = next((r.get("out_dtype") for r in ok if r.get("out_dtype")), "?")
    print(f"| {name} | {size.split('x')[0]}^3 | {out} | {len(ok)}/{len(rs)}{note} | {alone:.1f} | {blas:.1f} | {ratio} | {cpu:.2e} | {vs:.2e} |")
PY
